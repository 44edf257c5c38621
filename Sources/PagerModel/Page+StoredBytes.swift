extension Page {
    /// Bytes counted for a page besides its strings and content: the page's slot in the pager,
    /// its tab frame and its stack's buffer.
    static let overheadBytes = 256

    /// The session data this page holds, as budgets count it: a fixed overhead, its id and
    /// title, its content's estimated memory and its stack's screens. O(stack depth).
    public var storedBytes: Int {
        Self.overheadBytes + id.utf8.count + title.utf8.count + contentMeasure.memoryBytes
            + stack.reduce(0) { $0 + $1.storedBytes } + (tab?.storedBytes ?? 0)
            + (accessibilityLabel?.utf8.count ?? 0) + (accessibilityHint?.utf8.count ?? 0)
    }
}

extension Screen {
    /// Bytes counted for a screen besides its strings and content.
    static let overheadBytes = 96

    /// The session data this screen holds, as budgets count it.
    public var storedBytes: Int {
        Self.overheadBytes + id.utf8.count + (title?.utf8.count ?? 0) + (contentMeasure?.memoryBytes ?? 0)
    }
}
