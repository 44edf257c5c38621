/// What to show when a pager has no pages.
public struct EmptyState: Sendable, Equatable {
    /// The message.
    public var title: String
    /// The action offered, if any.
    public var action: PagerAction?

    /// Creates an empty state.
    public init(title: String, action: PagerAction? = nil) {
        self.title = title
        self.action = action
    }
}
