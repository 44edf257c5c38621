public import PagerModel

/// Where sessions are kept beyond the process: the durable layer beneath the engine.
///
/// The engine submits every change while it holds the session's shard, in the order the changes
/// apply, and acknowledges a change to its client only when the store reports it durable. A
/// store commits changes in submission order; when a commit fails, it fails that change and
/// every change submitted after it that it has not committed, and refuses new submissions until
/// those failures have been reported, so that no change built on a failed one is ever kept.
public protocol SessionStore: Sendable {
    /// Every stored session, with its last acknowledged state. Called once, before serving.
    func recover() throws(StoreError) -> [StoredSession]

    /// Queues `change`. It is called with the session's shard held, so it never writes to the
    /// disk or waits for a server (at most, a store short of room refusing a change measures the
    /// room again, a file-system query, no more than every 0.1 s); it throws when the store
    /// refuses changes (after a failure, or when stopped).
    /// `completion` runs once, on the store's own thread, with nil when the change is durable or
    /// the reason it is not. A shared store also tells the other processes holding the session
    /// what the change was (`announcement`), so that their subscribers get the same event; a
    /// store of one process's own sessions has nobody to tell.
    func submit(
        _ change: SessionChange, announcing announcement: ChangeAnnouncement?,
        completion: (@Sendable (StoreError?) -> Void)?
    ) throws(StoreError)

    /// Counts since start, for `/metrics`.
    var statistics: StoreStatistics { get }

    /// Whether the store takes changes now; false while it refuses them (after a failed commit,
    /// while its disk is short of room, its file damaged or its server unreachable). Cheap
    /// enough to be polled (`/readyz`).
    var isAcceptingChanges: Bool { get }

    /// Whether other processes change the same sessions (a shared database). The engine's
    /// sessions are then copies: a session it does not hold is loaded (``load(_:completion:)``),
    /// a change made on a stale copy fails with ``StoreError/conflict`` and the newer state, and
    /// an expired session's row is the store's to delete.
    var isShared: Bool { get }

    /// The session as the store holds it now (nil when it holds none); `completion` runs once,
    /// on the store's own thread (or at once on the caller's, with a failure, when the store is
    /// closed).
    func load(_ id: SessionID, completion: @escaping @Sendable (Result<StoredSession?, StoreError>) -> Void)

    /// For a shared store: deletes the sessions last used before `cutoff` (seconds since 1970),
    /// then calls `completion`.
    func expire(before cutoff: Double, completion: @escaping @Sendable () -> Void)
}

extension SessionStore {
    /// Queues `change` with nothing to announce.
    public func submit(_ change: SessionChange, completion: (@Sendable (StoreError?) -> Void)?) throws(StoreError) {
        try submit(change, announcing: nil, completion: completion)
    }

    /// A store of one process's own sessions.
    public var isShared: Bool { false }

    /// A store that never refuses changes.
    public var isAcceptingChanges: Bool { true }

    /// Such a store holds nothing the engine does not: every session was restored at start.
    public func load(_ id: SessionID, completion: @escaping @Sendable (Result<StoredSession?, StoreError>) -> Void) {
        completion(.success(nil))
    }

    /// Each process deletes what it evicts.
    public func expire(before cutoff: Double, completion: @escaping @Sendable () -> Void) { completion() }
}

/// What a change was, for the subscribers of other processes sharing a store.
public struct ChangeAnnouncement: Sendable, Equatable {
    public var kind: SessionEventKind
    public var cause: EventCause

    /// Creates an announcement.
    public init(kind: SessionEventKind, cause: EventCause) {
        self.kind = kind
        self.cause = cause
    }
}

/// A change another process made to a shared store's session, as the store heard of it.
public struct RemoteChange: Sendable {
    /// What the notification carried.
    public enum State: Sendable {
        /// The whole new state.
        case whole(Pager)
        /// Only a new position (index, transition, overscroll, timer), to lay on the version
        /// before; nil when it does not fit that version.
        case position(@Sendable (Pager) -> Pager?)
        /// Nothing readable (an announcement not put back together): the session is loaded.
        case unknown
        /// The session was deleted.
        case deleted
    }

    public var id: SessionID
    public var version: Int
    public var announcement: ChangeAnnouncement
    public var state: State

    /// Creates a remote change.
    public init(id: SessionID, version: Int, announcement: ChangeAnnouncement, state: State) {
        self.id = id
        self.version = version
        self.announcement = announcement
        self.state = state
    }
}

/// What a store has done since start.
public struct StoreStatistics: Sendable, Equatable {
    /// Transactions committed.
    public var commits = 0
    /// Changes they carried.
    public var changes = 0
    /// Transactions that failed or were refused for want of disk space (each failing its changes
    /// and those queued behind them).
    public var failedCommits = 0
    /// Folds of a journal into the store's table (SQLite).
    public var folds = 0
    /// Folds that failed (each retried later, after a growing pause).
    public var failedFolds = 0

    /// Creates counts.
    public init(commits: Int = 0, changes: Int = 0, failedCommits: Int = 0, folds: Int = 0, failedFolds: Int = 0) {
        self.commits = commits
        self.changes = changes
        self.failedCommits = failedCommits
        self.folds = folds
        self.failedFolds = failedFolds
    }
}

/// One change for a store to keep.
public enum SessionChange: Sendable {
    /// A session's new state, used at `lastUsed` (seconds since 1970). `positionOnly` says that
    /// only the position differs from the previous state saved (the index, the transition, the
    /// overscroll, the auto-advance timer and the version), so a store may write just those.
    case save(SessionID, Pager, lastUsed: Double, positionOnly: Bool)
    /// The session is gone. With `version`, only when it is at that version: a shared store then
    /// answers a conflict when another process changed it first (and so `If-Match` holds there
    /// too); one process's own store deletes it whatever its version.
    case delete(SessionID, version: Int? = nil)
    /// The session was used at `lastUsed` without a change; kept so that a restart does not
    /// expire a session that was only read. Nobody waits for it.
    case touch(SessionID, lastUsed: Double)

    /// The session it concerns.
    public var id: SessionID {
        switch self {
        case .save(let id, _, _, _), .delete(let id, _), .touch(let id, _): id
        }
    }
}

/// A session as a store returns it at start.
public struct StoredSession: Sendable {
    public var id: SessionID
    public var pager: Pager
    /// When it was last used, in seconds since 1970.
    public var lastUsed: Double

    /// Creates a stored session.
    public init(id: SessionID, pager: Pager, lastUsed: Double) {
        self.id = id
        self.pager = pager
        self.lastUsed = lastUsed
    }
}

/// Why a store could not keep or read something.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence for the operator, naming the file or server and the cause.
    public var reason: String
    /// For a change made on a stale copy of a shared session: true, with the session as the
    /// store holds it now in `current` (nil when it is gone).
    public var conflict = false
    public var current: Pager?
    /// For a creation a shared store refused because it holds `sessionLimit` sessions.
    public var sessionLimit: Int?
    /// For a change a shared store refused because its sessions' data would pass `byteLimit`.
    public var byteLimit: Int?

    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }

    /// A change that does not follow the stored version of its session.
    public static func conflict(_ reason: String, current: Pager?) -> StoreError {
        var error = StoreError(reason)
        error.conflict = true
        error.current = current
        return error
    }

    /// A creation refused because the store holds its limit of sessions.
    public static func full(_ reason: String, limit: Int) -> StoreError {
        var error = StoreError(reason)
        error.sessionLimit = limit
        return error
    }

    /// A change refused because the store's sessions' data would pass its budget.
    public static func overBudget(_ reason: String, limit: Int) -> StoreError {
        var error = StoreError(reason)
        error.byteLimit = limit
        return error
    }

    public var description: String { reason }
}
