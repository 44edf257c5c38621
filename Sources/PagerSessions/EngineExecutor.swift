import Dispatch
import Synchronization

/// The engine's serial executor: one lock that work on the engine holds while it runs.
///
/// Work reaches the engine in two ways, and the lock makes them exclusive:
/// - callers that `await` the actor enqueue jobs, which run in order on a private serial queue;
/// - ``PagerEngine/immediately(_:)`` takes the lock on the caller's own thread and runs at once.
///   The HTTP layer answers this way, so a request costs no hop to another thread and back; the
///   engine's methods never suspend, so the lock is held for microseconds.
final class EngineExecutor: SerialExecutor {
    private let lock = Mutex<Void>(())
    private let queue = DispatchQueue(label: "pagerd.engine")

    /// The executor whose lock the current task or thread holds through `runExclusively`.
    @TaskLocal private static var holder: ObjectIdentifier?

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            self.lock.withLock { _ in job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }

    /// Runs `body` holding the lock, on the calling thread; waits only while other work holds it.
    /// Calling it again from inside `body` is a programming error and traps rather than
    /// deadlocking.
    func runExclusively(_ body: () -> Void) {
        precondition(Self.holder != ObjectIdentifier(self), "the engine is already held by this thread")
        lock.withLock { _ in Self.$holder.withValue(ObjectIdentifier(self), operation: body) }
    }

    /// True inside `runExclusively`, so `assumeIsolated` accepts the engine there.
    func isIsolatingCurrentContext() -> Bool? {
        Self.holder == ObjectIdentifier(self)
    }

    func checkIsolated() {
        precondition(isIsolatingCurrentContext() == true, "not running on the engine")
    }
}
