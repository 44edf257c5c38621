/// A swipe past an end with a rubber band (docs/api.md, «Overscroll and the trailing action»): which end, and how
/// far, as |p|.
public struct Overscroll: Sendable, Equatable {
    public var edge: Edge
    /// |p|, in (0, 1].
    public var progress: Double

    /// Creates an overscroll.
    public init(edge: Edge, progress: Double) {
        self.edge = edge
        self.progress = progress
    }
}

/// A swipe in flight: from the current page toward a neighbour.
public struct Transition: Sendable, Equatable {
    /// The current index, c.
    public var from: Int
    /// The target index, t.
    public var to: Int
    /// |p|, in [0, 1].
    public var progress: Double
    /// Which way the page moves.
    public var direction: Direction

    /// Creates a transition.
    public init(from: Int, to: Int, progress: Double, direction: Direction) {
        self.from = from
        self.to = to
        self.progress = progress
        self.direction = direction
    }
}
