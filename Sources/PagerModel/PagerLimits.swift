/// Limits a pager is held to; the defaults are docs/api.md's («Limits»).
public struct PagerLimits: Sendable, Equatable {
    /// Pages in one pager.
    public var maxPages: Int
    /// Screens pushed on one page's stack.
    public var maxStackDepth: Int
    /// Bytes of compact JSON in one page's or screen's content.
    public var maxContentBytes: Int
    /// The most bytes of session data one pager may hold, as ``Pager/storedBytes`` counts them.
    public var sessionBudgetBytes: Int

    /// The default ``sessionBudgetBytes``: 32 MiB, a sixteenth of the default memory budget. A
    /// session of 200 pages, each with 15 KiB of content in 2,200 members, counts about 18 MiB.
    public static let defaultSessionBudgetBytes = 32 << 20

    /// Creates limits.
    public init(
        maxPages: Int = 1000, maxStackDepth: Int = 32, maxContentBytes: Int = 16 * 1024,
        sessionBudgetBytes: Int = PagerLimits.defaultSessionBudgetBytes
    ) {
        self.maxPages = maxPages
        self.maxStackDepth = maxStackDepth
        self.maxContentBytes = maxContentBytes
        self.sessionBudgetBytes = sessionBudgetBytes
    }
}
