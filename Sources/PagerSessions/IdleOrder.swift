/// The engine's sessions without subscribers, least recently used first: an intrusive doubly
/// linked list, so marking a session used, adding and removing one are O(1), and the sessions
/// that expire are always at the front.
///
/// The list does not own its sessions (the engine's table does): a session must be removed from
/// the list before it is dropped from the table.
struct IdleOrder {
    private(set) unowned(unsafe) var oldest: PagerEngine.Session?
    private unowned(unsafe) var newest: PagerEngine.Session?
    /// Sessions in the list.
    private(set) var count = 0

    /// Adds `session` as the most recently used.
    mutating func append(_ session: PagerEngine.Session) {
        precondition(!session.isLinked, "a session is linked twice")
        session.older = newest
        session.newer = nil
        if let newest { newest.newer = session } else { oldest = session }
        newest = session
        session.isLinked = true
        count += 1
    }

    /// Takes `session` out of the list.
    mutating func remove(_ session: PagerEngine.Session) {
        precondition(session.isLinked, "a session is not linked")
        if let older = session.older { older.newer = session.newer } else { oldest = session.newer }
        if let newer = session.newer { newer.older = session.older } else { newest = session.older }
        session.older = nil
        session.newer = nil
        session.isLinked = false
        count -= 1
    }

    /// Makes `session` the most recently used.
    mutating func moveToNewest(_ session: PagerEngine.Session) {
        guard newest !== session else { return }
        remove(session)
        append(session)
    }
}
