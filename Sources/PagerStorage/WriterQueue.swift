import Foundation
import Locking
import PagerSessions

/// The queue between the threads that hand a store work (the engine's, under a shard's lock, and
/// requests) and the store's one writer thread, with the rules both stores follow:
///
/// - adding is an append under a lock, never a wait;
/// - the writer takes everything waiting (up to a limit) in one turn, oldest first;
/// - after a failure the writer takes back everything still waiting (to fail it too) and work
///   that must not build on the failure is refused until the writer ends the refusal; once the
///   failures have been reported, work that frees space (a deletion) is taken again at once;
/// - while the store is short of space, only work that frees space is taken; while its file is
///   damaged, nothing is; a thread that finds the store still short asks the writer to fold
///   (what the journal holds may be space a fold frees);
/// - closing refuses new work, lets the writer finish what is queued, and waits for it to end.
///
/// It also keeps the store's counts for `/metrics`.
final class WriterQueue<Work>: Sendable {
    private struct State {
        var items: [Work] = []
        /// Set after a failed commit: why, and whether every failure has been reported.
        var failure: (reason: String, reported: Bool)?
        /// Set while the disk has less room than the store keeps free.
        var shortage: String?
        /// When the room left was last measured (the store's clock).
        var roomMeasured = -Double.infinity
        /// Set once the store finds its file damaged; never cleared.
        var damage: String?
        /// Set when a fold is asked for with nothing queued (``requestFold()``).
        var foldRequested = false
        var closing = false
        var ended = false
        var counts = StoreStatistics()

        /// Appends `work`; the writer waiting for work is woken by the caller.
        mutating func append(_ work: Work) { items.append(work) }
    }

    /// The writer thread sleeps on this lock's condition while nothing is queued.
    private let state: Locked<State>

    init() { state = Locked(State()) }

    /// Appends `work` unless the store is closed or refuses it: after a failure (until the
    /// failures are reported, and then only work that does not free space, until the refusal
    /// ends), while short of space (unless it frees space), or for good once damaged.
    func add(_ work: Work, freesSpace: Bool = false) throws(StoreError) {
        try state.withLock { (state) throws(StoreError) in
            if state.closing { throw StoreError("the store is closed") }
            if let damage = state.damage { throw StoreError(damage) }
            if let failure = state.failure, !(failure.reported && freesSpace) { throw StoreError(failure.reason) }
            if let shortage = state.shortage, !freesSpace { throw StoreError(shortage) }
            state.append(work)
        }
        state.notifyAll()
    }

    /// Appends `work` that does not build on earlier changes (a read), even while changes are
    /// refused; false when the store is closed.
    func addRead(_ work: Work) -> Bool {
        let added = state.withLock { state in
            guard !state.closing else { return false }
            state.append(work)
            return true
        }
        if added { state.notifyAll() }
        return added
    }

    /// Whether changes are taken now: the store is open, no failure is being reported or
    /// waited out, it is not short of space and its file is not damaged.
    var isAcceptingChanges: Bool {
        state.withLock { !$0.closing && $0.failure == nil && $0.shortage == nil && $0.damage == nil }
    }

    /// For the writer: waits for work and takes up to `limit` items, oldest first; an empty
    /// batch when a fold was asked for (``requestFold()``); nil once the store is closing and
    /// nothing is left (the writer then calls ``end()``).
    func next(limit: Int = .max) -> [Work]? {
        state.wait(until: { !$0.items.isEmpty || $0.closing || $0.foldRequested }) { state in
            state.foldRequested = false
            guard !state.items.isEmpty else { return state.closing ? nil : [] }
            let batch = Array(state.items.prefix(limit))
            state.items.removeFirst(batch.count)
            return batch
        }
    }

    /// Whether the store is closing (for helper threads that poll).
    var isClosing: Bool { state.withLock { $0.closing } }

    /// For the writer, after a failed commit: counts it, takes back everything still waiting and
    /// refuses new changes with `reason` until ``endRefusal()``.
    func refuse(_ reason: String) -> [Work] {
        state.withLock { state in
            state.counts.failedCommits += 1
            state.failure = (reason, false)
            defer { state.items.removeAll() }
            return state.items
        }
    }

    /// Every failure has been reported: work that frees space is taken again.
    func failuresReported() { state.withLock { $0.failure?.reported = true } }

    /// Accepts changes again.
    func endRefusal() { state.withLock { $0.failure = nil } }

    /// What the writer does after a failed commit, the same in every store: logs `reason`, fails
    /// the batch and everything still waiting (`fail` answers one piece of work), refuses new
    /// changes for `pause` seconds (but not deletions once the failures are reported), then
    /// accepts them again.
    func failAll(
        _ batch: [Work], reason: String, pause: Double, log: (String) -> Void, fail: (Work, StoreError) -> Void
    ) {
        log(reason)
        let failure = StoreError(reason)
        for work in batch + refuse(reason) { fail(work, failure) }
        failuresReported()
        Thread.sleep(forTimeInterval: pause)
        endRefusal()
    }

    // MARK: - Space and damage

    /// Records a measure of the room left, begun at `now`: `reason` while short, nil when not.
    /// A measure begun before the last one recorded or claimed (``roomMeasureDue(at:whileShort:otherwise:)``)
    /// is dropped: the writer and a reader can measure at once, and the older result must not
    /// land last. Answers whether that changes what is taken (so that the change is logged once).
    func setShortage(_ reason: String?, at now: Double) -> Bool {
        state.withLock { state in
            guard now >= state.roomMeasured else { return false }
            state.roomMeasured = now
            defer { state.shortage = reason }
            return (state.shortage == nil) != (reason == nil)
        }
    }

    /// Whether the room left is due to be measured again at `now`: every `whileShort` seconds
    /// while the store is short of space, every `otherwise` seconds while it is not (`.infinity`:
    /// never); if so, the caller measures (and the next caller waits another interval).
    func roomMeasureDue(at now: Double, whileShort: Double, otherwise: Double) -> Bool {
        state.withLock { state in
            let interval = state.shortage == nil ? otherwise : whileShort
            guard now - state.roomMeasured >= interval else { return false }
            state.roomMeasured = now
            return true
        }
    }

    /// Whether the store is short of space now.
    var isShortOfSpace: Bool { state.withLock { $0.shortage != nil } }

    /// Wakes the writer to fold the journal even with nothing queued.
    func requestFold() {
        state.withLock { $0.foldRequested = true }
        state.notifyAll()
    }

    /// Refuses every change from now on, with `reason`.
    func setDamage(_ reason: String) { state.withLock { $0.damage = reason } }

    /// Counts a fold of the journal into the table, or a failed one.
    func recordFold(failed: Bool) {
        state.withLock { state in
            if failed { state.counts.failedFolds += 1 } else { state.counts.folds += 1 }
        }
    }

    /// Counts a committed transaction carrying `changes` changes.
    func recordCommit(changes: Int) {
        state.withLock { state in
            state.counts.commits += 1
            state.counts.changes += changes
        }
    }

    var statistics: StoreStatistics { state.withLock { $0.counts } }

    /// Refuses new work and waits until the writer has ended.
    func close() {
        state.withLock { $0.closing = true }
        state.notifyAll()
        state.wait(until: { $0.ended }, then: { _ in })
    }

    /// For the writer, as it ends.
    func end() {
        state.withLock { $0.ended = true }
        state.notifyAll()
    }
}
