#if canImport(Glibc)
    import Glibc
#endif

/// A POSIX mutex. Used instead of `Synchronization.Mutex`, whose futex-based lock
/// ThreadSanitizer cannot see on Linux, so that `make test-tsan` checks what it guards.
final class PosixLock: @unchecked Sendable {
    // @unchecked: a pthread mutex is made for use from any thread.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
