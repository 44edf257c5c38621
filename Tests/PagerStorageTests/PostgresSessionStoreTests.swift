import Foundation
import JSON
import Locking
import PagerModel
import PagerSessions
import TestSupport
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

    /// Two stores on one new database, the second listening (its `LISTEN` in place) into `heard`.
    static func sharedPair() async throws -> (PostgresSessionStore, PostgresSessionStore, Heard) {
        let url = try database()
        let one = try open(url), two = try open(url)
        let heard = Heard()
        let listening = Locked(false)
        two.listen(onChange: { heard.add($0) }, onResynchronize: {}, onListening: { listening.withLock { $0 = true } })
        await waitUntil("the listener's LISTEN is in place") { listening.withLock { $0 } }
        return (one, two, heard)
    }

    static func pager(pages: Int, index: Int = 0) throws -> Pager {
        try Pager(pages: (0..<pages).map { Page(id: "p\($0)", title: "Page \($0)") }, initialPage: .index(index))
    }

    /// Loads session `id` from `store`.
    static func load(_ store: PostgresSessionStore, _ id: SessionID) async throws -> StoredSession? {
        try await withCheckedThrowingContinuation { continuation in
            store.load(id) { result in continuation.resume(with: result) }
        }
    }

    @Test("committed creations, moves, whole saves, touches and deletes load back after reopening")
    func recovery() async throws {
        let url = try Self.database()
        var store = try Self.open(url)
        let one = try Self.pager(pages: 3)
        let moved = try one.applying(.next).pager
        let changed = try moved.applying(.insert(Page(id: "x", title: "X"), at: nil)).pager
        let two = try Self.pager(pages: 2)
        #expect(try await commit(store, .save(Self.id("one"), one, lastUsed: 100, positionOnly: false)) == nil)
        #expect(try await commit(store, .save(Self.id("two"), two, lastUsed: 100, positionOnly: false)) == nil)
        #expect(try await commit(store, .save(Self.id("gone"), two, lastUsed: 100, positionOnly: false)) == nil)
        #expect(try await commit(store, .save(Self.id("one"), moved, lastUsed: 150, positionOnly: true)) == nil)
        #expect(try await commit(store, .save(Self.id("one"), changed, lastUsed: 160, positionOnly: false)) == nil)
        #expect(try await commit(store, .touch(Self.id("two"), lastUsed: 175.5)) == nil)
        #expect(try await commit(store, .delete(Self.id("gone"))) == nil)
        #expect(store.statistics.commits >= 1 && store.statistics.changes == 7)
        store.close()
        store = try Self.open(url)
        // A shared database is not read whole at start: sessions load when asked for.
        #expect(try store.recover().isEmpty)
        let first = try await Self.load(store, Self.id("one")), second = try await Self.load(store, Self.id("two"))
        #expect(first?.pager == changed && first?.pager.version == 3 && first?.lastUsed == 160)
        #expect(second?.pager == two && second?.lastUsed == 175.5)
        #expect(try await Self.load(store, Self.id("gone")) == nil)
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
        #expect(try await Self.load(reopened, Self.id("g"))?.pager == pagers.last!)
        reopened.close()
    }

    @Test("a save that does not replace the version before it fails alone, as a conflict carrying the row")
    func staleSaveFails() async throws {
        let url = try Self.database()
        let store = try Self.open(url)
        let pager = try Self.pager(pages: 3)
        let next = try pager.applying(.next).pager
        #expect(try await commit(store, .save(Self.id("a"), pager, lastUsed: 1, positionOnly: false)) == nil)
        #expect(try await commit(store, .save(Self.id("a"), next, lastUsed: 2, positionOnly: true)) == nil)
        // Version 2 again: the row is at 2, not 1.
        let stale = try await commit(store, .save(Self.id("a"), next, lastUsed: 3, positionOnly: true))
        #expect(stale?.reason.contains("is not at version 1") == true)
        #expect(stale?.conflict == true && stale?.current == next)
        #expect(try await commit(store, .save(Self.id("b"), pager, lastUsed: 1, positionOnly: false)) == nil)
        // A delete naming a version the row is not at loses too; at its version, or gone, it is kept.
        let staleDelete = try await commit(store, .delete(Self.id("a"), version: 1))
        #expect(staleDelete?.conflict == true && staleDelete?.current == next)
        #expect(try await commit(store, .delete(Self.id("a"), version: 2)) == nil)
        #expect(try await commit(store, .delete(Self.id("a"), version: 2)) == nil)
        // A save of a session that is gone conflicts with nothing to take instead.
        #expect(try await commit(store, .delete(Self.id("b"))) == nil)
        let gone = try await commit(store, .save(Self.id("b"), next, lastUsed: 3, positionOnly: true))
        #expect(gone?.conflict == true && gone?.current == nil)
        store.close()
    }

    @Test("two stores share a database: each hears the other's changes, never its own; idle rows expire")
    func sharing() async throws {
        let (one, two, heard) = try await Self.sharedPair()
        let pager = try Self.pager(pages: 3)
        let next = try pager.applying(.next).pager
        let patched = try next.applying(.insert(Page(id: "x", title: "X"), at: nil)).pager
        let moved = ChangeAnnouncement(kind: .pageChanged, cause: .request)
        #expect(try await commit(one, .save(Self.id("s"), pager, lastUsed: 1, positionOnly: false)) == nil)
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            do {
                try one.submit(.save(Self.id("s"), next, lastUsed: 2, positionOnly: true), announcing: moved) { _ in
                    done.resume()
                }
            } catch { done.resume(throwing: error) }
        }
        #expect(
            try await commit(two, .save(Self.id("s"), patched, lastUsed: 3, positionOnly: false)) == nil)
        #expect(try await commit(one, .delete(Self.id("s"))) == nil)
        await waitUntil("two changes were heard") { heard.changes.count >= 2 }
        let changes = heard.changes
        // `two` heard `one`'s move (laid on the version before) and delete, and not its own save.
        #expect(changes.map(\.version) == [2, 0] && changes.map(\.announcement.kind) == [.pageChanged, .deleted])
        guard case .position(let lay) = changes.first?.state else {
            Issue.record("expected a position, got \(String(describing: changes.first?.state))")
            return
        }
        #expect(lay(pager) == next)
        guard case .deleted = changes.last?.state else {
            Issue.record("expected a deletion")
            return
        }
        // Expiry deletes by last use and announces it.
        #expect(try await commit(one, .save(Self.id("old"), pager, lastUsed: 10, positionOnly: false)) == nil)
        #expect(try await commit(one, .save(Self.id("new"), pager, lastUsed: 30, positionOnly: false)) == nil)
        await withCheckedContinuation { done in one.expire(before: 20) { done.resume() } }
        let old = try await Self.load(two, Self.id("old")), new = try await Self.load(two, Self.id("new"))
        #expect(old == nil && new != nil)
        one.close()
        two.close()
    }

    @Test("the database holds at most maxSessions sessions, whoever creates them; deletions and expiry make room")
    func sessionLimit() async throws {
        let url = try Self.database()
        let one = try PostgresSessionStore(options: .init(url: url, password: Self.password, maxSessions: 2))
        let two = try PostgresSessionStore(options: .init(url: url, password: Self.password, maxSessions: 2))
        let pager = try Self.pager(pages: 2)
        #expect(try await commit(one, .save(Self.id("a"), pager, lastUsed: 10, positionOnly: false)) == nil)
        #expect(try await commit(two, .save(Self.id("b"), pager, lastUsed: 10, positionOnly: false)) == nil)
        let refused = try await commit(one, .save(Self.id("c"), pager, lastUsed: 10, positionOnly: false))
        #expect(refused?.sessionLimit == 2)
        #expect(try await Self.load(two, Self.id("c")) == nil)
        #expect(try await commit(two, .delete(Self.id("a"))) == nil)
        #expect(try await commit(one, .save(Self.id("c"), pager, lastUsed: 30, positionOnly: false)) == nil)
        await withCheckedContinuation { done in one.expire(before: 20) { done.resume() } }
        #expect(try await commit(one, .save(Self.id("d"), pager, lastUsed: 30, positionOnly: false)) == nil)
        let admin = try PostgresConnection(url: url, password: Self.password)
        var counted = 0
        try admin.query("SELECT sessions FROM pagerd_counters") { row throws(PostgresError) in counted = try row.int(0)
        }
        #expect(counted == 2)
        one.close()
        two.close()
    }

    @Test("the sessions' data stays within memoryBudgetBytes, whoever changes it: growth past it is refused")
    func dataBudget() async throws {
        let url = try Self.database()
        let small = try Self.pager(pages: 2)
        let budget = small.storedBytes * 2 + 100
        let one = try PostgresSessionStore(options: .init(url: url, password: Self.password, memoryBudgetBytes: budget))
        let two = try PostgresSessionStore(options: .init(url: url, password: Self.password, memoryBudgetBytes: budget))
        #expect(try await commit(one, .save(Self.id("a"), small, lastUsed: 1, positionOnly: false)) == nil)
        #expect(try await commit(two, .save(Self.id("b"), small, lastUsed: 1, positionOnly: false)) == nil)
        // A third session does not fit; neither does a page that grows a session past the budget.
        let third = try await commit(one, .save(Self.id("c"), small, lastUsed: 1, positionOnly: false))
        #expect(third?.byteLimit == budget && third?.sessionLimit == nil)
        let page = Page(id: "big", title: "Big", content: ["text": .string(String(repeating: "x", count: 500))])
        let grown = try small.applying(.insert(page, at: nil)).pager
        let growth = try await commit(two, .save(Self.id("a"), grown, lastUsed: 2, positionOnly: false))
        #expect(growth?.byteLimit == budget && growth?.conflict == false)
        #expect(try await Self.load(one, Self.id("a"))?.pager == small)
        // Shrinking is always kept, and makes room.
        let shrunk = try small.applying(.remove(pageID: "p1")).pager
        #expect(try await commit(one, .save(Self.id("a"), shrunk, lastUsed: 3, positionOnly: false)) == nil)
        #expect(try await commit(one, .delete(Self.id("b"))) == nil)
        #expect(try await commit(two, .save(Self.id("c"), small, lastUsed: 4, positionOnly: false)) == nil)
        var bytes = 0
        let admin = try PostgresConnection(url: url, password: Self.password)
        try admin.query("SELECT bytes FROM pagerd_counters") { row throws(PostgresError) in bytes = try row.int(0) }
        #expect(bytes == shrunk.storedBytes + small.storedBytes)
        one.close()
        two.close()
    }

    @Test("a database of schema 1 is migrated forward: its sessions are counted")
    func migration() async throws {
        let url = try Self.database()
        let admin = try PostgresConnection(url: url, password: Self.password)
        try admin.execute(
            """
            CREATE TABLE pagerd_schema(version integer NOT NULL); INSERT INTO pagerd_schema VALUES (1);
            CREATE TABLE pagerd_sessions(
                id text PRIMARY KEY, version bigint NOT NULL, document bytea NOT NULL,
                position bytea NOT NULL, last_used double precision NOT NULL);
            """)
        let pager = try Self.pager(pages: 2)
        let document = StoredRecord.document(of: pager), position = StoredRecord.position(of: pager)
        try admin.query(
            "INSERT INTO pagerd_sessions VALUES ($1, 1, $2, $3, 5) RETURNING 1",
            [.text(Self.id("old").rawValue), .bytes(document), .bytes(position)]
        ) { _ throws(PostgresError) in }
        let store = try Self.open(url)
        #expect(try await Self.load(store, Self.id("old"))?.pager == pager)
        var schema = 0, counted = 0
        try admin.query("SELECT version::bigint FROM pagerd_schema") { row throws(PostgresError) in
            schema = try row.int(0)
        }
        var bytes = 0
        try admin.query("SELECT sessions, bytes FROM pagerd_counters") { row throws(PostgresError) in
            counted = try row.int(0)
            bytes = try row.int(1)
        }
        #expect(schema == 2 && counted == 1 && bytes == pager.storedBytes)
        store.close()
    }

    @Test("a state too large for one announcement reaches the other store whole, in pieces, version by version")
    func largeStatesAnnouncedInPieces() async throws {
        let (one, two, heard) = try await Self.sharedPair()
        // About 35 KB of content (7 KB a page), with two- and four-byte UTF-8 sequences at every offset.
        let text = String(repeating: "aé🙂", count: 1_000)
        var pager = try Pager(
            pages: (0..<5).map { Page(id: "p\($0)", title: "Page \($0)", content: ["text": .string(text)]) },
            initialPage: .index(0))
        #expect(StoredRecord.document(of: pager).count > 3 * PostgresSessionStore.maxPayload)
        #expect(try await commit(one, .save(Self.id("big"), pager, lastUsed: 1, positionOnly: false)) == nil)
        var saved: [Pager] = []
        for title in ["first", "second", "third"] {
            pager = try pager.applying(.update(pageID: "p1", PageUpdate(title: title))).pager
            saved.append(pager)
            #expect(try await commit(one, .save(Self.id("big"), pager, lastUsed: 2, positionOnly: false)) == nil)
        }
        await waitUntil("three changes were heard") { heard.changes.count >= 3 }
        let changes = heard.changes
        #expect(changes.map(\.version) == [2, 3, 4])
        for (change, pager) in zip(changes, saved) {
            guard case .whole(let whole) = change.state else {
                Issue.record("version \(change.version) was not heard whole: \(change.state)")
                continue
            }
            #expect(whole == pager)
        }
        one.close()
        two.close()
    }

    @Test("a database with a newer schema is refused; a wrong password is refused without being repeated")
    func refusals() throws {
        let url = try Self.database()
        try Self.open(url).close()
        let admin = try PostgresConnection(url: url, password: Self.password)
        try admin.execute("UPDATE pagerd_schema SET version = 3")
        #expect {
            try Self.open(url)
        } throws: { error in
            (error as? StoreOpenError)?.kind == .corrupt && "\(error)".contains("schema 3")
        }
        let secret = "not-the-password-\(UUID().uuidString)"
        #expect {
            try PostgresSessionStore(options: .init(url: url, password: secret))
        } throws: { error in
            (error as? StoreOpenError)?.kind == .unusable && !"\(error)".contains(secret)
        }
    }
}

/// Remote changes collected from the listener's thread.
struct Heard: Sendable {
    private let collected = Locked<[RemoteChange]>([])

    func add(_ change: RemoteChange) { collected.withLock { $0.append(change) } }
    var changes: [RemoteChange] { collected.withLock { $0 } }
}

/// Completions collected from the store's thread.
struct Answers: Sendable {
    private let collected = Locked<[StoreError?]>([])

    func add(_ error: StoreError?) { collected.withLock { $0.append(error) } }
    var errors: [StoreError?] { collected.withLock { $0 } }
}

@Suite("PostgreSQL announcements: a large state in pieces, put back together")
struct AnnouncementPieceTests {
    static let header = "inst1 S session-1 7 pageChanged request"
    static func pieceHeader(_ index: Int, _ count: Int) -> String {
        "inst1 C session-1 7 pageChanged request \(index) \(count)"
    }

    @Test(
        "a body that fits is one announcement; a larger one is cut into pieces of at most 7,900 bytes, never inside a character"
    )
    func cutting() {
        #expect(
            PostgresSessionStore.announcements(
                header: Self.header, body: Array("{}\n{}".utf8), pieceHeader: Self.pieceHeader)
                == [Self.header + "\n{}\n{}"])
        let body = Array(("{\"i\":0}\n{\"t\":\"" + String(repeating: "é🙂x", count: 6_000) + "\"}").utf8)
        let pieces = PostgresSessionStore.announcements(header: Self.header, body: body, pieceHeader: Self.pieceHeader)
        #expect((body.count / 7_900 + 1...body.count / 7_700 + 1).contains(pieces.count))
        #expect(pieces.allSatisfy { $0.utf8.count <= PostgresSessionStore.maxPayload })
        #expect(pieces.first?.hasPrefix(Self.pieceHeader(0, pieces.count) + "\n") == true)
        // Each piece is valid UTF-8 by itself, and the pieces make the body again.
        let joined = pieces.map { $0.drop { $0 != "\n" }.dropFirst() }.joined()
        #expect(Array(joined.utf8) == body)
    }

    @Test("the pieces are put back together as one whole announcement; this process's own are skipped")
    func assembling() {
        let body = "{\"i\":0}\n" + String(repeating: "é🙂x", count: 5_000)
        let pieces = PostgresSessionStore.announcements(
            header: Self.header, body: Array(body.utf8), pieceHeader: Self.pieceHeader)
        var assembler = PieceAssembler()
        let answers = pieces.map { assembler.take($0, skipping: "other") }
        #expect(answers.dropLast().allSatisfy { $0 == nil })
        #expect(answers.last == Self.header + "\n" + body)
        // Not a piece: given as it is.
        #expect(
            assembler.take("inst1 M session-1 8 transition request\n{}", skipping: "other")
                == "inst1 M session-1 8 transition request\n{}")
        // This process's own pieces are nobody's business here.
        #expect(pieces.map { assembler.take($0, skipping: "inst1") }.allSatisfy { $0 == nil })
    }

    @Test("a piece out of turn gives its change as unknown (its session is loaded), and the next one is read")
    func outOfTurn() {
        let body = Array(("{}\n" + String(repeating: "x", count: 20_000)).utf8)
        let pieces = PostgresSessionStore.announcements(header: Self.header, body: body, pieceHeader: Self.pieceHeader)
        #expect(pieces.count == 3)
        var assembler = PieceAssembler()
        #expect(assembler.take(pieces[0], skipping: "other") == nil)
        #expect(assembler.take(pieces[2], skipping: "other") == "inst1 U session-1 7 pageChanged request")
        #expect(
            pieces.map { assembler.take($0, skipping: "other") }.last == Self.header + "\n"
                + String(decoding: body, as: UTF8.self))
    }
}
