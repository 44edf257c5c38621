import MicroHTTP

/// A clock tests move by hand; conforms to the engine's clock protocol in the API tests.
public final class ManualTime: Sendable {
    private let seconds = Locked(0.0)

    public init() {}

    /// The current time in seconds.
    public var now: Double { seconds.withLock { $0 } }

    /// Moves time forward.
    public func advance(by delta: Double) { seconds.withLock { $0 += delta } }
}
