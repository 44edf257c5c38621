/// The engine's sessions whose auto-advance timer is due at some time, earliest first: a binary
/// min-heap that records each session's place in it, so scheduling, rescheduling and removing a
/// session are O(log n) and the earliest due time is O(1). Sessions without a running timer are
/// not in it and cost nothing.
///
/// Like ``IdleOrder``, it does not own its sessions: a session must leave the queue before it
/// leaves the engine's table.
struct TimerQueue {
    /// One queued session: its due time inline, so the heap's comparisons never touch the
    /// session, and the session unowned (the engine's table owns it), so the queue never keeps a
    /// session alive.
    private struct Entry {
        var due: Int64
        unowned let session: PagerEngine.Session
    }

    private var heap: [Entry] = []

    /// Sessions queued.
    var count: Int { heap.count }

    /// The earliest due time (wall-clock milliseconds), if any session is queued.
    var earliest: Int64? { heap.first?.due }

    /// Queues `session` to be due at `due`, or moves it there if it is queued already.
    mutating func schedule(_ session: PagerEngine.Session, at due: Int64) {
        session.timerDue = due
        let slot = session.timerSlot
        if slot < 0 {
            session.timerSlot = heap.count
            heap.append(Entry(due: due, session: session))
            siftUp(heap.count - 1)
            return
        }
        let earlier = due < heap[slot].due
        heap[slot].due = due
        if earlier { siftUp(slot) } else { siftDown(slot) }
    }

    /// Takes `session` out of the queue; nothing happens when it is not queued.
    mutating func remove(_ session: PagerEngine.Session) {
        let slot = session.timerSlot
        guard slot >= 0 else { return }
        let last = heap.count - 1
        if slot != last {
            swapAt(slot, last)
        }
        heap.removeLast()
        session.timerSlot = -1
        if slot < heap.count {
            siftDown(slot)
            siftUp(slot)
        }
    }

    /// Takes out and returns the session due earliest, if it is due by `now`.
    mutating func popDue(now: Int64) -> PagerEngine.Session? {
        guard let first = heap.first, first.due <= now else { return nil }
        let session = first.session
        remove(session)
        return session
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        heap[a].session.timerSlot = a
        heap[b].session.timerSlot = b
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && heap[right].due < heap[left].due ? right : left
            guard heap[child].due < heap[parent].due else { return }
            swapAt(child, parent)
            parent = child
        }
    }
}
