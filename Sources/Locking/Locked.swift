#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a lock: the one way pagerd shares a mutable value between threads outside
/// the engine's actors (see docs/architecture.md, «Threads and locks»).
///
/// The value and its POSIX mutex live in one allocation. A POSIX mutex, rather than
/// `Synchronization.Mutex`, because ThreadSanitizer intercepts `pthread_mutex_lock` and so checks
/// what this lock guards (it cannot see the futex under `Mutex` on Linux and reported every access
/// under one as a race). A thread that must sleep until the value changes (a writer thread waiting
/// for work) waits on the lock's condition variable with ``wait(until:then:)``.
public struct Locked<Value>: @unchecked Sendable {
    // @unchecked: the value is touched only while the mutex is held.
    private let storage: Storage

    /// Creates a lock guarding `value`.
    public init(_ value: Value) {
        storage = Storage.make(value)
    }

    /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try storage.withLock(body)
    }

    /// Waits until `condition` holds for the value, then runs `body` with exclusive access, as
    /// ``withLock(_:)`` does. While it waits the lock is free; it rechecks `condition` whenever
    /// another thread calls ``notifyAll()`` (and, rarely, spuriously).
    public func wait<Result>(until condition: (Value) -> Bool, then body: (inout Value) -> Result) -> Result {
        storage.wait(until: condition, then: body)
    }

    /// Wakes every thread waiting in ``wait(until:then:)`` to recheck its condition. Call it
    /// after changing the value, outside or inside ``withLock(_:)``.
    public func notifyAll() {
        storage.notifyAll()
    }
}

extension Locked {
    /// The lock's mutex and condition variable, in the elements of the value's buffer.
    struct Primitives {
        var mutex = pthread_mutex_t()
        var condition = pthread_cond_t()
    }

    final class Storage: ManagedBuffer<Value, Primitives> {
        static func make(_ value: Value) -> Storage {
            let buffer = Storage.create(minimumCapacity: 1) { _ in value }
            buffer.withUnsafeMutablePointerToElements { primitives in
                primitives.initialize(to: Primitives())
                precondition(pthread_mutex_init(&primitives.pointee.mutex, nil) == 0, "pthread_mutex_init failed")
                precondition(pthread_cond_init(&primitives.pointee.condition, nil) == 0, "pthread_cond_init failed")
            }
            // A ManagedBuffer made by `create` is of the class it is called on.
            return unsafeDowncast(buffer, to: Storage.self)
        }

        deinit {
            // The value, the buffer's header, is destroyed by ManagedBuffer itself.
            withUnsafeMutablePointerToElements { primitives in
                pthread_cond_destroy(&primitives.pointee.condition)
                pthread_mutex_destroy(&primitives.pointee.mutex)
                primitives.deinitialize(count: 1)
            }
        }

        func withLock<Result, Failure: Error>(
            _ body: (inout Value) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            try withUnsafeMutablePointers { (value, primitives) throws(Failure) -> Result in
                pthread_mutex_lock(&primitives.pointee.mutex)
                defer { pthread_mutex_unlock(&primitives.pointee.mutex) }
                return try body(&value.pointee)
            }
        }

        func wait<Result>(until condition: (Value) -> Bool, then body: (inout Value) -> Result) -> Result {
            withUnsafeMutablePointers { value, primitives in
                pthread_mutex_lock(&primitives.pointee.mutex)
                defer { pthread_mutex_unlock(&primitives.pointee.mutex) }
                while !condition(value.pointee) {
                    pthread_cond_wait(&primitives.pointee.condition, &primitives.pointee.mutex)
                }
                return body(&value.pointee)
            }
        }

        func notifyAll() {
            withUnsafeMutablePointerToElements { primitives in
                _ = pthread_cond_broadcast(&primitives.pointee.condition)
            }
        }
    }
}
