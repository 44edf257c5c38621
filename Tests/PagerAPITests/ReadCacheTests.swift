import Foundation
import HTTPTypes
import JSON
import PagerAPI
import PagerModel
import PagerSessions
import TestSupport
import Testing

@Suite("The read cache: a state's document is written once for every read of that state")
struct ReadCacheTests {
    static let twoPages = PagerDefinition(
        pages: [Page(id: "a", title: "A"), Page(id: "b", title: "B")], initialPage: nil, settings: PagerSettings(),
        catalog: [])

    /// Bytes with a known capacity, as a writer would hand them back.
    static func document(_ text: String, capacity: Int = 64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity)
        bytes.append(contentsOf: text.utf8)
        return bytes
    }

    @Test("a read finds the state, a kept document serves the reads after it, and a change drops it")
    func keptUntilTheStateChanges() async throws {
        let engine = PagerEngine()
        let id = try await engine.create(Self.twoPages).id
        guard case .state(let first, _) = try await engine.read(id, unlessVersionIn: nil) else {
            Issue.record("a first read found a kept document")
            return
        }
        #expect(first.version == 1 && first.pager.index == 0)
        let bytes = Self.document("{\"version\":1}")
        await engine.keep(bytes, asReadOf: id, version: 1)
        #expect(engine.accounts.readCacheByteCount == bytes.capacity)
        guard case .written(let version, let kept) = try await engine.read(id, unlessVersionIn: nil) else {
            Issue.record("the kept document was not used")
            return
        }
        #expect(version == 1 && kept == bytes)

        _ = try await engine.apply(.next, to: id)
        #expect(engine.accounts.readCacheByteCount == 0)
        guard case .state(let second, _) = try await engine.read(id, unlessVersionIn: nil) else {
            Issue.record("a changed state was served from the old document")
            return
        }
        #expect(second.version == 2 && second.pager.index == 1)
    }

    @Test("a reader that has the version gets only the version, kept document or not")
    func unchanged() async throws {
        let engine = PagerEngine()
        let id = try await engine.create(Self.twoPages).id
        guard case .unchanged(let version) = try await engine.read(id, unlessVersionIn: .oneOf([1])) else {
            Issue.record("an unchanged version was read in full")
            return
        }
        #expect(version == 1)
        await engine.keep(Self.document("{}"), asReadOf: id, version: 1)
        guard case .unchanged = try await engine.read(id, unlessVersionIn: .any) else {
            Issue.record("If-None-Match * read in full")
            return
        }
        guard case .written = try await engine.read(id, unlessVersionIn: .oneOf([7])) else {
            Issue.record("another version was not read in full")
            return
        }
        await #expect(throws: EngineError.sessionNotFound) {
            try await engine.read(SessionID("nope"), unlessVersionIn: nil)
        }
    }

    @Test("a document written for a version the session has left is not kept")
    func staleDocumentsAreNotKept() async throws {
        let engine = PagerEngine()
        let id = try await engine.create(Self.twoPages).id
        _ = try await engine.apply(.next, to: id)
        await engine.keep(Self.document("{\"version\":1}"), asReadOf: id, version: 1)
        #expect(engine.accounts.readCacheByteCount == 0)
        guard case .state(let snapshot, _) = try await engine.read(id, unlessVersionIn: nil) else {
            Issue.record("a stale document was kept")
            return
        }
        #expect(snapshot.version == 2)
        await engine.keep(Self.document("{}"), asReadOf: SessionID("nope"), version: 1)
        #expect(engine.accounts.readCacheByteCount == 0)
    }

    @Test("the read cache holds at most an eighth of the memory budget, and never refuses a session for it")
    func budget() async throws {
        let perSession = Pager.sessionOverheadBytes + Self.twoPages.pages.reduce(0) { $0 + $1.storedBytes }
        // Room for three sessions; the read cache gets an eighth of that.
        let limits = EngineLimits(memoryBudgetBytes: perSession * 3)
        #expect(limits.readCacheBudgetBytes == perSession * 3 / 8)
        let engine = PagerEngine(limits: limits)
        let a = try await engine.create(Self.twoPages).id
        let b = try await engine.create(Self.twoPages).id
        let small = limits.readCacheBudgetBytes * 2 / 3
        await engine.keep(Self.document("{}", capacity: small), asReadOf: a, version: 1)
        let keptCapacity = engine.accounts.readCacheByteCount
        #expect(keptCapacity >= small && keptCapacity <= limits.readCacheBudgetBytes)
        // The second does not fit beside the first: it is not kept, and reads of b write again.
        await engine.keep(Self.document("{}", capacity: small), asReadOf: b, version: 1)
        #expect(engine.accounts.readCacheByteCount == keptCapacity)
        guard case .state = try await engine.read(b, unlessVersionIn: nil) else {
            Issue.record("a document over the budget was kept")
            return
        }
        // Session data still gets the whole budget.
        _ = try await engine.create(Self.twoPages)
        #expect(engine.storedBytes == perSession * 3)
        // A session that goes gives its document's bytes back.
        _ = try await engine.delete(a)
        #expect(engine.accounts.readCacheByteCount == 0)
    }

    @Test("with a store, reads see the durable state, and a document is kept for it alone")
    func durableStateOnly() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 1, store: store)
        let created = try engines.create(Self.twoPages)
        store.answerAll()
        try await created.commit?.durable()
        let id = created.id, shard = engines.shard(for: id)
        let applied = try shard.withLock { try $0.apply(.next, to: id) }
        // Applied, not durable: a read shows version 1, and a document for version 2 is not kept.
        guard case .state(let read, _) = try shard.withLock({ try $0.read(id, unlessVersionIn: nil) }) else {
            Issue.record("nothing kept, yet a document came back")
            return
        }
        #expect(read.version == 1)
        shard.withLock { $0.keep(Self.document("{\"version\":2}"), asReadOf: id, version: 2) }
        #expect(engines.readCacheBytes == 0)
        shard.withLock { $0.keep(Self.document("{\"version\":1}"), asReadOf: id, version: 1) }
        #expect(engines.readCacheBytes > 0)
        store.answerAll()
        try await applied.commit?.durable()
        // Durable now: the version-1 document is gone with its state.
        #expect(engines.readCacheBytes == 0)
        guard case .state(let durable, _) = try shard.withLock({ try $0.read(id, unlessVersionIn: nil) }) else {
            Issue.record("the old state's document outlived it")
            return
        }
        #expect(durable.version == 2)
    }

    @Test("GET serves every read of a state with the same document a fresh write gives, and moves on with it")
    func overTheAPI() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"pages":[{"id":"a","title":"A"},{"id":"b","title":"B"}]}"#)
        let first = await api.send("GET", "/v1/sessions/\(id)")
        let again = await api.send("GET", "/v1/sessions/\(id)")
        #expect(first.status == 200 && again.status == 200)
        #expect(again.body == first.body)
        #expect(again.headers[.eTag] == "\"1\"")
        #expect(api.engine.readCacheBytes > 0)
        let snapshot = try api.engine.shard(for: SessionID(id)).withLock { try $0.snapshot(of: SessionID(id)) }
        #expect(first.body == StateDocument.encode(snapshot))

        let moved = await api.send("POST", "/v1/sessions/\(id)/next")
        #expect(moved.status == 200 && moved["index"] == .number(1))
        let after = await api.send("GET", "/v1/sessions/\(id)")
        #expect(after["version"] == .number(2) && after["index"] == .number(1) && after.headers[.eTag] == "\"2\"")
        let notModified = await api.send("GET", "/v1/sessions/\(id)", headers: [("If-None-Match", "\"2\"")])
        #expect(notModified.status == 304 && notModified.body.isEmpty && notModified.headers[.eTag] == "\"2\"")

        let metrics = String(decoding: await api.send("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("pagerd_read_cache_bytes \(api.engine.readCacheBytes)"))
        #expect(metrics.contains("pagerd_session_bytes \(api.engine.storedBytes)"))
    }
}
