import Foundation
import HTTPTypes
import PagerModel
import PagerSessions
import TestSupport
import Testing

/// A store the test answers by hand: it records each submission and reports it durable or failed
/// when told, as a real store's thread would, calling the completion outside every engine lock.
@Suite("PagerEngine over a store: acknowledged only when durable, undone when the store fails")
struct EngineStoreTests {
    @Test("a session is invisible until its creation is durable, and a failed creation leaves nothing")
    func creation() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 2, store: store)
        let created = try engines.create(HandStore.threePages)
        let shard = engines.shard(for: created.id)
        #expect(throws: EngineError.sessionNotFound) { try shard.withLock { try $0.snapshot(of: created.id) } }
        store.answerAll(StoreError("disk full"))
        await #expect(throws: EngineError.storageUnavailable(reason: "disk full")) {
            try await created.commit?.durable()
        }
        #expect(engines.sessionCount == 0)
        #expect(engines.storedBytes == 0)
        #expect(shard.withLock { $0.holds(created.id) } == false)
    }

    @Test("reads show the durable version while a change waits, the new one after it commits")
    func readsWaitForDurability() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 2, store: store)
        let id = try await HandStore.created(engines, store)
        let shard = engines.shard(for: id)
        let subscription = try shard.withLock { try $0.subscribe(to: id) }
        var events = subscription.events.makeAsyncIterator()
        let result = try shard.withLock { try $0.apply(.next, to: id) }
        #expect(result.snapshot.version == 2)
        #expect(try shard.withLock { try $0.snapshot(of: id) }.version == 1)
        // The next command applies to the newest state, so versions stay in order.
        let second = try shard.withLock { try $0.apply(.next, to: id) }
        #expect(second.snapshot.version == 3)
        guard case .save(_, let saved, _, let positionOnly) = store.submitted.last else {
            Issue.record("expected a save")
            return
        }
        #expect(saved.version == 3 && saved.index == 2 && positionOnly)
        store.answerAll()
        try await result.commit?.durable()
        try await second.commit?.durable()
        let read = try shard.withLock { try $0.snapshot(of: id) }
        #expect(read.version == 3 && read.pager.index == 2)
        let first = await events.next(), then = await events.next()
        #expect(first?.snapshot.version == 2 && first?.kind == .pageChanged)
        #expect(then?.snapshot.version == 3)
        shard.withLock { $0.unsubscribe(subscription.token, from: id) }
    }

    @Test("a failed commit undoes the change and every change after it; the version is not skipped")
    func failureRollsBack() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 2, store: store)
        let id = try await HandStore.created(engines, store)
        let shard = engines.shard(for: id)
        let before = engines.storedBytes
        let insert = try shard.withLock {
            try $0.apply(.insert(Page(id: "d", title: String(repeating: "D", count: 100)), at: nil), to: id)
        }
        let move = try shard.withLock { try $0.apply(.next, to: id) }
        #expect(engines.storedBytes > before)
        store.answerAll(StoreError("EIO"))
        await #expect(throws: EngineError.storageUnavailable(reason: "EIO")) { try await insert.commit?.durable() }
        await #expect(throws: EngineError.storageUnavailable(reason: "EIO")) { try await move.commit?.durable() }
        #expect(engines.storedBytes == before)
        let latest = try shard.withLock { try $0.latest(of: id) }
        #expect(latest.version == 1 && latest.pager.count == 3 && latest.pager.index == 0)
        let retried = try shard.withLock { try $0.apply(.next, to: id) }
        #expect(retried.snapshot.version == 2)
        store.answerAll()
        try await retried.commit?.durable()
    }

    @Test("a store that refuses changes makes the command fail with nothing applied")
    func refusal() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 1, store: store)
        let id = try await HandStore.created(engines, store)
        let shard = engines.shard(for: id)
        store.refuse(StoreError("retrying"))
        #expect(throws: EngineError.storageUnavailable(reason: "retrying")) {
            try shard.withLock { try $0.apply(.next, to: id) }
        }
        #expect(throws: EngineError.storageUnavailable(reason: "retrying")) { try engines.create(HandStore.threePages) }
        #expect(try shard.withLock { try $0.latest(of: id) }.version == 1)
        #expect(engines.sessionCount == 1)
        store.refuse(nil)
        #expect(try shard.withLock { try $0.apply(.next, to: id) }.snapshot.version == 2)
        store.answerAll()
    }

    @Test("a delete takes effect when durable; a failed delete leaves the session as it was")
    func deletion() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 2, store: store)
        let id = try await HandStore.created(engines, store)
        let shard = engines.shard(for: id)
        let failing = try shard.withLock { try $0.delete(id) }
        // Waiting: commands see no session, reads still do.
        #expect(throws: EngineError.sessionNotFound) { try shard.withLock { try $0.apply(.next, to: id) } }
        #expect(try shard.withLock { try $0.snapshot(of: id) }.version == 1)
        store.answerAll(StoreError("EIO"))
        await #expect(throws: EngineError.storageUnavailable(reason: "EIO")) { try await failing?.durable() }
        #expect(try shard.withLock { try $0.apply(.next, to: id) }.snapshot.version == 2)
        store.answerAll()
        let deleting = try shard.withLock { try $0.delete(id) }
        store.answerAll()
        try await deleting?.durable()
        #expect(throws: EngineError.sessionNotFound) { try shard.withLock { try $0.snapshot(of: id) } }
        #expect(engines.sessionCount == 0)
    }

    @Test("eviction tells the store; sessions with a change in flight are never evicted")
    func evictionTellsTheStore() async throws {
        let store = HandStore()
        let time = ManualTime()
        let engines = PagerEngines(
            count: 1, limits: EngineLimits(idleTTL: 10), clock: TestClock(time: time), store: store)
        let id = try await HandStore.created(engines, store)
        let shard = engines.shard(for: id)
        _ = try shard.withLock { try $0.apply(.next, to: id) }
        time.advance(by: 11)
        #expect(await engines.evictExpired() == 0)
        store.answerAll()
        #expect(await engines.evictExpired() == 1)
        guard case .delete(let deleted, _) = store.submitted.last else {
            Issue.record("expected a delete, got \(store.submitted)")
            return
        }
        #expect(deleted == id)
    }
}

@Suite("Auto-advance ticks over a store")
struct TickStoreTests {
    static func ticking() -> PagerDefinition {
        var definition = HandStore.threePages
        definition.settings.autoAdvance.enabled = true
        definition.settings.autoAdvance.interval = 500
        return definition
    }

    /// One engine over a hand-answered store, holding a durable ticking session.
    static func started(
        shared: Bool
    ) async throws -> (store: HandStore, time: ManualTime, engines: PagerEngines, created: PagerEngine.Created) {
        let store = HandStore(shared: shared)
        let time = ManualTime()
        let engines = PagerEngines(
            count: 1, clock: TestClock(time: time), store: store, drivesTimers: false, wallOrigin: 1_700_000_000)
        let created = try engines.create(ticking())
        store.answerAll()
        try await created.commit?.durable()
        return (store, time, engines, created)
    }

    @Test("a tick is submitted like a command, published only when durable, rolled back when the store fails")
    func tickThroughTheStore() async throws {
        let (store, time, engines, created) = try await Self.started(shared: false)
        let engine = engines.shards[0]
        let watcher = try engine.withLock { try $0.subscribe(to: created.id) }
        var events = watcher.events.makeAsyncIterator()
        time.advance(by: 0.5)
        #expect(engine.withLock { $0.fireDueTimers() } == 1)
        // Submitted as a position change, with the session's last use (not now: ticks are not use).
        guard case .save(_, let saved, let lastUsed, let positionOnly) = try #require(store.submitted.last) else {
            Issue.record("expected a save")
            return
        }
        #expect(saved.index == 1 && positionOnly && lastUsed == 1_700_000_000)
        #expect(try engine.withLock { try $0.snapshot(of: created.id) }.version == 1)
        store.answerAll()
        let event = await events.next()
        #expect(event?.cause == .autoAdvance && event?.snapshot.version == 2 && event?.kind == .pageChanged)
        // The next tick fails in the store: the session goes back to version 2 and ticks again later.
        time.advance(by: 0.5)
        engine.withLock { _ = $0.fireDueTimers() }
        store.answerAll(StoreError("disk full"))
        let after = try engine.withLock { try $0.latest(of: created.id) }
        #expect(after.version == 2 && after.pager.index == 1)
        #expect(engine.withLock { $0.scheduledTimers } == 1)
        time.advance(by: 0.001)
        #expect(engine.withLock { $0.fireDueTimers() } == 1)
        store.answerAll()
        #expect(try engine.withLock { try $0.snapshot(of: created.id) }.pager.index == 2)
        engine.withLock { $0.unsubscribe(watcher.token, from: created.id) }
    }

    @Test("with a shared store, a tick waits for the change in flight and is made on what the store kept")
    func sharedTickWaitsForTheChangeInFlight() async throws {
        let (store, time, engines, created) = try await Self.started(shared: true)
        let engine = engines.shards[0]
        _ = try engine.withLock { try $0.apply(.next, to: created.id) }
        time.advance(by: 1)
        // The tick comes due while the next is in flight: built on it, it would be stored over
        // another instance's change should the next lose, so it waits.
        #expect(engine.withLock { $0.fireDueTimers() } == 1)
        #expect(store.submitted.count == 1)
        #expect(engine.withLock { $0.scheduledTimers } == 0)
        // The next loses to another instance's select of page b, version 2.
        let held = try engine.withLock { try $0.snapshot(of: created.id) }.pager
        let selected = try held.applying(.select(.index(1), path: .direct), limits: PagerLimits(), now: 0).pager
        let row = try selected.restoring(
            index: 1, transition: nil, overscroll: nil, version: 2, timer: selected.timer)
        store.answerAll(StoreError.conflict("lost", current: row))
        // The tick is queued again and made on the row: page c, version 3.
        #expect(engine.withLock { $0.scheduledTimers } == 1)
        #expect(engine.withLock { $0.fireDueTimers() } == 1)
        guard case .save(_, let saved, _, _) = try #require(store.submitted.last) else {
            Issue.record("expected a save")
            return
        }
        #expect(saved.version == 3 && saved.index == 2)
        store.answerAll()
        #expect(try engine.withLock { try $0.snapshot(of: created.id) }.version == 3)
    }

    @Test("a session loaded from a shared store whose tick passed while nobody held it ticks before the request")
    func overdueTickOnLoad() async throws {
        let store = HandStore(shared: true)
        let time = ManualTime()
        let engines = PagerEngines(
            count: 1, clock: TestClock(time: time), store: store, drivesTimers: false, wallOrigin: 1_700_000_000)
        let definition = Self.ticking()
        let stored = try Pager(pages: definition.pages, settings: definition.settings, now: 1_700_000_000_000)
        time.advance(by: 2)  // due at 0.5 s; nobody held it
        let engine = engines.shards[0]
        let id: SessionID = "loaded-late"
        engine.withLock { $0.adopt(StoredSession(id: id, pager: stored, lastUsed: 1_700_000_000)) }
        // One tick, not four: more than an interval late, it happens now.
        guard case .save(_, let saved, _, _) = try #require(store.submitted.last) else {
            Issue.record("expected a save")
            return
        }
        #expect(store.submitted.count == 1 && saved.version == 2 && saved.index == 1)
        // The request that loaded it waits for the tick, and is made on it.
        #expect(throws: EngineError.self) { try engine.withLock { try $0.apply(.next, to: id) } }
        store.answerAll()
        let next = try engine.withLock { try $0.apply(.next, to: id) }
        #expect(next.snapshot.version == 3 && next.snapshot.pager.index == 2)
        store.answerAll()  // nothing left waiting: a change the store holds holds the engine
    }

    @Test("a halting tick stores the whole document, since the setting changed")
    func haltStoresTheSetting() async throws {
        let store = HandStore()
        let time = ManualTime()
        let engines = PagerEngines(count: 1, clock: TestClock(time: time), store: store, drivesTimers: false)
        var definition = Self.ticking()
        definition.settings.autoAdvance.atEnd = .stop
        definition.initialPage = .index(2)
        let created = try engines.create(definition)
        store.answerAll()
        try await created.commit?.durable()
        time.advance(by: 0.5)
        engines.shards[0].withLock { _ = $0.fireDueTimers() }
        guard case .save(_, let saved, _, let positionOnly) = try #require(store.submitted.last) else {
            Issue.record("expected a save")
            return
        }
        #expect(!positionOnly && !saved.settings.autoAdvance.enabled && saved.version == 2)
        store.answerAll()
    }
}
