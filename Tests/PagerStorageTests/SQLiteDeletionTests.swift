import Foundation
import PagerModel
import PagerSessions
import TestSupport
import Testing

@testable import PagerStorage

/// What deleted sessions cost the disk: their space comes back within one journal's worth, and
/// a store short of room folds what its journal holds when asked whether it takes changes.
@Suite("SQLiteSessionStore: deleted sessions give their space back")
struct SQLiteDeletionTests {
    typealias Journal = SQLiteJournalTests

    @Test("deleting sessions with room to spare folds once they hold checkpointBytes: their parts leave the tables")
    func deletionsFoldByBytes() async throws {
        let path = try Journal.folder() + "/sessions.db"
        let options = SQLiteSessionStore.Options(path: path, checkpointRecords: 1_000_000, checkpointBytes: 256 << 10)
        let store = try SQLiteSessionStore(options: options)
        // Three sessions of 1.5 MB each, kept in parts; the journal is folded as they are made.
        let wide = try Journal.widePager(pages: 100)
        for name in ["a", "b", "c"] { #expect(try await commit(store, Journal.save(wide, Journal.id(name))) == nil) }
        let folds = store.statistics.folds
        let database = try SQLiteDatabase(path: path)
        defer { database.close() }
        func parts(_ name: String) throws -> Int {
            try database.integer("SELECT count(*) FROM parts WHERE session = '\(Journal.id(name).rawValue)'") ?? 0
        }
        #expect(try parts("a") > 0)
        // Each deletion frees far more than checkpointBytes: each is folded after its commit, and
        // the next commit (a deletion of nothing) shows it done.
        for name in ["a", "b"] {
            #expect(try await commit(store, .delete(Journal.id(name))) == nil)
            #expect(try await commit(store, .delete(Journal.id("nothing"))) == nil)
            #expect(try parts(name) == 0)
        }
        #expect(store.statistics.folds >= folds + 2)
        #expect(try parts("c") > 0)
        store.close()
        // Stopped, the file holds the live session and its free pages within the fold's bound.
        let live = try Journal.liveBytes(path)
        #expect(Journal.fileBytes(path) <= 2 * live + options.checkpointBytes)
    }

    @Test("small deletions count as kept-whole sessions: 64 KiB of them fold a 64 KiB journal")
    func smallDeletionsAddUp() async throws {
        let path = try Journal.folder() + "/sessions.db"
        let store = try SQLiteSessionStore(
            options: .init(path: path, checkpointRecords: 1_000_000, checkpointBytes: 2 * StoredParts.wholeLimit))
        let small = try SQLiteSessionStoreTests.pager(pages: 2)
        for name in ["a", "b"] { #expect(try await commit(store, Journal.save(small, Journal.id(name))) == nil) }
        let folds = store.statistics.folds
        // A touch after each deletion: the writer decided whether to fold before it took it.
        #expect(try await commit(store, .delete(Journal.id("a"))) == nil)
        #expect(try await commit(store, .touch(Journal.id("c"), lastUsed: 2)) == nil)
        #expect(store.statistics.folds == folds)
        #expect(try await commit(store, .delete(Journal.id("b"))) == nil)
        #expect(try await commit(store, .touch(Journal.id("c"), lastUsed: 3)) == nil)
        #expect(store.statistics.folds == folds + 1)
        store.close()
    }

    @Test("short of room with deletions journaled before: a readiness poll has the writer fold them")
    func shortageFoldsTheJournal() async throws {
        let path = try Journal.folder() + "/sessions.db"
        let time = Dial(0.0)
        let room = Dial<Int?>(1 << 30)
        let options = SQLiteSessionStore.Options(
            path: path, checkpointRecords: 1_000_000, checkpointBytes: 1 << 20, retryDelay: 0,
            clock: { time.current }, room: { _ in room.current })
        let store = try SQLiteSessionStore(options: options)
        let small = try SQLiteSessionStoreTests.pager(pages: 2)
        #expect(try await commit(store, Journal.save(small, Journal.id("a"))) == nil)
        #expect(try await commit(store, .delete(Journal.id("a"))) == nil)
        let folds = store.statistics.folds
        let database = try SQLiteDatabase(path: path)
        defer { database.close() }
        #expect(try database.integer("SELECT count(*) FROM journal") ?? 0 > 0)
        // The disk fills from elsewhere: a change finds the store short (the writer measures the
        // room again after a second) and is refused; nothing is folded by that.
        room.set(options.reserveBytes - 1)
        time.set(1)
        #expect(try await commit(store, Journal.save(small, Journal.id("b"))) != nil)
        #expect(store.statistics.folds == folds)
        // A readiness poll 0.1 s later measures again, finds the store still short and has the
        // writer fold what the journal holds.
        time.set(1.2)
        #expect(!store.isAcceptingChanges)
        await waitUntil("the writer folded the journal") { store.statistics.folds == folds + 1 }
        #expect(try database.integer("SELECT count(*) FROM journal") == 0)
        // Another poll while still short finds nothing to fold; a deletion is still taken.
        time.set(1.4)
        #expect(!store.isAcceptingChanges)
        #expect(try await commit(store, .delete(Journal.id("nothing"))) == nil)
        await waitUntil("the deletion is folded") { store.statistics.folds == folds + 2 }
        #expect(store.statistics.failedFolds == 0)
        store.close()
    }
}
