import Foundation
import JSON
import Locking
import PagerModel
import PagerSessions
import TestSupport
import Testing

@testable import PagerStorage

/// A value tests set by hand and a store reads from its own thread.
struct Dial<Value: Sendable>: Sendable {
    private let value: Locked<Value>

    init(_ value: Value) { self.value = Locked(value) }

    var current: Value { value.withLock { $0 } }

    func set(_ newValue: Value) { value.withLock { $0 = newValue } }

    func change(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
}

@Suite("SQLiteSessionStore: what a change costs the disk, folds by bytes, space given back, damage")
struct SQLiteJournalTests {
    static let folder = SQLiteSessionStoreTests.folder
    static let id = SQLiteSessionStoreTests.id

    /// A pager of `pages` pages, each with about `contentBytes` bytes of content.
    static func widePager(pages: Int, contentBytes: Int = 15_000) throws -> Pager {
        let content: JSONObject = ["blob": .string(String(repeating: "x", count: contentBytes))]
        return try Pager(
            pages: (0..<pages).map { Page(id: "p\($0)", title: "Page \($0)", content: content) },
            limits: PagerLimits(maxContentBytes: 1 << 20, sessionBudgetBytes: 1 << 30))
    }

    static func update(_ pager: Pager, _ page: String, _ update: PageUpdate) throws -> Pager {
        try pager.applying(
            .update(pageID: page, update), limits: PagerLimits(maxContentBytes: 1 << 20, sessionBudgetBytes: 1 << 30)
        ).pager
    }

    static func save(_ pager: Pager, _ id: SessionID = id("wide"), lastUsed: Double = 1) -> SessionChange {
        .save(id, pager, lastUsed: lastUsed, positionOnly: false)
    }

    /// The size of the database file and its WAL.
    static func fileBytes(_ path: String) -> Int { DiskRoom.size(of: path) + DiskRoom.size(of: path + "-wal") }

    /// The bytes of every document part and position in the tables (the live data).
    static func liveBytes(_ path: String) throws -> Int {
        let database = try SQLiteDatabase(path: path)
        defer { database.close() }
        let parts =
            try database.integer("SELECT coalesce(sum(length(body) + length(key) + length(session)), 0) FROM parts")
            ?? 0
        let rows =
            try database.integer("SELECT coalesce(sum(length(position) + length(id) + 16), 0) FROM sessions") ?? 0
        return parts + rows
    }

    @Test("a title change on a 100-page session of 1.5 MB journals about a hundred bytes, not the document")
    func titleChangeCost() async throws {
        let path = try Self.folder() + "/sessions.db"
        let store = try SQLiteSessionStore(options: .init(path: path))
        var pager = try Self.widePager(pages: 100)
        #expect(try await commit(store, Self.save(pager)) == nil)
        let journal = try SQLiteDatabase(path: path)
        let before =
            try journal.integer(
                "SELECT coalesce(sum(length(body)), 0) + coalesce(sum(length(position)), 0) FROM journal") ?? 0
        #expect(before > 1_500_000)
        for n in 0..<20 {
            pager = try Self.update(pager, "p\(n)", PageUpdate(title: "title number \(n)"))
            #expect(try await commit(store, Self.save(pager)) == nil)
        }
        let after =
            try journal.integer(
                "SELECT coalesce(sum(length(body)), 0) + coalesce(sum(length(position)), 0) FROM journal") ?? 0
        // Each change: the page's part without its content (about 40 bytes) and the position.
        #expect(after - before < 20 * 100)
        journal.close()
        store.close()
        let reopened = try SQLiteSessionStore(options: .init(path: path))
        #expect(try reopened.recover().map(\.pager) == [pager])
        reopened.close()
    }

    @Test("the journal is folded once it holds checkpointBytes, and the freed space goes back to the file system")
    func foldsByBytes() async throws {
        let path = try Self.folder() + "/sessions.db"
        let options = SQLiteSessionStore.Options(path: path, checkpointRecords: 1_000_000, checkpointBytes: 256 << 10)
        let store = try SQLiteSessionStore(options: options)
        var pager = try Self.widePager(pages: 100)
        #expect(try await commit(store, Self.save(pager)) == nil)
        // 200 content changes of 15 KB: 3 MB through the journal, folded every 256 KiB.
        for n in 0..<200 {
            let content: JSONObject = ["blob": .string(String(repeating: "y", count: 14_000 + n))]
            pager = try Self.update(pager, "p\(n % 100)", PageUpdate(content: content))
            #expect(try await commit(store, Self.save(pager)) == nil)
        }
        #expect(store.statistics.folds >= 10)
        #expect(store.statistics.failedFolds == 0)
        store.close()
        let live = try Self.liveBytes(path)
        #expect(live > 1_400_000)
        #expect(Self.fileBytes(path) <= 2 * live)
        let database = try SQLiteDatabase(path: path)
        #expect(try database.integer("PRAGMA auto_vacuum") == 2)
        let free = try database.integer("PRAGMA freelist_count") ?? 0
        #expect(2 * free <= (try database.integer("PRAGMA page_count") ?? 0) - free)
        #expect(try database.integer("SELECT count(*) FROM journal") == 0)
        database.close()
        let reopened = try SQLiteSessionStore(options: .init(path: path))
        #expect(try reopened.recover().map(\.pager) == [pager])
        reopened.close()
    }

    @Test(
        "page edits, removals, settings, a deletion and a re-creation come back, with and without folds",
        arguments: [1, 10_000])
    func partsRecovery(checkpointRecords: Int) async throws {
        let path = try Self.folder() + "/sessions.db"
        var store = try SQLiteSessionStore(options: .init(path: path, checkpointRecords: checkpointRecords))
        let limits = PagerLimits(maxContentBytes: 1 << 20, sessionBudgetBytes: 1 << 30)
        // Kept in parts (four pages of 15 KB), kept whole (small), and one that crosses both ways.
        var edited = try Self.widePager(pages: 4)
        let replaced = try SQLiteSessionStoreTests.pager(pages: 2)
        var crossing = try SQLiteSessionStoreTests.pager(pages: 2)
        #expect(try await commit(store, Self.save(edited, Self.id("edited"))) == nil)
        #expect(try await commit(store, Self.save(replaced, Self.id("replaced"))) == nil)
        #expect(try await commit(store, Self.save(crossing, Self.id("crossing"))) == nil)
        edited = try edited.applying(.insert(Page(id: "new", title: "New", content: ["n": 1]), at: 1), limits: limits)
            .pager
        edited = try edited.applying(.remove(pageID: "p2"), limits: limits).pager
        edited = try edited.applying(.update(pageID: "p0", PageUpdate(title: "Zero", moveTo: 3)), limits: limits).pager
        edited = try edited.applying(.push(pageID: "p3", Screen(id: "s", content: ["deep": true])), limits: limits)
            .pager
        var settings = edited.settings
        settings.mode = .loop
        edited = try edited.applying(.updateSettings(settings), limits: limits).pager
        #expect(try await commit(store, Self.save(edited, Self.id("edited"))) == nil)
        let moved = try edited.applying(.next, limits: limits).pager
        #expect(try await commit(store, .save(Self.id("edited"), moved, lastUsed: 5, positionOnly: true)) == nil)
        for n in 0..<3 {
            let big = Page(
                id: "big\(n)", title: "Big", content: ["blob": .string(String(repeating: "b", count: 15_000))])
            crossing = try crossing.applying(.insert(big, at: 0), limits: limits).pager
        }
        #expect(crossing.storedBytes > StoredParts.wholeLimit)
        #expect(try await commit(store, Self.save(crossing, Self.id("crossing"))) == nil)
        crossing = try crossing.applying(.update(pageID: "p1", PageUpdate(title: "One")), limits: limits).pager
        #expect(try await commit(store, Self.save(crossing, Self.id("crossing"))) == nil)
        crossing = try crossing.applying(.remove(pageID: "big0"), limits: limits).pager
        crossing = try crossing.applying(.remove(pageID: "big1"), limits: limits).pager
        #expect(crossing.storedBytes <= StoredParts.wholeLimit)
        #expect(try await commit(store, Self.save(crossing, Self.id("crossing"))) == nil)
        // Deleted, then made again under the same id with other pages: nothing of the first stays.
        #expect(try await commit(store, .delete(Self.id("replaced"))) == nil)
        let again = try Pager(pages: [Page(id: "other", title: "Other")])
        #expect(try await commit(store, Self.save(again, Self.id("replaced"), lastUsed: 7)) == nil)
        // A trigger makes the fold at close fail, so the journal stays, as after a crash.
        let other = try SQLiteDatabase(path: path)
        try other.execute(
            "PRAGMA busy_timeout=5000; CREATE TRIGGER keep_journal BEFORE DELETE ON journal BEGIN SELECT RAISE(ABORT, 'kept'); END;"
        )
        store.close()
        try other.execute("DROP TRIGGER keep_journal")
        if checkpointRecords > 1 { #expect(try other.integer("SELECT count(*) FROM journal") ?? 0 > 0) }
        other.close()
        let expected = [Self.id("edited"): moved, Self.id("replaced"): again, Self.id("crossing"): crossing]
        store = try SQLiteSessionStore(options: .init(path: path, checkpointRecords: checkpointRecords))
        var sessions = Dictionary(uniqueKeysWithValues: try store.recover().map { ($0.id, $0) })
        #expect(sessions.mapValues(\.pager) == expected)
        #expect(sessions[Self.id("edited")]?.lastUsed == 5)
        store.close()
        store = try SQLiteSessionStore(options: .init(path: path))
        sessions = Dictionary(uniqueKeysWithValues: try store.recover().map { ($0.id, $0) })
        #expect(sessions.mapValues(\.pager) == expected)
        store.close()
        let database = try SQLiteDatabase(path: path)
        let counts = try database.prepare("SELECT session, count(*) FROM parts GROUP BY session")
        var parts: [SessionID: Int] = [:]
        while try counts.step() { parts[SessionID(counts.string(0))] = counts.int(1) }
        #expect(parts == [Self.id("edited"): 9, Self.id("replaced"): 1, Self.id("crossing"): 1])
        database.close()
    }

    /// Writes a file as schema 1 did: whole documents in `sessions` and in the journal.
    static func writeSchemaOne(
        _ path: String, sessions: [(SessionID, Pager)], journal: [(Int, SessionID, Pager?)]
    ) throws {
        let database = try SQLiteDatabase(path: path)
        defer { database.close() }
        try database.execute(
            """
            PRAGMA journal_mode=WAL;
            CREATE TABLE sessions(
                id TEXT PRIMARY KEY, version INTEGER NOT NULL, document BLOB NOT NULL, position BLOB NOT NULL,
                last_used REAL NOT NULL);
            CREATE TABLE journal(
                seq INTEGER PRIMARY KEY, id TEXT NOT NULL, kind INTEGER NOT NULL, version INTEGER NOT NULL,
                document BLOB, position BLOB, last_used REAL NOT NULL);
            PRAGMA application_id=\(SQLiteSessionStore.applicationID);
            PRAGMA user_version=1;
            """)
        let row = try database.prepare("INSERT INTO sessions VALUES (?1, ?2, ?3, ?4, 10)")
        for (id, pager) in sessions {
            row.bind(1, id.rawValue)
            row.bind(2, pager.version)
            row.bind(3, StoredRecord.document(of: pager))
            row.bind(4, StoredRecord.position(of: pager))
            try row.run()
        }
        let record = try database.prepare(
            "INSERT INTO journal(id, kind, version, document, position, last_used) VALUES (?1, ?2, ?3, ?4, ?5, 20)")
        for (kind, id, pager) in journal {
            record.bind(1, id.rawValue)
            record.bind(2, kind)
            record.bind(3, pager?.version ?? 0)
            record.bind(4, kind == 0 ? pager.map(StoredRecord.document(of:)) : nil)
            record.bind(5, pager.map(StoredRecord.position(of:)))
            try record.run()
        }
    }

    @Test("a schema 1 file is migrated: whole documents become parts, the journal is folded, space is given back")
    func migration() throws {
        let path = try Self.folder() + "/sessions.db"
        let kept = try SQLiteSessionStoreTests.pager(pages: 3)
        let moved = try kept.applying(.next).pager
        let saved = try SQLiteSessionStoreTests.pager(pages: 2)
        let resaved = try saved.applying(.insert(Page(id: "z", title: "Zed"), at: 0)).pager
        let gone = try SQLiteSessionStoreTests.pager(pages: 1)
        try Self.writeSchemaOne(
            path, sessions: [(Self.id("kept"), kept), (Self.id("saved"), saved), (Self.id("gone"), gone)],
            journal: [(1, Self.id("kept"), moved), (0, Self.id("saved"), resaved), (2, Self.id("gone"), nil)])
        let store = try SQLiteSessionStore(options: .init(path: path))
        let sessions = Dictionary(uniqueKeysWithValues: try store.recover().map { ($0.id, $0) })
        #expect(sessions.mapValues(\.pager) == [Self.id("kept"): moved, Self.id("saved"): resaved])
        #expect(sessions[Self.id("kept")]?.lastUsed == 20)
        store.close()
        let database = try SQLiteDatabase(path: path)
        #expect(try database.integer("PRAGMA user_version") == 2)
        #expect(try database.integer("PRAGMA auto_vacuum") == 2)
        let tables = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var names: [String] = []
        while try tables.step() { names.append(tables.string(0)) }
        #expect(names == ["journal", "parts", "sessions"])
        database.close()
    }

    @Test("a schema 1 file with a damaged document is refused and left at schema 1")
    func migrationOfDamage() throws {
        let path = try Self.folder() + "/sessions.db"
        try Self.writeSchemaOne(
            path, sessions: [(Self.id("ok"), try SQLiteSessionStoreTests.pager(pages: 2))], journal: [])
        let database = try SQLiteDatabase(path: path)
        try database.execute("UPDATE sessions SET document = x'5B312C5B5D5D'")  // [1,[]]: no catalog
        database.close()
        #expect {
            _ = try SQLiteSessionStore(options: .init(path: path))
        } throws: { error in
            (error as? StoreOpenError)?.kind == .corrupt && "\(error)".contains("is damaged")
        }
        let after = try SQLiteDatabase(path: path)
        #expect(try after.integer("PRAGMA user_version") == 1)
        #expect(try after.integer("SELECT count(*) FROM sessions") == 1)
        after.close()
    }

    /// Overwrites page `page` (numbered from 1) of the file at `path` with garbage.
    static func damage(page: Int, of path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64((page - 1) * 4096))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 512))
        try handle.close()
    }

    @Test(
        "a file whose index is damaged is refused at open, naming the file and quick_check's finding, and left as it was"
    )
    func damagedIndex() async throws {
        let path = try Self.folder() + "/sessions.db"
        let store = try SQLiteSessionStore(options: .init(path: path))
        for n in 0..<20 {
            #expect(
                try await commit(store, Self.save(try SQLiteSessionStoreTests.pager(pages: 5), Self.id("s\(n)"))) == nil
            )
        }
        store.close()
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let root = try #require(
            try database.integer("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_parts_1'"))
        database.close()
        try Self.damage(page: root, of: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteSessionStore(options: .init(path: path))
        } throws: { error in
            (error as? StoreOpenError)?.kind == .corrupt
                && "\(error)".contains("\(path) is damaged (PRAGMA quick_check: ")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("an empty file (0 bytes) is taken as a new database, with a warning naming it")
    func emptyFile() async throws {
        let path = try Self.folder() + "/sessions.db"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let warnings = Dial<[String]>([])
        let store = try SQLiteSessionStore(
            options: .init(path: path, warn: { message in warnings.change { $0.append(message) } }))
        #expect(
            warnings.current == [
                "\(path) is an empty file (0 bytes): pagerd takes it as a new database and starts with no sessions"
            ])
        #expect(try store.recover().isEmpty)
        #expect(try await commit(store, Self.save(try SQLiteSessionStoreTests.pager(pages: 1))) == nil)
        store.close()
        let fresh = try Self.folder() + "/fresh.db"
        let quiet = try SQLiteSessionStore(
            options: .init(path: fresh, warn: { message in warnings.change { $0.append(message) } }))
        quiet.close()
        #expect(warnings.current.count == 1)
    }

    @Test("a fold that keeps failing is tried again after pauses that double, each failure counted and logged once")
    func foldBackOff() async throws {
        let path = try Self.folder() + "/sessions.db"
        let time = Dial(100.0)
        let logs = Dial<[String]>([])
        let warnings = Dial<[String]>([])
        let store = try SQLiteSessionStore(
            options: .init(
                path: path, checkpointRecords: 4, foldRetryDelay: 1, maxFoldRetryDelay: 4,
                log: { message in logs.change { $0.append(message) } },
                warn: { message in warnings.change { $0.append(message) } }, clock: { time.current }))
        var pager = try SQLiteSessionStoreTests.pager(pages: 3)
        // A small session, kept whole: three records (creation, document, position), below the
        // four that start a fold, so the writer leaves the file alone.
        #expect(try await commit(store, Self.save(pager)) == nil)
        let other = try SQLiteDatabase(path: path)
        try other.execute(
            "PRAGMA busy_timeout=5000; CREATE TRIGGER refuse_parts BEFORE INSERT ON parts BEGIN SELECT RAISE(ABORT, 'parts refused by the test'); END;"
        )
        func change(_ n: Int) async throws {
            pager = try pager.applying(.update(pageID: "p\(n % 3)", PageUpdate(title: "T\(n)"))).pager
            #expect(try await commit(store, Self.save(pager)) == nil)
        }
        // At each time, the writer folds after every commit unless paused: failures at 100, 101,
        // 103, 107 and 111 (the pause capped at 4 s), none in between.
        var n = 0
        for at in [100.0, 100.5, 101, 102, 102.9, 103, 106, 107, 110, 111] {
            time.set(at)
            for _ in 0..<3 {
                try await change(n)
                n += 1
            }
        }
        #expect(store.statistics.failedFolds == 5)
        #expect(store.statistics.folds == 0)
        let failures = logs.current.filter { $0.contains("folding the journal into the tables failed") }
        #expect(failures.count == 5)
        #expect(failures.first?.contains("(1 in a row), next try in 1.0 s") == true)
        #expect(failures.last?.contains("(5 in a row), next try in 4.0 s") == true)
        #expect(failures.last?.contains("parts refused by the test") == true)
        // The file is whole: changes are still taken.
        #expect(store.isAcceptingChanges)
        try other.execute("DROP TRIGGER refuse_parts")
        other.close()
        time.set(115)
        // The fold follows the first commit; the second shows it done.
        try await change(n)
        try await change(n + 1)
        #expect(store.statistics.folds == 1 && store.statistics.failedFolds == 5)
        #expect(warnings.current.contains("\(path): the journal was folded into the tables after 5 failed tries"))
        store.close()
        let reopened = try SQLiteSessionStore(options: .init(path: path))
        #expect(try reopened.recover().map(\.pager) == [pager])
        reopened.close()
    }

    @Test("a readiness poll sees a disk another process filled, measuring at most once a second")
    func readinessMeasuresTheRoom() async throws {
        let path = try Self.folder() + "/sessions.db"
        let time = Dial(0.0)
        let room = Dial<Int?>(1 << 30)
        let measures = Dial(0)
        let options = SQLiteSessionStore.Options(
            path: path, clock: { time.current },
            room: { _ in
                measures.change { $0 += 1 }
                return room.current
            })
        let store = try SQLiteSessionStore(options: options)
        #expect(store.isAcceptingChanges)
        room.set(options.reserveBytes - 1)  // filled by someone else; pagerd writes nothing
        time.set(0.5)
        #expect(store.isAcceptingChanges)  // measured at the start, half a second ago
        time.set(1)
        let before = measures.current
        #expect(!store.isAcceptingChanges)
        // Short, the poll asked the writer for a fold, after which the writer measures too: that
        // measure is waited for, so that it cannot land after the room changes below.
        await waitUntil("the writer measured after its fold") { measures.current == before + 2 }
        room.set(1 << 30)
        time.set(1.05)
        #expect(!store.isAcceptingChanges)  // short: measured again every 0.1 s
        time.set(1.1)
        #expect(store.isAcceptingChanges)
        store.close()
    }

    @Test("short of disk: growing changes are refused, deletions taken and folded; room again: changes taken")
    func shortOfSpace() async throws {
        let path = try Self.folder() + "/sessions.db"
        let time = Dial(0.0)
        let room = Dial<Int?>(1 << 30)
        let warnings = Dial<[String]>([])
        let options = SQLiteSessionStore.Options(
            path: path, checkpointBytes: 64 << 10, retryDelay: 0,
            warn: { message in warnings.change { $0.append(message) } }, clock: { time.current },
            room: { _ in room.current })
        let reserve = options.reserveBytes
        #expect(reserve == 2 * 65_536 + 4 * 1_048_576)
        let store = try SQLiteSessionStore(options: options)
        let small = try SQLiteSessionStoreTests.pager(pages: 2)
        let wide = try Self.widePager(pages: 4, contentBytes: 10_000)
        #expect(try await commit(store, Self.save(small, Self.id("small"))) == nil)
        #expect(try await commit(store, Self.save(wide, Self.id("wide"))) == nil)
        #expect(store.isAcceptingChanges)

        // Room above the reserve, but not for twice a change of 20 KB: refused, nothing kept.
        room.set(reserve + 30_000)
        time.set(1)  // with plenty of room, the writer measures it again once a second
        let grown = try Self.update(
            wide, "p0", PageUpdate(content: ["blob": .string(String(repeating: "z", count: 20_000))]))
        let refused = try await commit(store, Self.save(grown, Self.id("wide")))
        #expect(refused?.reason.contains("would leave less than the \(reserve) bytes pagerd keeps free") == true)
        #expect(store.statistics.failedCommits == 1)
        // Below the reserve: refused at once, even a use; a deletion is taken.
        room.set(reserve - 1)
        time.set(2)
        #expect(
            try await commit(
                store, .save(Self.id("small"), try small.applying(.next).pager, lastUsed: 2, positionOnly: true)) != nil
        )
        #expect(!store.isAcceptingChanges)
        #expect(throws: StoreError.self) {
            try store.submit(.touch(Self.id("small"), lastUsed: 3), completion: nil)
        }
        #expect(
            warnings.current.last?.contains(
                "\(reserve - 1) bytes of disk are left, less than the \(reserve) pagerd keeps free") == true)
        let folds = store.statistics.folds
        #expect(try await commit(store, .delete(Self.id("wide"))) == nil)
        // The writer folds after that commit, before it takes the next change: a deletion of
        // nothing (folded too, after its completion) shows it done.
        #expect(try await commit(store, .delete(Self.id("nothing"))) == nil)
        await waitUntil("both deletions are folded") { store.statistics.folds == folds + 2 }
        let database = try SQLiteDatabase(path: path)
        #expect(try database.integer("SELECT count(*) FROM parts WHERE session = '\(Self.id("wide").rawValue)'") == 0)
        #expect(try database.integer("SELECT count(*) FROM journal") == 0)
        database.close()
        // The room is measured again at most every 0.1 s, also by a readiness poll.
        room.set(1 << 30)
        #expect(!store.isAcceptingChanges)
        time.set(2.2)
        #expect(store.isAcceptingChanges)
        #expect(warnings.current.last == "\(path): \(1 << 30) bytes of disk are left again; changes are taken")
        let moved = try small.applying(.next).pager
        #expect(try await commit(store, .save(Self.id("small"), moved, lastUsed: 4, positionOnly: true)) == nil)
        store.close()
        let reopened = try SQLiteSessionStore(options: .init(path: path))
        #expect(try reopened.recover().map(\.pager) == [moved])
        reopened.close()
    }
}
