import PagerModel
import PagerSessions
import TestSupport
import Testing

/// The copies an instance keeps of sessions a shared store holds: which ones it may drop.
@Suite("Copies of shared sessions")
struct SharedCopyTests {
    @Test("dropping unwatched copies keeps the watched ones and those with a change in flight")
    func dropUnwatched() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 1, store: store)
        let engine = engines.shards[0]
        var made: [SessionID] = []
        for _ in 0..<3 { made.append(try await HandStore.created(engines, store)) }
        let ids = made
        let watcher = try engine.withLock { try $0.subscribe(to: ids[0]) }
        _ = try engine.withLock { try $0.apply(.next, to: ids[1]) }  // in flight: kept
        #expect(engine.withLock { $0.dropUnwatchedCopies() } == 1)
        #expect(engine.withLock { $0.holds(ids[0]) && $0.holds(ids[1]) && !$0.holds(ids[2]) })
        #expect(engines.sessionCount == 2)
        store.answerAll()
        #expect(engine.withLock { $0.dropUnwatchedCopies() } == 1)
        engine.withLock { $0.unsubscribe(watcher.token, from: ids[0]) }
    }
}
