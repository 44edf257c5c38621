import Foundation

/// A value guarded by a lock, for state shared between libmicrohttpd's threads and Swift's.
///
/// The lock is Foundation's `NSLock`, a POSIX mutex, rather than `Synchronization.Mutex`, whose
/// futex-based lock ThreadSanitizer cannot see on Linux (it reported every access under one as a
/// race); ThreadSanitizer intercepts `pthread_mutex_lock`, so `make test-tsan` checks what this
/// lock guards.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    private var value: Value
    private let lock = NSLock()

    /// Creates a lock guarding `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
