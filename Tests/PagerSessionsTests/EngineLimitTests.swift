import HTTPTypes
import JSON
import PagerModel
import PagerSessions
import TestSupport
import Testing

@Suite("PagerEngine: expiry order, budgets, subscriber caps, isolation")
struct EngineLimitTests {
    static func engine(_ limits: EngineLimits, time: ManualTime = ManualTime()) -> PagerEngine {
        PagerEngine(limits: limits, clock: TestClock(time: time))
    }

    static let onePage = PagerDefinition(
        pages: [Page(id: "a", title: "A")], initialPage: nil, settings: PagerSettings(), catalog: [])

    @Test("creates at capacity look at one session each, not at every session", .runsAlone)
    func capacityDoesNotScan() async throws {
        let engine = Self.engine(EngineLimits(maxSessions: 10_000))
        for _ in 0..<10_000 { _ = try await engine.create(Self.onePage) }
        let visitsBefore = await engine.evictionVisits
        for _ in 0..<100 {
            await #expect(throws: EngineError.atCapacity(limit: 10_000)) { try await engine.create(Self.onePage) }
        }
        // One look at the oldest session per refused create: it has not expired, so none after it has.
        #expect(await engine.evictionVisits - visitsBefore == 100)
        #expect(await engine.sessionCount == 10_000)
    }

    @Test("a create at capacity evicts one batch of expired sessions, not all of them; the sweep takes batches")
    func evictionInBatches() async throws {
        let time = ManualTime()
        let engine = Self.engine(EngineLimits(maxSessions: 1000, idleTTL: 10), time: time)
        for _ in 0..<1000 { _ = try await engine.create(Self.onePage) }
        time.advance(by: 11)
        _ = try await engine.create(Self.onePage)
        #expect(await engine.evictions == PagerEngine.evictionBatch)
        #expect(await engine.sessionCount == 1000 - PagerEngine.evictionBatch + 1)
        #expect(await engine.evictExpired(limit: 500) == 500)
        #expect(await engine.evictExpired(limit: 500) == 1000 - PagerEngine.evictionBatch - 500)
        #expect(await engine.sessionCount == 1)
    }

    @Test("eviction takes the least recently used sessions first and stops at the first live one")
    func expiryOrder() async throws {
        let time = ManualTime()
        let engine = Self.engine(EngineLimits(idleTTL: 100), time: time)
        var ids: [SessionID] = []
        for _ in 0..<5 {
            ids.append(try await engine.create(Self.onePage).id)
            time.advance(by: 10)
        }
        // Created at 0, 10, 20, 30, 40; now 50. Using the first two makes them the newest.
        _ = try await engine.snapshot(of: ids[0])
        _ = try await engine.apply(.scroll(.progress(0)), to: ids[1])
        let events = try await engine.subscribe(to: ids[2], from: "a").events
        time.advance(by: 95)  // now 145: ids 3 and 4 (last used 30, 40) are past 100 s; 0 and 1 (at 50) are not
        let visits = await engine.evictionVisits
        #expect(await engine.evictExpired() == 2)
        #expect(await engine.evictionVisits - visits == 3)
        #expect(await engine.sessionCount == 3)
        for id in ids[3...] { await #expect(throws: EngineError.sessionNotFound) { try await engine.snapshot(of: id) } }
        time.advance(by: 1000)
        // The subscribed session never idles out; the others do.
        #expect(await engine.evictExpired() == 2)
        #expect(try await engine.snapshot(of: ids[2]).version == 1)
        _ = events
    }

    @Test(
        "a use within a second of a session's listing leaves it in place: one expired behind it waits at most that second"
    )
    func idleOrderGranularity() async throws {
        let time = ManualTime()
        // A TTL of 64 s gives a granularity of exactly one second.
        let engine = Self.engine(EngineLimits(idleTTL: 64), time: time)
        let first = try await engine.create(Self.onePage).id
        time.advance(by: 0.5)
        let second = try await engine.create(Self.onePage).id
        time.advance(by: 0.375)  // now 0.875: `first` was listed 0.875 s ago, so it stays first
        _ = try await engine.snapshot(of: first)
        time.advance(by: 63.75)  // now 64.625: `second` (used at 0.5) is past 64 s, `first` (0.875) is not
        #expect(await engine.evictExpired() == 0)
        time.advance(by: 0.375)  // now 65: both are
        #expect(await engine.evictExpired() == 2)

        // A use a second or more after the listing moves the session to the newest end.
        let third = try await engine.create(Self.onePage).id
        let fourth = try await engine.create(Self.onePage).id
        time.advance(by: 1)
        _ = try await engine.snapshot(of: third)
        time.advance(by: 64)  // `fourth` (used at 65) is past 64 s, `third` (66) is not
        let visits = await engine.evictionVisits
        try await Self.expectSweep(of: engine, evicting: 1, keeping: third, taking: fourth)
        #expect(await engine.evictionVisits - visits == 2)
        _ = second
    }

    /// Expects one sweep of `engine` to evict `count` sessions, `gone` among them, and to keep `kept`.
    static func expectSweep(
        of engine: PagerEngine, evicting count: Int, keeping kept: SessionID, taking gone: SessionID
    ) async throws {
        #expect(await engine.evictExpired() == count)
        #expect(try await engine.snapshot(of: kept).version == 1)
        await #expect(throws: EngineError.sessionNotFound) { try await engine.snapshot(of: gone) }
    }

    @Test(
        "a restored session is listed at its last use: used after the restore, it moves behind one that idles out first"
    )
    func restoredListing() async throws {
        let time = ManualTime()
        let engine = Self.engine(EngineLimits(idleTTL: 120), time: time)
        let older = SessionID.random(), newer = SessionID.random()
        let pager = try Pager(pages: [Page(id: "a", title: "A")])
        await engine.restore(older, pager: pager, idleSeconds: 100)
        await engine.restore(newer, pager: pager, idleSeconds: 50)
        time.advance(by: 0.5)
        _ = try await engine.snapshot(of: older)  // used 100.5 s after its listing: moved to the newest end
        time.advance(by: 70)  // `newer` (last used 50 s before the restore) is past 120 s; `older` is not
        try await Self.expectSweep(of: engine, evicting: 1, keeping: older, taking: newer)
    }

    @Test("a session whose last subscriber leaves idles from that moment")
    func idleAfterUnsubscribe() async throws {
        let time = ManualTime()
        let engine = Self.engine(EngineLimits(idleTTL: 100), time: time)
        let id = try await engine.create(Self.onePage).id
        var events: AsyncStream<SessionEvent>? = try await engine.subscribe(to: id, from: "a").events
        time.advance(by: 500)
        events = nil
        // The stream's termination reaches the engine through a task.
        // `watchedSessions` is read on the engine, so it is seen empty only once `unsubscribe` has
        // finished (the nonisolated subscriber count drops midway through it).
        await waitUntil("no session is watched") { await engine.watchedSessions.isEmpty }
        #expect(await engine.watchedSessions.isEmpty)
        #expect(engine.subscriberTotal == 0)
        time.advance(by: 99)
        #expect(await engine.evictExpired() == 0)
        time.advance(by: 2)
        #expect(await engine.evictExpired() == 1)
        _ = events
    }

    @Test("subscriber caps per session and per address answer with their scope; other addresses still subscribe")
    func subscriberCaps() async throws {
        let engine = Self.engine(
            EngineLimits(maxSubscribers: 10, maxSubscribersPerSession: 3, maxSubscribersPerAddress: 2))
        let one = try await engine.create(Self.onePage).id
        let two = try await engine.create(Self.onePage).id
        var held: [AsyncStream<SessionEvent>] = []
        held.append(try await engine.subscribe(to: one, from: "10.0.0.1").events)
        held.append(try await engine.subscribe(to: two, from: "10.0.0.1").events)
        await #expect(throws: EngineError.tooManySubscribers(limit: 2, scope: .address)) {
            try await engine.subscribe(to: one, from: "10.0.0.1")
        }
        held.append(try await engine.subscribe(to: one, from: "10.0.0.2").events)
        held.append(try await engine.subscribe(to: one, from: "10.0.0.3").events)
        await #expect(throws: EngineError.tooManySubscribers(limit: 3, scope: .session)) {
            try await engine.subscribe(to: one, from: "10.0.0.4")
        }
        #expect(engine.subscriberTotal == 4)
        // Deleting a session releases its subscribers' address slots.
        _ = try await engine.delete(one)
        #expect(engine.subscriberTotal == 1)
        held.append(try await engine.subscribe(to: two, from: "10.0.0.1").events)
        #expect(held.count == 5)
    }

    @Test(
        "one address holds at most half of a session's places; others still get the rest, and a leaver frees its place")
    func addressShareOfASession() async throws {
        let engine = Self.engine(
            EngineLimits(maxSubscribers: 100, maxSubscribersPerSession: 32, maxSubscribersPerAddress: 100))
        let id = try await engine.create(Self.onePage).id
        var held: [Subscription] = []
        for _ in 0..<16 { held.append(try await engine.subscribe(to: id, from: "10.0.0.1")) }
        await #expect(throws: EngineError.tooManySubscribers(limit: 16, scope: .addressInSession)) {
            try await engine.subscribe(to: id, from: "10.0.0.1")
        }
        // The 33rd watcher of the issue: another address still finds the other half free.
        for other in 2...17 { held.append(try await engine.subscribe(to: id, from: "10.0.0.\(other)")) }
        await #expect(throws: EngineError.tooManySubscribers(limit: 32, scope: .session)) {
            try await engine.subscribe(to: id, from: "10.0.0.99")
        }
        // Another session takes the same address up to its own share.
        let other = try await engine.create(Self.onePage).id
        held.append(try await engine.subscribe(to: other, from: "10.0.0.1"))
        // A place given back by the first address is its own again.
        await engine.unsubscribe(held[0].token, from: id)
        held.append(try await engine.subscribe(to: id, from: "10.0.0.1"))
        #expect(engine.subscriberTotal == 33)
        // With one place per session the share is that place.
        #expect(EngineLimits(maxSubscribersPerSession: 1).maxSubscribersPerSessionAddress == 1)
    }

    @Test("the memory budget refuses creates and growth with nothing changed, and frees with deletes")
    func memoryBudget() async throws {
        let blob: JSONObject = ["text": .string(String(repeating: "m", count: 3000))]
        let page = Page(id: "a", title: "A", content: blob)
        let definition = PagerDefinition(pages: [page], initialPage: nil, settings: PagerSettings(), catalog: [])
        let perSession = Pager.sessionOverheadBytes + page.storedBytes
        let engine = Self.engine(EngineLimits(memoryBudgetBytes: perSession * 3 + 100))
        var ids: [SessionID] = []
        for _ in 0..<3 { ids.append(try await engine.create(definition).id) }
        #expect(engine.storedBytes == perSession * 3)
        await #expect(throws: EngineError.memoryBudgetExceeded(limit: perSession * 3 + 100)) {
            try await engine.create(definition)
        }
        await #expect(throws: EngineError.memoryBudgetExceeded(limit: perSession * 3 + 100)) {
            try await engine.apply(.push(pageID: "a", Screen(id: "s", content: blob)), to: ids[0])
        }
        #expect(try await engine.snapshot(of: ids[0]).pager.pages[0].stack.isEmpty)
        #expect(try await engine.snapshot(of: ids[0]).version == 1)
        // Shrinking is always allowed, and what it frees can be used.
        _ = try await engine.apply(.update(pageID: "a", PageUpdate(content: [:])), to: ids[1])
        #expect(engine.storedBytes < perSession * 3)
        _ = try await engine.delete(ids[2])
        _ = try await engine.create(definition)
        #expect(await engine.sessionCount == 3)
    }

    @Test("a task started inside `withLock` is not running on the engine and may enter it itself")
    func isolationIsNotInherited() async throws {
        let engine = Self.engine(EngineLimits())
        let id = try await engine.create(Self.onePage).id
        let inner = engine.withLock { _ in
            Task { engine.withLock { engine in (try? engine.snapshot(of: id))?.version ?? -1 } }
        }
        #expect(await inner.value == 1)
    }

    @Test("a refused command leaves the session, its version and every count exactly as they were")
    func refusalsChangeNothing() async throws {
        let engine = Self.engine(
            EngineLimits(pager: PagerLimits(maxPages: 6, maxStackDepth: 2, sessionBudgetBytes: 8_000)))
        let id = try await engine.create(Self.onePage).id
        let blob: JSONObject = ["b": .string(String(repeating: "z", count: 2000))]
        let commands: [PagerCommand] = [
            .next, .previous, .select(.index(3), path: .direct), .select(.id("nope"), path: .shortest),
            .scroll(.progress(0.4)), .beginTransition(to: 5), .endTransition(completed: true),
            .insert(Page(id: "x", title: "X", content: blob), at: nil), .insert(Page(id: "a", title: "dup"), at: 0),
            .insert(Page(id: "y", title: "Y"), at: 99), .remove(pageID: "nope"), .push(pageID: "a", Screen(id: "s")),
            .pop(pageID: "a", toRoot: false), .update(pageID: "a", PageUpdate(moveTo: 7)),
            .replacePages([Page(id: "p", title: "P", content: blob), Page(id: "q", title: "Q", content: blob)]),
            .insertFromCatalog(id: "missing", at: nil),
        ]
        var generator = SplitMix(seed: 7)
        var refusals = 0
        for _ in 0..<600 {
            let command = commands[Int(generator.next() % UInt64(commands.count))]
            let precondition: VersionPrecondition? = generator.next() % 5 == 0 ? .oneOf([1]) : nil
            let before = try await engine.snapshot(of: id)
            let bytesBefore = engine.storedBytes
            do {
                _ = try await engine.apply(command, to: id, precondition: precondition)
            } catch {
                refusals += 1
                #expect(try await engine.snapshot(of: id) == before, "\(command) refused with \(error)")
                #expect(engine.storedBytes == bytesBefore)
            }
        }
        #expect(refusals > 100)
    }
}
