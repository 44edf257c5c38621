#if canImport(Glibc)
    import Glibc
#endif

/// A value guarded by a POSIX mutex, for state shared between libmicrohttpd's threads and Swift's.
///
/// Used instead of `Synchronization.Mutex`, whose futex-based lock ThreadSanitizer cannot see on
/// Linux (it reported every access under such a lock as a race); ThreadSanitizer intercepts
/// `pthread_mutex_lock`, so `make test-tsan` checks what this lock guards.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched between pthread_mutex_lock and pthread_mutex_unlock.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates a lock guarding `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
