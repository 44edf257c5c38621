import Foundation
import Synchronization

/// A fixed set of locks that short-lived objects borrow instead of each making its own: a
/// request's context takes one when it is made, so a request costs no lock allocation (an
/// `NSLock` is two: the object and its mutex).
///
/// Two objects may be given the same lock. That is safe because code holding one of these locks
/// never takes another lock of ours: it writes a few fields and may call libmicrohttpd's
/// `MHD_suspend_connection` or `MHD_resume_connection`, which call back into nothing. It is held
/// for well under a microsecond, so sharing it costs nothing measurable.
final class LockStripes: Sendable {
    private let locks: [NSLock]
    private let next = Atomic<Int>(0)

    /// Creates `count` locks; `count` must be a power of two.
    init(count: Int = 64) {
        precondition(count > 0 && count & (count - 1) == 0, "the stripe count must be a power of two")
        locks = (0..<count).map { _ in NSLock() }
    }

    /// The next lock, in turn.
    func lock() -> NSLock {
        locks[next.wrappingAdd(1, ordering: .relaxed).oldValue & (locks.count - 1)]
    }
}
