import Foundation
import PagerSessions

/// The queue between the threads that hand a store work (the engine's, under a shard's lock, and
/// requests) and the store's one writer thread, with the rules both stores follow:
///
/// - adding is an append under a lock, never a wait;
/// - the writer takes everything waiting (up to a limit) in one turn, oldest first;
/// - after a failure the writer takes back everything still waiting (to fail it too) and work
///   that must not build on the failure is refused until the writer ends the refusal;
/// - closing refuses new work, lets the writer finish what is queued, and waits for it to end.
///
/// It also keeps the store's counts for `/metrics`.
final class WriterQueue<Work>: @unchecked Sendable {
    // @unchecked: every member is guarded by `condition`.
    private let condition = NSCondition()
    private var items: [Work] = []
    private var refusal: String?
    private var closing = false
    private var ended = false
    private var counts = StoreStatistics()

    /// Appends `work` unless the store is closed or refusing changes after a failure.
    func add(_ work: Work) throws(StoreError) {
        condition.lock()
        defer { condition.unlock() }
        if closing { throw StoreError("the store is closed") }
        if let refusal { throw StoreError(refusal) }
        append(work)
    }

    /// Appends `work` that does not build on earlier changes (a read), even while changes are
    /// refused; false when the store is closed.
    func addRead(_ work: Work) -> Bool {
        condition.withLock {
            guard !closing else { return false }
            append(work)
            return true
        }
    }

    /// The caller holds the lock.
    private func append(_ work: Work) {
        items.append(work)
        if items.count == 1 { condition.signal() }
    }

    /// For the writer: waits for work and takes up to `limit` items, oldest first; nil once the
    /// store is closing and nothing is left (the writer then calls ``end()``).
    func next(limit: Int = .max) -> [Work]? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closing { condition.wait() }
        guard !items.isEmpty else { return nil }
        let batch = Array(items.prefix(limit))
        items.removeFirst(batch.count)
        return batch
    }

    /// Whether the store is closing (for helper threads that poll).
    var isClosing: Bool { condition.withLock { closing } }

    /// For the writer, after a failed commit: counts it, takes back everything still waiting and
    /// refuses new changes with `reason` until ``endRefusal()``.
    func refuse(_ reason: String) -> [Work] {
        condition.withLock {
            counts.failedCommits += 1
            refusal = reason
            defer { items.removeAll() }
            return items
        }
    }

    /// Accepts changes again.
    func endRefusal() { condition.withLock { refusal = nil } }

    /// What the writer does after a failed commit, the same in every store: logs `reason`, fails
    /// the batch and everything still waiting (`fail` answers one piece of work), refuses new
    /// changes for `pause` seconds, then accepts them again.
    func failAll(
        _ batch: [Work], reason: String, pause: Double, log: (String) -> Void, fail: (Work, StoreError) -> Void
    ) {
        log(reason)
        let failure = StoreError(reason)
        for work in batch + refuse(reason) { fail(work, failure) }
        Thread.sleep(forTimeInterval: pause)
        endRefusal()
    }

    /// Counts a committed transaction carrying `changes` changes.
    func recordCommit(changes: Int) {
        condition.withLock {
            counts.commits += 1
            counts.changes += changes
        }
    }

    var statistics: StoreStatistics { condition.withLock { counts } }

    /// Refuses new work and waits until the writer has ended.
    func close() {
        condition.withLock {
            closing = true
            condition.broadcast()
            while !ended { condition.wait() }
        }
    }

    /// For the writer, as it ends.
    func end() {
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }
}
