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

    /// Queues `change`. It is called with the session's shard held, so it never blocks on the
    /// disk; it throws when the store refuses changes (after a failure, or when stopped).
    /// `completion` runs once, on the store's own thread, with nil when the change is durable or
    /// the reason it is not.
    func submit(_ change: SessionChange, completion: (@Sendable (StoreError?) -> Void)?) throws(StoreError)

    /// Counts since start, for `/metrics`.
    var statistics: StoreStatistics { get }
}

/// What a store has done since start.
public struct StoreStatistics: Sendable, Equatable {
    /// Transactions committed.
    public var commits = 0
    /// Changes they carried.
    public var changes = 0
    /// Transactions that failed (each failing its changes and those queued behind them).
    public var failedCommits = 0

    /// Creates counts.
    public init(commits: Int = 0, changes: Int = 0, failedCommits: Int = 0) {
        self.commits = commits
        self.changes = changes
        self.failedCommits = failedCommits
    }
}

/// One change for a store to keep.
public enum SessionChange: Sendable {
    /// A session's new state, used at `lastUsed` (seconds since 1970). `positionOnly` says that
    /// only the index, the transition and the version differ from the previous state saved, so
    /// a store may write just those.
    case save(SessionID, Pager, lastUsed: Double, positionOnly: Bool)
    /// The session is gone.
    case delete(SessionID)
    /// The session was used at `lastUsed` without a change; kept so that a restart does not
    /// expire a session that was only read. Nobody waits for it.
    case touch(SessionID, lastUsed: Double)

    /// The session it concerns.
    public var id: SessionID {
        switch self {
        case .save(let id, _, _, _), .delete(let id), .touch(let id, _): id
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

    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
