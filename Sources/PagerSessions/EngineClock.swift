/// A source of the current time in seconds, injected so expiry can be tested without sleeping.
public protocol EngineClock: Sendable {
    /// Seconds since an arbitrary fixed origin; never decreases.
    func now() -> Double
}

/// The process's monotonic clock.
public struct SystemEngineClock: EngineClock {
    private let origin = ContinuousClock.now

    /// Creates a clock whose origin is now.
    public init() {}

    public func now() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
