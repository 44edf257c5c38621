import Foundation
import PagerModel
import PagerSessions
import Testing

@testable import PagerStorage

/// The test cluster's `pagerd` database, when there is one.
let testPostgresURL = ProcessInfo.processInfo.environment["PAGERD_TEST_POSTGRES_URL"]

/// The PostgreSQL store against a real server: `make test` runs these beside a throwaway cluster
/// (tools/with-postgres.sh sets PAGERD_TEST_POSTGRES_URL); without one they do not run. Each test
/// makes a database of its own.
@Suite(
    "PostgresSessionStore: group commit, versions, recovery and refusals",
    .enabled(if: testPostgresURL != nil, "needs PAGERD_TEST_POSTGRES_URL (make test starts one)"), .serialized)
struct PostgresSessionStoreTests {
    static let server = testPostgresURL
    static let password = ProcessInfo.processInfo.environment["PAGERD_TEST_POSTGRES_PASSWORD"]

    /// A new, empty database; answers its URL.
    static func database() throws -> String {
        let server = try #require(server)
        let name = "pagerd_test_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = try PostgresConnection(url: server, password: password)
        try admin.execute("CREATE DATABASE \(name)")
        var url = URLComponents(string: server)!
        url.path = "/" + name
        return url.string!
    }

    static func open(_ url: String) throws -> PostgresSessionStore {
        try PostgresSessionStore(options: .init(url: url, password: password))
    }

    static func id(_ name: String) -> SessionID { SessionID("session-id-for-tests-" + name) }

    static func pager(pages: Int, index: Int = 0) throws -> Pager {
        try Pager(pages: (0..<pages).map { Page(id: "p\($0)", title: "Page \($0)") }, initialPage: .index(index))
    }

    /// Submits `change` and waits for the store's answer.
    static func commit(_ store: PostgresSessionStore, _ change: SessionChange) async throws -> StoreError? {
        try await withCheckedThrowingContinuation { continuation in
            do {
                try store.submit(change) { error in continuation.resume(returning: error) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    @Test("committed creations, moves, whole saves, touches and deletes come back after reopening")
    func recovery() async throws {
        let url = try Self.database()
        var store = try Self.open(url)
        #expect(try store.recover().isEmpty)
        let one = try Self.pager(pages: 3)
        let moved = try one.applying(.next).pager
        let changed = try moved.applying(.insert(Page(id: "x", title: "X"), at: nil)).pager
        let two = try Self.pager(pages: 2)
        #expect(try await Self.commit(store, .save(Self.id("one"), one, lastUsed: 100, positionOnly: false)) == nil)
        #expect(try await Self.commit(store, .save(Self.id("two"), two, lastUsed: 100, positionOnly: false)) == nil)
        #expect(try await Self.commit(store, .save(Self.id("gone"), two, lastUsed: 100, positionOnly: false)) == nil)
        #expect(try await Self.commit(store, .save(Self.id("one"), moved, lastUsed: 150, positionOnly: true)) == nil)
        #expect(try await Self.commit(store, .save(Self.id("one"), changed, lastUsed: 160, positionOnly: false)) == nil)
        #expect(try await Self.commit(store, .touch(Self.id("two"), lastUsed: 175.5)) == nil)
        #expect(try await Self.commit(store, .delete(Self.id("gone"))) == nil)
        #expect(store.statistics.commits >= 1 && store.statistics.changes == 7)
        store.close()
        store = try Self.open(url)
        let sessions = Dictionary(uniqueKeysWithValues: try store.recover().map { ($0.id, $0) })
        #expect(Set(sessions.keys) == [Self.id("one"), Self.id("two")])
        #expect(sessions[Self.id("one")]?.pager == changed && sessions[Self.id("one")]?.pager.version == 3)
        #expect(sessions[Self.id("one")]?.lastUsed == 160)
        #expect(sessions[Self.id("two")]?.pager == two && sessions[Self.id("two")]?.lastUsed == 175.5)
        store.close()
    }

    @Test("many changes submitted at once are committed in few transactions, each session's in order")
    func groupCommit() async throws {
        let url = try Self.database()
        let store = try Self.open(url)
        var pagers: [Pager] = [try Self.pager(pages: 4)]
        for step in 0..<200 { pagers.append(try pagers.last!.applying(step % 2 == 0 ? .next : .previous).pager) }
        #expect(pagers.last?.version == 201)
        let answered = Answers()
        for (position, pager) in pagers.enumerated() {
            try store.submit(.save(Self.id("g"), pager, lastUsed: 1, positionOnly: position > 0)) { error in
                answered.add(error)
            }
        }
        store.close()
        #expect(answered.errors == Array(repeating: nil, count: 201))
        #expect(store.statistics.changes == 201 && store.statistics.commits < 201)
        let reopened = try Self.open(url)
        #expect(try reopened.recover().map(\.pager) == [pagers.last!])
        reopened.close()
    }

    @Test("a save that does not replace the version before it fails alone; the others commit")
    func staleSaveFails() async throws {
        let url = try Self.database()
        let store = try Self.open(url)
        let pager = try Self.pager(pages: 3)
        let next = try pager.applying(.next).pager
        #expect(try await Self.commit(store, .save(Self.id("a"), pager, lastUsed: 1, positionOnly: false)) == nil)
        #expect(try await Self.commit(store, .save(Self.id("a"), next, lastUsed: 2, positionOnly: true)) == nil)
        // Version 2 again: the row is at 2, not 1.
        let stale = try await Self.commit(store, .save(Self.id("a"), next, lastUsed: 3, positionOnly: true))
        #expect(stale?.reason.contains("is not at version 1") == true)
        #expect(try await Self.commit(store, .save(Self.id("b"), pager, lastUsed: 1, positionOnly: false)) == nil)
        store.close()
        let reopened = try Self.open(url)
        #expect(try reopened.recover().map(\.pager.version).sorted() == [1, 2])
        reopened.close()
    }

    @Test("a second store on the same database is refused while the first holds it")
    func oneProcessPerDatabase() throws {
        let url = try Self.database()
        let first = try Self.open(url)
        #expect {
            try Self.open(url)
        } throws: { error in
            (error as? StoreOpenError)?.kind == .inUse
        }
        first.close()
        try Self.open(url).close()
    }

    @Test("a database with a newer schema is refused; a wrong password is refused without being repeated")
    func refusals() throws {
        let url = try Self.database()
        try Self.open(url).close()
        let admin = try PostgresConnection(url: url, password: Self.password)
        try admin.execute("UPDATE pagerd_schema SET version = 2")
        #expect {
            try Self.open(url)
        } throws: { error in
            (error as? StoreOpenError)?.kind == .corrupt && "\(error)".contains("schema 2")
        }
        let secret = "not-the-password-\(UUID().uuidString)"
        #expect {
            try PostgresSessionStore(options: .init(url: url, password: secret))
        } throws: { error in
            (error as? StoreOpenError)?.kind == .unusable && !"\(error)".contains(secret)
        }
    }
}

/// Completions collected from the store's thread.
final class Answers: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var collected: [StoreError?] = []

    func add(_ error: StoreError?) { lock.withLock { collected.append(error) } }
    var errors: [StoreError?] { lock.withLock { collected } }
}
