public import PagerModel

/// The engine's limits.
public struct EngineLimits: Sendable, Equatable {
    /// Live sessions at once.
    public var maxSessions: Int
    /// Seconds without a request after which a session is evicted.
    public var idleTTL: Double
    /// Limits on each pager.
    public var pager: PagerLimits
    /// Event-stream subscribers at once, across all sessions.
    public var maxSubscribers: Int
    /// Event-stream subscribers of one session at once.
    public var maxSubscribersPerSession: Int
    /// Event-stream subscribers from one client address at once.
    public var maxSubscribersPerAddress: Int
    /// The most session data all sessions together may hold, as ``Pager/storedBytes`` counts it.
    public var memoryBudgetBytes: Int

    /// The most bytes the read cache may hold across all shards, besides the session data: an
    /// eighth of ``memoryBudgetBytes``. It keeps each session's state document as readers get it
    /// from the first read of a state until the state changes, and is never a reason to refuse
    /// anything: when it is full, a read writes the document without keeping it.
    public var readCacheBudgetBytes: Int { memoryBudgetBytes / 8 }

    /// Event-stream subscribers of one session from one client address at once: half the
    /// session's places (rounded up), so that one client never holds them all.
    public var maxSubscribersPerSessionAddress: Int { (maxSubscribersPerSession + 1) / 2 }

    /// The default ``memoryBudgetBytes``: 512 MiB.
    public static let defaultMemoryBudgetBytes = 512 << 20

    /// Creates limits; the defaults are docs/api.md's («Limits»).
    public init(
        maxSessions: Int = 100_000, idleTTL: Double = 1800, pager: PagerLimits = PagerLimits(),
        maxSubscribers: Int = 512,
        maxSubscribersPerSession: Int = 32, maxSubscribersPerAddress: Int = 32,
        memoryBudgetBytes: Int = EngineLimits.defaultMemoryBudgetBytes
    ) {
        self.maxSessions = maxSessions
        self.idleTTL = idleTTL
        self.pager = pager
        self.maxSubscribers = maxSubscribers
        self.maxSubscribersPerSession = maxSubscribersPerSession
        self.maxSubscribersPerAddress = maxSubscribersPerAddress
        self.memoryBudgetBytes = memoryBudgetBytes
    }
}
