import Foundation
import PagerModel
import PagerSessions
import Testing

@testable import PagerStorage

@Suite("SQLiteSessionStore: group commit, recovery, checkpoints and refusals")
struct SQLiteSessionStoreTests {
    /// A fresh folder for one test's files.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "pagerd-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A well-formed session id ending in `name` (ids are 22 to 64 URL-safe characters).
    static func id(_ name: String) -> SessionID { SessionID("session-id-for-tests-" + name) }

    static func pager(pages: Int, index: Int = 0) throws -> Pager {
        try Pager(pages: (0..<pages).map { Page(id: "p\($0)", title: "Page \($0)") }, initialPage: .index(index))
    }

    @Test(
        "committed saves, moves, touches and deletes come back after reopening, with and without a checkpoint",
        arguments: [2, 10_000])
    func recovery(checkpointRecords: Int) async throws {
        let path = try Self.folder() + "/sessions.db"
        var store = try SQLiteSessionStore(options: .init(path: path, checkpointRecords: checkpointRecords))
        let one = try Self.pager(pages: 3)
        let moved = try one.applying(.next).pager.applying(.next).pager
        let two = try Self.pager(pages: 2)
        #expect(try await commit(store, .save(Self.id("one"), one, lastUsed: 100, positionOnly: false)) == nil)
        #expect(try await commit(store, .save(Self.id("two"), two, lastUsed: 100, positionOnly: false)) == nil)
        #expect(try await commit(store, .save(Self.id("gone"), two, lastUsed: 100, positionOnly: false)) == nil)
        #expect(try await commit(store, .save(Self.id("one"), moved, lastUsed: 150, positionOnly: true)) == nil)
        #expect(try await commit(store, .touch(Self.id("two"), lastUsed: 175)) == nil)
        #expect(try await commit(store, .delete(Self.id("gone"))) == nil)
        store.close()
        store = try SQLiteSessionStore(options: .init(path: path))
        let sessions = Dictionary(uniqueKeysWithValues: try store.recover().map { ($0.id, $0) })
        #expect(Set(sessions.keys) == [Self.id("one"), Self.id("two")])
        #expect(sessions[Self.id("one")]?.pager == moved)
        #expect(sessions[Self.id("one")]?.pager.version == 3 && sessions[Self.id("one")]?.pager.index == 2)
        #expect(sessions[Self.id("one")]?.lastUsed == 150)
        #expect(sessions[Self.id("two")]?.pager == two && sessions[Self.id("two")]?.lastUsed == 175)
        store.close()
    }

    @Test("records left in the journal by a crash are read back and folded into the table by the next run")
    func journalSurvivesReopen() async throws {
        let path = try Self.folder() + "/sessions.db"
        var store = try SQLiteSessionStore(options: .init(path: path))
        let pager = try Self.pager(pages: 2)
        #expect(try await commit(store, .save(Self.id("s"), pager, lastUsed: 1, positionOnly: false)) == nil)
        // Reopening without close() stands for a crash: the records are still in the journal.
        let journal = try SQLiteDatabase(path: path)
        #expect(try journal.integer("SELECT count(*) FROM journal WHERE kind = 6") == 1)  // one creation
        #expect(try journal.integer("SELECT count(*) FROM sessions") == 0)
        store.close()
        store = try SQLiteSessionStore(options: .init(path: path))
        #expect(try store.recover().map(\.pager) == [pager])
        store.close()
        #expect(try journal.integer("SELECT count(*) FROM journal") == 0)
        #expect(try journal.integer("SELECT version FROM sessions WHERE id = 'session-id-for-tests-s'") == 1)
        journal.close()
    }

    @Test("a second store on the same file is refused while the first holds it")
    func exclusive() throws {
        let path = try Self.folder() + "/sessions.db"
        let first = try SQLiteSessionStore(options: .init(path: path))
        #expect {
            _ = try SQLiteSessionStore(options: .init(path: path))
        } throws: { error in
            (error as? StoreOpenError)?.kind == .inUse
        }
        first.close()
        try SQLiteSessionStore(options: .init(path: path)).close()
    }

    @Test("a symbolic link to the file, or through a linked folder, meets the same lock")
    func exclusiveThroughLinks() throws {
        let folder = try Self.folder()
        let path = folder + "/sessions.db"
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.db", withDestinationPath: "sessions.db")
        try FileManager.default.createSymbolicLink(atPath: folder + "/linked", withDestinationPath: folder)
        let first = try SQLiteSessionStore(options: .init(path: path))
        for other in [folder + "/link.db", folder + "/linked/sessions.db", folder + "/linked/link.db"] {
            #expect {
                _ = try SQLiteSessionStore(options: .init(path: other))
            } throws: { error in
                (error as? StoreOpenError)?.kind == .inUse
            }
        }
        first.close()
        // Through the link, the store opens the file itself: its sessions are there.
        try SQLiteSessionStore(options: .init(path: folder + "/link.db")).close()
        #expect(!FileManager.default.fileExists(atPath: folder + "/link.db.lock"))
        #expect(FileManager.default.fileExists(atPath: path + ".lock"))
    }

    @Test("a file that is not pagerd's database is refused and left byte for byte as it was")
    func foreignFiles() throws {
        let folder = try Self.folder()
        let text = folder + "/text.db"
        let bytes = Data(String(repeating: "not a database\n", count: 100).utf8)
        try bytes.write(to: URL(fileURLWithPath: text))
        #expect {
            _ = try SQLiteSessionStore(options: .init(path: text))
        } throws: { error in
            (error as? StoreOpenError)?.kind == .corrupt && "\(error)".contains(text)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == bytes)

        let other = folder + "/other.db"
        let database = try SQLiteDatabase(path: other)
        try database.execute("CREATE TABLE accounts(id INTEGER PRIMARY KEY, balance INTEGER)")
        database.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        #expect {
            _ = try SQLiteSessionStore(options: .init(path: other))
        } throws: { error in
            (error as? StoreOpenError)?.kind == .corrupt && "\(error)".contains("another application")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
    }

    @Test("changes submitted together share one commit")
    func groupCommit() async throws {
        let path = try Self.folder() + "/sessions.db"
        let store = try SQLiteSessionStore(options: .init(path: path))
        let pager = try Self.pager(pages: 2)
        try await withThrowingTaskGroup(of: StoreError?.self) { group in
            for n in 0..<200 {
                group.addTask {
                    try await commit(store, .save(Self.id("s\(n)"), pager, lastUsed: 1, positionOnly: false))
                }
            }
            for try await error in group { #expect(error == nil) }
        }
        let statistics = store.statistics
        #expect(statistics.changes == 200 && statistics.failedCommits == 0)
        #expect(statistics.commits < 200)
        store.close()
        let reopened = try SQLiteSessionStore(options: .init(path: path))
        #expect(try reopened.recover().count == 200)
        reopened.close()
    }

    @Test("after close, submissions are refused")
    func closed() throws {
        let store = try SQLiteSessionStore(options: .init(path: try Self.folder() + "/sessions.db"))
        store.close()
        #expect(throws: StoreError.self) { try store.submit(.delete("x"), completion: nil) }
    }
}
