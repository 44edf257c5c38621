import Foundation
import HTTPTypes
import PagerModel
import PagerSessions
import TestSupport
import Testing

/// A store the test answers by hand: it records each submission and reports it durable or failed
/// when told, as a real store's thread would, calling the completion outside every engine lock.
final class HandStore: SessionStore, @unchecked Sendable {
    // @unchecked: every member is guarded by `lock`.
    private let lock = NSLock()
    private var waiting: [(change: SessionChange, completion: (@Sendable (StoreError?) -> Void)?)] = []
    private var refusal: StoreError?

    var submitted: [SessionChange] { lock.withLock { waiting.map(\.change) } }

    func recover() throws(StoreError) -> [StoredSession] { [] }

    var statistics: StoreStatistics { StoreStatistics() }

    func submit(
        _ change: SessionChange, announcing _: ChangeAnnouncement?, completion: (@Sendable (StoreError?) -> Void)?
    ) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        if let refusal { throw refusal }
        waiting.append((change, completion))
    }

    /// Refuses submissions from now on (nil accepts them again).
    func refuse(_ error: StoreError?) { lock.withLock { refusal = error } }

    var isAcceptingChanges: Bool { lock.withLock { refusal == nil } }

    /// Answers every waiting submission, oldest first, with `error` (nil: durable).
    func answerAll(_ error: StoreError? = nil) {
        let answered = lock.withLock {
            defer { waiting.removeAll() }
            return waiting
        }
        for entry in answered { entry.completion?(error) }
    }
}

@Suite("PagerEngine over a store: acknowledged only when durable, undone when the store fails")
struct EngineStoreTests {
    static let threePages = PagerDefinition(
        pages: [Page(id: "a", title: "A"), Page(id: "b", title: "B"), Page(id: "c", title: "C")],
        initialPage: nil, settings: PagerSettings(), catalog: [])

    /// A session whose creation the store has committed.
    static func created(_ engines: PagerEngines, _ store: HandStore) async throws -> SessionID {
        let created = try engines.create(threePages)
        #expect(created.commit != nil)
        store.answerAll()
        try await created.commit?.durable()
        return created.id
    }

    @Test("a session is invisible until its creation is durable, and a failed creation leaves nothing")
    func creation() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 2, store: store)
        let created = try engines.create(Self.threePages)
        let shard = engines.shard(for: created.id)
        #expect(throws: EngineError.sessionNotFound) { try shard.immediately { try $0.snapshot(of: created.id) } }
        store.answerAll(StoreError("disk full"))
        await #expect(throws: EngineError.storageUnavailable(reason: "disk full")) {
            try await created.commit?.durable()
        }
        #expect(engines.sessionCount == 0)
        #expect(engines.storedBytes == 0)
        #expect(shard.immediately { $0.holds(created.id) } == false)
    }

    @Test("reads show the durable version while a change waits, the new one after it commits")
    func readsWaitForDurability() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 2, store: store)
        let id = try await Self.created(engines, store)
        let shard = engines.shard(for: id)
        let subscription = try shard.immediately { try $0.subscribe(to: id) }
        var events = subscription.events.makeAsyncIterator()
        let result = try shard.immediately { try $0.apply(.next, to: id) }
        #expect(result.snapshot.version == 2)
        #expect(try shard.immediately { try $0.snapshot(of: id) }.version == 1)
        // The next command applies to the newest state, so versions stay in order.
        let second = try shard.immediately { try $0.apply(.next, to: id) }
        #expect(second.snapshot.version == 3)
        guard case .save(_, let saved, _, let positionOnly) = store.submitted.last else {
            Issue.record("expected a save")
            return
        }
        #expect(saved.version == 3 && saved.index == 2 && positionOnly)
        store.answerAll()
        try await result.commit?.durable()
        try await second.commit?.durable()
        let read = try shard.immediately { try $0.snapshot(of: id) }
        #expect(read.version == 3 && read.pager.index == 2)
        let first = await events.next(), then = await events.next()
        #expect(first?.snapshot.version == 2 && first?.kind == .pageChanged)
        #expect(then?.snapshot.version == 3)
        shard.immediately { $0.unsubscribe(subscription.token, from: id) }
    }

    @Test("a failed commit undoes the change and every change after it; the version is not skipped")
    func failureRollsBack() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 2, store: store)
        let id = try await Self.created(engines, store)
        let shard = engines.shard(for: id)
        let before = engines.storedBytes
        let insert = try shard.immediately {
            try $0.apply(.insert(Page(id: "d", title: String(repeating: "D", count: 100)), at: nil), to: id)
        }
        let move = try shard.immediately { try $0.apply(.next, to: id) }
        #expect(engines.storedBytes > before)
        store.answerAll(StoreError("EIO"))
        await #expect(throws: EngineError.storageUnavailable(reason: "EIO")) { try await insert.commit?.durable() }
        await #expect(throws: EngineError.storageUnavailable(reason: "EIO")) { try await move.commit?.durable() }
        #expect(engines.storedBytes == before)
        let latest = try shard.immediately { try $0.latest(of: id) }
        #expect(latest.version == 1 && latest.pager.count == 3 && latest.pager.index == 0)
        let retried = try shard.immediately { try $0.apply(.next, to: id) }
        #expect(retried.snapshot.version == 2)
        store.answerAll()
        try await retried.commit?.durable()
    }

    @Test("a store that refuses changes makes the command fail with nothing applied")
    func refusal() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 1, store: store)
        let id = try await Self.created(engines, store)
        let shard = engines.shard(for: id)
        store.refuse(StoreError("retrying"))
        #expect(throws: EngineError.storageUnavailable(reason: "retrying")) {
            try shard.immediately { try $0.apply(.next, to: id) }
        }
        #expect(throws: EngineError.storageUnavailable(reason: "retrying")) { try engines.create(Self.threePages) }
        #expect(try shard.immediately { try $0.latest(of: id) }.version == 1)
        #expect(engines.sessionCount == 1)
        store.refuse(nil)
        #expect(try shard.immediately { try $0.apply(.next, to: id) }.snapshot.version == 2)
        store.answerAll()
    }

    @Test("a delete takes effect when durable; a failed delete leaves the session as it was")
    func deletion() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 2, store: store)
        let id = try await Self.created(engines, store)
        let shard = engines.shard(for: id)
        let failing = try shard.immediately { try $0.delete(id) }
        // Waiting: commands see no session, reads still do.
        #expect(throws: EngineError.sessionNotFound) { try shard.immediately { try $0.apply(.next, to: id) } }
        #expect(try shard.immediately { try $0.snapshot(of: id) }.version == 1)
        store.answerAll(StoreError("EIO"))
        await #expect(throws: EngineError.storageUnavailable(reason: "EIO")) { try await failing?.durable() }
        #expect(try shard.immediately { try $0.apply(.next, to: id) }.snapshot.version == 2)
        store.answerAll()
        let deleting = try shard.immediately { try $0.delete(id) }
        store.answerAll()
        try await deleting?.durable()
        #expect(throws: EngineError.sessionNotFound) { try shard.immediately { try $0.snapshot(of: id) } }
        #expect(engines.sessionCount == 0)
    }

    @Test("eviction tells the store; sessions with a change in flight are never evicted")
    func evictionTellsTheStore() async throws {
        let store = HandStore()
        let time = ManualTime()
        let engines = PagerEngines(
            count: 1, limits: EngineLimits(idleTTL: 10), clock: TestClock(time: time), store: store)
        let id = try await Self.created(engines, store)
        let shard = engines.shard(for: id)
        _ = try shard.immediately { try $0.apply(.next, to: id) }
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
        var definition = EngineStoreTests.threePages
        definition.settings.autoAdvance.enabled = true
        definition.settings.autoAdvance.interval = 500
        return definition
    }

    @Test("a tick is submitted like a command, published only when durable, rolled back when the store fails")
    func tickThroughTheStore() async throws {
        let store = HandStore()
        let time = ManualTime()
        let engines = PagerEngines(
            count: 1, clock: TestClock(time: time), store: store, drivesTimers: false, wallOrigin: 1_700_000_000)
        let created = try engines.create(Self.ticking())
        store.answerAll()
        try await created.commit?.durable()
        let engine = engines.shards[0]
        let watcher = try engine.immediately { try $0.subscribe(to: created.id) }
        var events = watcher.events.makeAsyncIterator()
        time.advance(by: 0.5)
        #expect(engine.immediately { $0.fireDueTimers() } == 1)
        // Submitted as a position change, with the session's last use (not now: ticks are not use).
        guard case .save(_, let saved, let lastUsed, let positionOnly) = try #require(store.submitted.last) else {
            Issue.record("expected a save")
            return
        }
        #expect(saved.index == 1 && positionOnly && lastUsed == 1_700_000_000)
        #expect(try engine.immediately { try $0.snapshot(of: created.id) }.version == 1)
        store.answerAll()
        let event = await events.next()
        #expect(event?.cause == .autoAdvance && event?.snapshot.version == 2 && event?.kind == .pageChanged)
        // The next tick fails in the store: the session goes back to version 2 and ticks again later.
        time.advance(by: 0.5)
        engine.immediately { _ = $0.fireDueTimers() }
        store.answerAll(StoreError("disk full"))
        let after = try engine.immediately { try $0.latest(of: created.id) }
        #expect(after.version == 2 && after.pager.index == 1)
        #expect(engine.immediately { $0.scheduledTimers } == 1)
        time.advance(by: 0.001)
        #expect(engine.immediately { $0.fireDueTimers() } == 1)
        store.answerAll()
        #expect(try engine.immediately { try $0.snapshot(of: created.id) }.pager.index == 2)
        engine.immediately { $0.unsubscribe(watcher.token, from: created.id) }
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
        engines.shards[0].immediately { _ = $0.fireDueTimers() }
        guard case .save(_, let saved, _, let positionOnly) = try #require(store.submitted.last) else {
            Issue.record("expected a save")
            return
        }
        #expect(!positionOnly && !saved.settings.autoAdvance.enabled && saved.version == 2)
        store.answerAll()
    }
}
