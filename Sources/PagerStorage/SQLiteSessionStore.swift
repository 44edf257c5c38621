import Foundation
import PagerModel
public import PagerSessions

/// The embedded store: sessions in one SQLite file, in WAL mode, written by one thread of its own
/// with group commit.
///
/// Threads: `submit` (called by the engine under a shard's lock) only appends to a
/// ``WriterQueue``. The writer thread takes everything queued, encodes it, appends it to the journal
/// in one transaction, commits (synced per ``Synchronous``), and then reports each change, in
/// order, by calling its completion; changes that arrive meanwhile wait for the next
/// transaction, so one sync covers every change that was waiting. Every
/// ``Options/checkpointRecords`` records, the writer folds the journal into one row per session
/// (the `sessions` table) and empties it. The connection is used by one thread at a time:
/// ``recover()`` runs before the first submission, and everything after on the writer thread.
///
/// When a transaction fails (a full or failing disk), the writer fails it and everything queued
/// behind it, refuses submissions until those failures are reported and ``Options/retryDelay``
/// has passed, and then tries again with the next submission: pagerd recovers by itself when the
/// disk does.
public final class SQLiteSessionStore: SessionStore, @unchecked Sendable {
    // @unchecked: the queue guards its own state; the database, the statements and `fold`
    // belong to the writer thread once recovery is done.

    /// How far SQLite syncs each commit.
    public enum Synchronous: String, Sendable, CaseIterable {
        /// The WAL is synced at every commit: a commit survives power loss.
        case full
        /// The WAL is synced at checkpoints only: a commit survives a crash of pagerd, not of the
        /// machine.
        case normal
    }

    /// How the store is set up.
    public struct Options: Sendable {
        /// The database file.
        public var path: String
        public var synchronous: Synchronous
        /// Journal records after which the writer folds them into the table.
        public var checkpointRecords: Int
        /// How long submissions are refused after a failed commit, in seconds.
        public var retryDelay: Double
        /// Where the store reports failures it handled (a failed commit or checkpoint).
        public var log: @Sendable (String) -> Void

        /// Creates options.
        public init(
            path: String, synchronous: Synchronous = .full, checkpointRecords: Int = 10_000,
            retryDelay: Double = 0.25, log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.path = path
            self.synchronous = synchronous
            self.checkpointRecords = checkpointRecords
            self.retryDelay = retryDelay
            self.log = log
        }
    }

    /// Identifies pagerd's files (`PRAGMA application_id`): "PGRD".
    static let applicationID = 0x5047_5244
    /// The schema written; a file with a newer one is refused.
    static let schemaVersion = 1

    private let options: Options
    private let database: SQLiteDatabase
    private let lock: FileLock
    private let insertRecord: SQLiteDatabase.Statement

    private struct Pending {
        var change: SessionChange
        var completion: (@Sendable (StoreError?) -> Void)?
    }

    private let queue = WriterQueue<Pending>()

    // The writer thread's.
    private var fold = SessionFold()
    private var journalRecords = 0

    public var statistics: StoreStatistics { queue.statistics }

    /// Opens the store at `options.path`: takes its lock, checks that the file is pagerd's (or
    /// new), and creates the schema if needed. The writer thread starts with the first
    /// submission's arrival after ``recover()``.
    public init(options: Options) throws(StoreOpenError) {
        self.options = options
        let path = options.path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreOpenError(
                    .unusable, "cannot create the directory \(directory): \(error.localizedDescription)")
            }
        }
        // Checked before the lock file is made, so nothing is created beside a foreign file; and
        // again under the lock, in case another process wrote the file meanwhile.
        try Self.checkHeader(path)
        lock = try FileLock(path: path + ".lock")
        try Self.checkHeader(path)
        do {
            database = try SQLiteDatabase(path: path)
            try Self.prepareSchema(database, path: path)
            try database.execute("PRAGMA synchronous=\(options.synchronous.rawValue.uppercased())")
            insertRecord = try database.prepare(
                "INSERT INTO journal(id, kind, version, document, position, last_used) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
            try readJournal()
        } catch let error as StoreOpenError {
            throw error
        } catch let error as SQLiteError {
            throw StoreOpenError(error.isCorruptFile ? .corrupt : .unusable, "\(path): \(error)")
        } catch {
            throw StoreOpenError(.unusable, "\(path): \(error)")
        }
        // The thread holds the store until `close()` ends it.
        let thread = Thread { self.writeLoop() }
        thread.name = "pagerd-sqlite"
        thread.start()
    }

    /// A file that exists and is not empty must begin as every SQLite database does; anything
    /// else is refused before SQLite could treat it as a database to overwrite.
    private static func checkHeader(_ path: String) throws(StoreOpenError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard !header.isEmpty else { return }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw StoreOpenError(.corrupt, "\(path) is not a SQLite database; pagerd will not touch it")
        }
    }

    private static func prepareSchema(_ database: SQLiteDatabase, path: String) throws {
        let tables = try database.integer("SELECT count(*) FROM sqlite_master") ?? 0
        let application = try database.integer("PRAGMA application_id") ?? 0
        let schema = try database.integer("PRAGMA user_version") ?? 0
        if tables > 0 {
            guard application == applicationID else {
                throw StoreOpenError(
                    .corrupt, "\(path) is a SQLite database of another application; pagerd will not touch it")
            }
            guard schema <= schemaVersion else {
                throw StoreOpenError(
                    .corrupt, "\(path) has schema \(schema), newer than this pagerd's (\(schemaVersion))")
            }
        }
        try database.execute("PRAGMA journal_mode=WAL")
        guard tables == 0 else { return }
        try database.execute(
            """
            BEGIN;
            CREATE TABLE sessions(
                id TEXT PRIMARY KEY, version INTEGER NOT NULL, document BLOB NOT NULL, position BLOB NOT NULL,
                last_used REAL NOT NULL);
            CREATE TABLE journal(
                seq INTEGER PRIMARY KEY, id TEXT NOT NULL, kind INTEGER NOT NULL, version INTEGER NOT NULL,
                document BLOB, position BLOB, last_used REAL NOT NULL);
            PRAGMA application_id=\(applicationID);
            PRAGMA user_version=\(schemaVersion);
            COMMIT;
            """)
    }

    /// Folds the journal left by the last run (records not yet in the table) into `fold`, so
    /// that recovery reads them and the first checkpoint writes them to the table.
    private func readJournal() throws {
        let records = try database.prepare(
            "SELECT kind, id, version, document, position, last_used FROM journal ORDER BY seq")
        while try records.step() {
            guard let kind = SessionFold.Kind(rawValue: records.int(0)) else {
                throw StoreOpenError(
                    .corrupt, "\(options.path): a journal record has the unknown kind \(records.int(0))")
            }
            fold.apply(
                kind, id: records.string(1), version: records.int(2), document: records.bytes(3),
                position: records.bytes(4), lastUsed: records.double(5))
            journalRecords += 1
        }
    }

    // MARK: - SessionStore

    public func recover() throws(StoreError) -> [StoredSession] {
        var recovered = SessionFold()
        do {
            let rows = try database.prepare("SELECT id, version, document, position, last_used FROM sessions")
            while try rows.step() {
                recovered.seed(
                    rows.string(0), document: rows.bytes(2) ?? [], position: rows.bytes(3) ?? [],
                    version: rows.int(1), lastUsed: rows.double(4))
            }
        } catch {
            throw StoreError("\(options.path) cannot be read: \(error)")
        }
        for (id, change) in fold.entries { recovered.overlay(change, id: id) }
        var sessions: [StoredSession] = []
        sessions.reserveCapacity(recovered.entries.count)
        for (id, entry) in recovered.entries where !entry.deleted {
            guard let document = entry.document, let position = entry.position else { continue }
            let pager: Pager
            do {
                pager = try StoredRecord.pager(document: document, position: position, version: entry.version)
            } catch {
                throw StoreError("\(options.path): session \(id) is damaged: \(error)")
            }
            let sessionID = SessionID(id)
            guard sessionID.isWellFormed else { throw StoreError("\(options.path): '\(id)' is not a session id") }
            sessions.append(StoredSession(id: sessionID, pager: pager, lastUsed: entry.lastUsed))
        }
        return sessions
    }

    public func submit(
        _ change: SessionChange, announcing _: ChangeAnnouncement?, completion: (@Sendable (StoreError?) -> Void)?
    ) throws(StoreError) {
        try queue.add(Pending(change: change, completion: completion))
    }

    /// Commits what is queued, folds the journal into the table, stops the writer thread and
    /// closes the file, releasing its lock. Submissions after it are refused.
    public func close() {
        queue.close()
        database.close()
        lock.release()
    }

    // MARK: - The writer thread

    private func writeLoop() {
        while let batch = queue.next() {
            write(batch)
            if journalRecords >= options.checkpointRecords { checkpoint() }
        }
        checkpoint()
        insertRecord.reset()
        queue.end()
    }

    /// One transaction for `batch`; then every completion, in order.
    private func write(_ batch: [Pending]) {
        var records: [Record] = []
        records.reserveCapacity(batch.count)
        for pending in batch { records.append(Record(pending.change)) }
        do {
            try database.execute("BEGIN IMMEDIATE")
            do {
                for record in records { try insert(record) }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        } catch {
            fail(batch, error: error)
            return
        }
        for record in records {
            fold.apply(
                record.kind, id: record.id, version: record.version, document: record.document,
                position: record.position, lastUsed: record.lastUsed)
        }
        journalRecords += records.count
        queue.recordCommit(changes: batch.count)
        for pending in batch { pending.completion?(nil) }
    }

    private func insert(_ record: Record) throws(SQLiteError) {
        insertRecord.bind(1, record.id)
        insertRecord.bind(2, record.kind.rawValue)
        insertRecord.bind(3, record.version)
        insertRecord.bind(4, record.document)
        insertRecord.bind(5, record.position)
        insertRecord.bind(6, record.lastUsed)
        try insertRecord.run()
    }

    /// Fails `batch` and everything queued behind it, then refuses submissions for the retry
    /// delay: nothing built on a failed change is ever committed.
    private func fail(_ batch: [Pending], error: any Error) {
        queue.failAll(
            batch, reason: "\(options.path): a commit failed: \(error)", pause: options.retryDelay, log: options.log
        ) { pending, failure in pending.completion?(failure) }
    }

    /// Folds the journal into the table: one write per session changed since the last
    /// checkpoint, then an empty journal. On failure the journal is kept and folded later.
    private func checkpoint() {
        guard !fold.isEmpty || journalRecords > 0 else { return }
        do {
            try database.execute("BEGIN IMMEDIATE")
            do {
                try writeFold()
                try database.execute("DELETE FROM journal")
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
            fold.removeAll()
            journalRecords = 0
        } catch {
            options.log("\(options.path): a checkpoint failed and will be tried again: \(error)")
        }
    }

    private func writeFold() throws {
        let replace = try database.prepare(
            "INSERT OR REPLACE INTO sessions(id, version, document, position, last_used) VALUES (?1, ?2, ?3, ?4, ?5)")
        let move = try database.prepare(
            "UPDATE sessions SET version = ?2, position = ?3, last_used = max(last_used, ?4) WHERE id = ?1")
        let touch = try database.prepare("UPDATE sessions SET last_used = max(last_used, ?2) WHERE id = ?1")
        let delete = try database.prepare("DELETE FROM sessions WHERE id = ?1")
        for (id, entry) in fold.entries {
            if entry.deleted {
                delete.bind(1, id)
                try delete.run()
            } else if let document = entry.document, let position = entry.position {
                replace.bind(1, id)
                replace.bind(2, entry.version)
                replace.bind(3, document)
                replace.bind(4, position)
                replace.bind(5, entry.lastUsed)
                try replace.run()
            } else if let position = entry.position {
                move.bind(1, id)
                move.bind(2, entry.version)
                move.bind(3, position)
                move.bind(4, entry.lastUsed)
                try move.run()
            } else {
                touch.bind(1, id)
                touch.bind(2, entry.lastUsed)
                try touch.run()
            }
        }
    }

    /// A change as the journal stores it, encoded on the writer thread.
    private struct Record {
        var kind: SessionFold.Kind
        var id: String
        var version = 0
        var document: [UInt8]?
        var position: [UInt8]?
        var lastUsed = 0.0

        init(_ change: SessionChange) {
            id = change.id.rawValue
            switch change {
            case .save(_, let pager, let lastUsed, let positionOnly):
                kind = positionOnly ? .move : .save
                version = pager.version
                document = positionOnly ? nil : StoredRecord.document(of: pager)
                position = StoredRecord.position(of: pager)
                self.lastUsed = lastUsed
            case .delete:
                kind = .delete
            case .touch(_, let lastUsed):
                kind = .touch
                self.lastUsed = lastUsed
            }
        }
    }
}

/// Why a store could not be opened; pagerd exits with status 2 and the message.
public struct StoreOpenError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable {
        /// Another process uses the file.
        case inUse
        /// The file is not pagerd's database, or is damaged.
        case corrupt
        /// The file or its directory cannot be opened or created.
        case unusable
    }

    public var kind: Kind
    public var reason: String

    init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}
