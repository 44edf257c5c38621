import Locking
import MicroHTTP
import PagerAccess
import Synchronization

/// The version of the last state an event stream has written: its writer sets it, and the
/// stream's `expired` event names it, so that a client resuming from it misses nothing.
final class StreamVersion: Sendable {
    private let value: Atomic<Int>

    init(_ version: Int) { value = Atomic(version) }

    var current: Int { value.load(ordering: .relaxed) }

    func set(_ version: Int) { value.store(version, ordering: .relaxed) }
}

/// Ends the event streams opened with an access token when the token stops being accepted (its
/// `exp` plus the leeway): each gets a last event, `expired` with the version it had reached, and
/// closes. One loop serves every stream (``run()``): the streams wait in a heap ordered by their
/// deadline, and the loop wakes at the earliest, at least every second, so a stream ends within
/// about a second of its deadline.
public final class EventExpiry: Sendable {
    private struct Entry: Sendable {
        let stream: HTTPResponseStream
        let version: StreamVersion
        let deadline: Double
    }

    private struct State {
        /// (deadline, key) ordered as a binary min-heap by deadline; a stream that closed before
        /// its deadline stays here (until then, or until closed streams outnumber the waiting
        /// ones and the heap is rebuilt) but is gone from `entries`.
        var heap: [(deadline: Double, key: Int)] = []
        /// The streams waiting, by a key of their registration: never reused, so a closed
        /// stream's deadline left in the heap cannot end a later stream.
        var entries: [Int: Entry] = [:]
        var nextKey = 0

        mutating func push(_ deadline: Double, _ key: Int) {
            heap.append((deadline, key))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].deadline < heap[parent].deadline else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        /// Forgets the closed stream `key`. When the heap holds more than twice the streams
        /// waiting (and 64 more), it is rebuilt from them, sorted (a sorted array is a min-heap),
        /// so it does not grow with streams that came and went.
        mutating func remove(_ key: Int) {
            guard entries.removeValue(forKey: key) != nil else { return }
            if heap.count > 2 * entries.count + 64 {
                heap = entries.map { (deadline: $0.value.deadline, key: $0.key) }.sorted { $0.deadline < $1.deadline }
            }
        }

        mutating func popMin() -> (deadline: Double, key: Int)? {
            guard !heap.isEmpty else { return nil }
            heap.swapAt(0, heap.count - 1)
            let first = heap.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
                if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
            return first
        }
    }

    private let state = Locked(State())
    /// The clock deadlines are read with.
    let clock: any AccessClock

    init(clock: any AccessClock) {
        self.clock = clock
    }

    /// Streams waiting for their deadline.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Deadlines held, of streams waiting and of streams closed since (for tests).
    var heldDeadlines: Int { state.withLock { $0.heap.count } }

    /// The versions the streams waiting have reached, lowest first (for tests: a writer sets its
    /// stream's version just after writing the change).
    var versionsReached: [Int] { state.withLock { $0.entries.values.map(\.version.current).sorted() } }

    /// Ends `stream` at Unix time `deadline` with an `expired` event naming `version`'s value,
    /// unless it closes first.
    func register(_ stream: HTTPResponseStream, until deadline: Double, version: StreamVersion) {
        let key = state.withLock { state in
            let key = state.nextKey
            state.nextKey += 1
            state.entries[key] = Entry(stream: stream, version: version, deadline: deadline)
            state.push(deadline, key)
            return key
        }
        stream.onClose { [state] in state.withLock { $0.remove(key) } }
    }

    /// Ends every stream whose deadline has come; returns how many it ended.
    @discardableResult
    public func endDue() -> Int {
        let now = clock.now()
        let due = state.withLock { state -> [Entry] in
            var due: [Entry] = []
            while let first = state.heap.first, first.deadline <= now, let popped = state.popMin() {
                if let entry = state.entries.removeValue(forKey: popped.key) { due.append(entry) }
            }
            return due
        }
        for entry in due { entry.stream.finish(after: Self.event(version: entry.version.current)) }
        return due.count
    }

    /// The last event of an expired stream.
    static func event(version: Int) -> [UInt8] {
        Array("event: expired\ndata: {\"version\":\(version)}\n\n".utf8)
    }

    /// Ends streams as their deadlines come, until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            let next = state.withLock { $0.heap.first?.deadline }
            let wait = min(1.0, max(0.01, (next ?? .infinity) - clock.now()))
            do { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) } catch { return }
            endDue()
        }
    }
}
