import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The engine's serial executor: one lock that work on the engine holds while it runs.
///
/// Work reaches the engine in two ways, and the lock makes them exclusive:
/// - callers that `await` the actor enqueue jobs, which run in order on a private serial queue;
/// - ``PagerEngine/withLock(_:)`` takes the lock on the caller's own thread and runs at once.
///   The HTTP layer answers this way, so a request costs no hop to another thread and back.
///
/// The engine's methods never suspend, so the lock is held for one method's work: a command or a
/// read takes microseconds; the longest holds are bounded batches (``PagerEngine/evictionBatch``
/// evictions, ``PagerEngine/tickBatch`` ticks, 64 each: a tick takes about 4 µs, so a batch about
/// a quarter of a millisecond; docs/performance.md, «Auto-advance»), and a change to a watched
/// session, which hands its event to each of the session's streams (about 2 µs a stream: an
/// audience of thousands holds the shard for milliseconds; docs/architecture.md, «Threads»).
///
/// The executor records which thread holds the lock, so "running on the engine" means exactly
/// "on the thread that holds the lock", which is what `assumeIsolated` asks it
/// (``isIsolatingCurrentContext()``): a task started from inside is not, whichever thread runs
/// it.
@usableFromInline final class EngineExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: `lock` is made for use from any thread; `owner` is atomic.
    /// An `NSLock` (a POSIX mutex, which ThreadSanitizer sees; it cannot see `Synchronization.Mutex`).
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "pagerd.engine")
    /// The thread holding the lock; 0 when none does.
    private let owner = Atomic<UInt>(0)

    @usableFromInline func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            self.runExclusively { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }

    /// Runs `body` holding the lock, on the calling thread; waits only while other work holds it.
    /// Calling it again from inside `body` is a programming error and traps rather than
    /// deadlocking.
    @usableFromInline func runExclusively(_ body: () -> Void) {
        hold()
        defer { release() }
        body()
    }

    /// Takes the lock on the calling thread, waiting only while other work holds it, and records
    /// the thread as its owner. Taking it again on the same thread traps rather than deadlocking.
    @usableFromInline func hold() {
        let me = Self.currentThread
        precondition(owner.load(ordering: .relaxed) != me, "the engine is already held by this thread")
        lock.lock()
        owner.store(me, ordering: .relaxed)
    }

    /// Gives up the lock taken by ``hold()`` on this thread.
    @usableFromInline func release() {
        owner.store(0, ordering: .relaxed)
        lock.unlock()
    }

    /// True on the thread holding the lock, so `assumeIsolated` accepts the engine there.
    @usableFromInline func isIsolatingCurrentContext() -> Bool? {
        owner.load(ordering: .relaxed) == Self.currentThread
    }

    @usableFromInline func checkIsolated() {
        precondition(isIsolatingCurrentContext() == true, "not running on the engine")
    }

    /// The calling thread's identity; a thread only ever compares the owner with its own.
    private static var currentThread: UInt { UInt(pthread_self()) }
}
