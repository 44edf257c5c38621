import Locking
public import PagerSessions

/// A time tests move by hand.
public final class ManualTime: Sendable {
    private let seconds = Locked(0.0)

    public init() {}

    /// The current time in seconds.
    public var now: Double { seconds.withLock { $0 } }

    /// Moves time forward.
    public func advance(by delta: Double) { seconds.withLock { $0 += delta } }
}

/// The engine's clock reading a ``ManualTime``.
public struct TestClock: EngineClock {
    /// The time it reads.
    public let time: ManualTime

    /// A clock reading `time`.
    public init(time: ManualTime) { self.time = time }

    public func now() -> Double { time.now }
}
