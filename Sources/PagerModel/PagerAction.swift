/// An action a client can offer, such as "add a page".
public struct PagerAction: Sendable, Equatable {
    /// A stable id the client acts on.
    public var id: String
    /// The label to show.
    public var title: String

    /// Creates an action.
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}
