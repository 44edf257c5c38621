import Foundation

/// The wall clock access tokens are read by: Unix time in seconds, as JWT writes it. Injected so
/// that expiry can be tested without waiting.
public protocol AccessClock: Sendable {
    /// Seconds since 1970-01-01 UTC.
    func now() -> Double
}

/// The system's wall clock.
public struct SystemAccessClock: AccessClock {
    /// Creates the clock.
    public init() {}

    public func now() -> Double { Date().timeIntervalSince1970 }
}
