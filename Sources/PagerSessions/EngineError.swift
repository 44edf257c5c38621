public import PagerModel

/// Why the engine refused a request. Nothing changes when one is thrown.
public enum EngineError: Error, Sendable, Equatable {
    /// No live session has this id.
    case sessionNotFound
    /// The session limit is reached.
    case atCapacity(limit: Int)
    /// A subscriber limit is reached: of the server, of the session or of the client's address.
    case tooManySubscribers(limit: Int, scope: SubscriberScope)
    /// Storing the change would take all sessions' data past the memory budget.
    case memoryBudgetExceeded(limit: Int)
    /// `If-Match` named another version; the current one is given.
    case versionMismatch(current: Int)
    /// The pager refused the definition or command.
    case pager(PagerError)
    /// The store could not keep the change, so it was not made.
    case storageUnavailable(reason: String)
    /// With a shared store: another process changed the session first, so this change (made on
    /// a stale copy) was not kept; the engine now holds the newer state and the change may be
    /// made again on it.
    case staleCopy
    /// With a shared store: this process has a change of the session in flight. A change made
    /// now would be built on it, and would still be stored should it lose to another process's:
    /// wait until it settles (``Commit/settled()``), then make the change.
    case changeInFlight(Commit)
}

/// What a subscriber limit counts.
public enum SubscriberScope: String, Sendable, Equatable {
    /// Every subscriber of the server.
    case server
    /// The subscribers of one session.
    case session
    /// The subscribers from one client address.
    case address
    /// The subscribers of one session from one client address.
    case addressInSession
}
