import HTTPTypes
import PagerModel
import PagerSessions
import TestSupport
import Testing

@Suite("PagerEngines: sessions sharded by id, limits across shards")
struct EngineShardTests {
    static let onePage = PagerDefinition(
        pages: [Page(id: "a", title: "A")], initialPage: nil, settings: PagerSettings(), catalog: [])

    @Test("a session lives in the shard its id hashes to, and sessions spread over every shard")
    func routing() throws {
        let engines = PagerEngines(count: 4)
        var perShard = [Int](repeating: 0, count: 4)
        for _ in 0..<400 {
            let id = try engines.create(Self.onePage).id
            let shard = engines.shard(for: id)
            #expect(shard.withLock { $0.holds(id) })
            perShard[engines.shards.firstIndex { $0 === shard }!] += 1
        }
        #expect(perShard.allSatisfy { $0 > 50 })
        #expect(engines.sessionCount == 400)
    }

    @Test("the session limit and the memory budget hold for all shards together")
    func limitsAcrossShards() throws {
        let engines = PagerEngines(count: 4, limits: EngineLimits(maxSessions: 10))
        for _ in 0..<10 { _ = try engines.create(Self.onePage) }
        #expect(throws: EngineError.atCapacity(limit: 10)) { try engines.create(Self.onePage) }
        let perSession = Pager.sessionOverheadBytes + Self.onePage.pages[0].storedBytes
        let budgeted = PagerEngines(count: 4, limits: EngineLimits(memoryBudgetBytes: perSession * 5))
        for _ in 0..<5 { _ = try budgeted.create(Self.onePage) }
        #expect(budgeted.storedBytes == perSession * 5)
        #expect(throws: EngineError.memoryBudgetExceeded(limit: perSession * 5)) { try budgeted.create(Self.onePage) }
    }

    @Test("at capacity, expired sessions of any shard make room")
    func evictionAcrossShards() throws {
        let time = ManualTime()
        let engines = PagerEngines(
            count: 4, limits: EngineLimits(maxSessions: 40, idleTTL: 10), clock: TestClock(time: time))
        for _ in 0..<40 { _ = try engines.create(Self.onePage) }
        time.advance(by: 11)
        for _ in 0..<40 { _ = try engines.create(Self.onePage) }
        #expect(engines.sessionCount == 40 && engines.evictions == 40)
    }

    @Test("subscriber caps hold across shards: per address and in all")
    func subscribersAcrossShards() throws {
        let engines = PagerEngines(count: 4, limits: EngineLimits(maxSubscribers: 6, maxSubscribersPerAddress: 3))
        var held: [Subscription] = []
        var refusals: [EngineError] = []
        for index in 0..<8 {
            let id = try engines.create(Self.onePage).id
            let address = index < 5 ? "10.0.0.1" : "10.0.0.\(index)"
            do {
                held.append(
                    try engines.shard(for: id).withLock { engine throws(EngineError) in
                        try engine.subscribe(to: id, from: address)
                    })
            } catch {
                refusals.append(error)
            }
        }
        #expect(held.count == 6 && engines.subscriberTotal == 6)
        #expect(
            refusals == [
                .tooManySubscribers(limit: 3, scope: .address), .tooManySubscribers(limit: 3, scope: .address),
            ])
    }

    @Test("8 threads on distinct sessions each see their own versions 2…501, whatever the shard", .runsAlone)
    func threadsOnDistinctSessions() async throws {
        let engines = PagerEngines(count: 4)
        let twoPages = PagerDefinition(
            pages: [Page(id: "a", title: "A"), Page(id: "b", title: "B")], initialPage: nil, settings: PagerSettings(),
            catalog: [])
        let ids = try (0..<8).map { _ in try engines.create(twoPages).id }
        let results = await withTaskGroup(of: [Int].self) { group in
            for id in ids {
                group.addTask {
                    (0..<500).map { step in
                        (try? engines.shard(for: id).withLock { engine throws(EngineError) in
                            try engine.apply(.scroll(.progress(step % 2 == 0 ? 0.5 : 0.25)), to: id).snapshot.version
                        }) ?? -1
                    }
                }
            }
            return await group.reduce(into: [[Int]]()) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == Array(2...501) })
    }
}
