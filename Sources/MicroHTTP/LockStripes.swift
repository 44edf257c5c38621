import Foundation

/// A fixed set of locks that short-lived objects borrow instead of each making its own: a
/// request's context takes the one its connection maps to, so a request costs no lock
/// allocation (an `NSLock` is two: the object and its mutex) and writes no shared counter.
///
/// Two objects may be given the same lock. That is safe because code holding one of these locks
/// never waits for another of them: it writes a few fields and may call libmicrohttpd's
/// `MHD_suspend_connection` or `MHD_resume_connection`, which take only libmicrohttpd's own
/// mutex (under which libmicrohttpd calls none of our code) and at most log an error through the
/// server's error log. It is held for a few field writes and those calls, so sharing it costs
/// nothing measurable.
final class LockStripes: Sendable {
    private let locks: [NSLock]
    private let shift: Int

    /// Creates `count` locks; `count` must be a power of two.
    init(count: Int = 64) {
        precondition(count > 1 && count & (count - 1) == 0, "the stripe count must be a power of two above 1")
        locks = (0..<count).map { _ in NSLock() }
        shift = UInt.bitWidth - count.trailingZeroBitCount
    }

    /// The lock for `key` (a connection's address): always the same one for the same key,
    /// spread over the set by a multiplicative hash.
    func lock(for key: OpaquePointer) -> NSLock {
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(key)))
        return locks[Int((address &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))]
    }
}
