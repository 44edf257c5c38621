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
/// transaction, so one sync covers every change that was waiting. A saved state is journaled as
/// its whole document when the session is small, else as the parts of its document that changed
/// since the state last stored (``StoredParts``), so a change costs about its own size. Once the
/// journal holds ``Options/checkpointRecords`` records or ``Options/checkpointBytes`` bytes, the
/// writer folds it into the tables (`sessions`, one row per session, and `parts`) and empties it;
/// after a fold it gives the file's free pages back to the file system when the disk is short of
/// room, or when they outnumber half the used ones and hold more than ``Options/checkpointBytes``. The connection is
/// used by one thread at a time: ``recover()`` runs before the first submission, and everything
/// after on the writer thread. No other thread, and no other lock of pagerd's in the process: the
/// queue's lock also guards the refusals below, which `submit` and ``isAcceptingChanges`` read
/// (measuring the room again, on the caller's thread, when it is short and the last measure is
/// old enough). Between processes, a file lock (``FileLock``: `flock` on the resolved path + `.lock`,
/// held from opening to ``close()``) keeps a second pagerd off the file.
///
/// When a transaction fails (a full or failing disk), the writer fails it and everything queued
/// behind it, refuses submissions until those failures are reported (deletions are then taken
/// again) and ``Options/retryDelay`` has passed, and then tries again with the next submission:
/// pagerd recovers by itself when the disk does. The store keeps ``Options/reserveBytes`` of
/// disk free: a change that would leave less is refused, and while less is left only deletions
/// are taken (each then folded at once, so that their space comes back). A fold that fails is
/// tried again after a pause that doubles up to ``Options/maxFoldRetryDelay``; if the first
/// failure shows the file damaged (`quick_check`), every change is refused from then on.
public final class SQLiteSessionStore: SessionStore, @unchecked Sendable {
    // @unchecked: the queue guards its own state (and the space measures' times); the database,
    // the statements and the writer's state below belong to the writer thread once recovery is
    // done.

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
        /// Journal records after which the writer folds them into the tables.
        public var checkpointRecords: Int
        /// Journal bytes after which the writer folds them into the tables.
        public var checkpointBytes: Int
        /// How long submissions are refused after a failed commit, in seconds.
        public var retryDelay: Double
        /// The pause after a first failed fold, in seconds; it doubles with each failure after.
        public var foldRetryDelay: Double
        /// The longest pause between tries of a failing fold, in seconds.
        public var maxFoldRetryDelay: Double
        /// Where the store reports failures it handled (a failed commit or fold).
        public var log: @Sendable (String) -> Void
        /// Where it reports what an operator should know (an empty file, a shortage of space).
        public var warn: @Sendable (String) -> Void
        /// Seconds on a clock that never goes back, for the pauses; by default the system's
        /// uptime (tests turn their own by hand).
        public var clock: @Sendable () -> Double
        /// How many bytes the file and its WAL can still grow by, nil when unknown; by default
        /// ``DiskRoom/measure(_:)`` of the path (tests give their own).
        public var room: @Sendable (String) -> Int?

        /// Creates options.
        public init(
            path: String, synchronous: Synchronous = .full, checkpointRecords: Int = 10_000,
            checkpointBytes: Int = 4 << 20, retryDelay: Double = 0.25, foldRetryDelay: Double = 1,
            maxFoldRetryDelay: Double = 60, log: @escaping @Sendable (String) -> Void = { _ in },
            warn: @escaping @Sendable (String) -> Void = { _ in },
            clock: (@Sendable () -> Double)? = nil, room: (@Sendable (String) -> Int?)? = nil
        ) {
            self.path = path
            self.synchronous = synchronous
            self.checkpointRecords = checkpointRecords
            self.checkpointBytes = checkpointBytes
            self.retryDelay = retryDelay
            self.foldRetryDelay = foldRetryDelay
            self.maxFoldRetryDelay = maxFoldRetryDelay
            self.log = log
            self.warn = warn
            self.clock = clock ?? { ProcessInfo.processInfo.systemUptime }
            self.room = room ?? { DiskRoom.measure($0) }
        }

        /// The disk space the store keeps free for deletions and folds: twice a fold's journal,
        /// plus 4 MiB for the WAL.
        public var reserveBytes: Int { 2 * checkpointBytes + (4 << 20) }
    }

    /// Identifies pagerd's files (`PRAGMA application_id`): "PGRD".
    static let applicationID = 0x5047_5244
    /// The schema written; a file with a newer one is refused, an older one migrated. 1: whole
    /// documents; 2: documents in parts (``StoredParts``), and incremental vacuum.
    static let schemaVersion = 2
    /// The largest the WAL is left after a checkpoint (`PRAGMA journal_size_limit`).
    static let walSizeLimit = 4 << 20
    /// Pages given back to the file system per step after a fold, each step checkpointed, so
    /// that the WAL never needs more than this much room for it.
    static let vacuumStep = 256
    /// How often, at most, the room left is measured again while the store is short of it.
    static let shortageMeasureInterval = 0.1

    let options: Options
    let database: SQLiteDatabase
    private let lock: FileLock
    let insertRecord: SQLiteDatabase.Statement
    /// Whether the file gives freed pages back (`auto_vacuum` incremental).
    let vacuums: Bool

    struct Pending {
        var change: SessionChange
        var completion: (@Sendable (StoreError?) -> Void)?
    }

    let queue = WriterQueue<Pending>()
    /// How often, at most, the writer measures the room left while there is plenty of it; in
    /// between it counts what it wrote.
    static let roomMeasureInterval = 1.0

    // The writer thread's (and the starting thread's, before the first submission).
    /// What the journal holds, folded.
    var fold = SessionFold()
    var journalRecords = 0
    var journalBytes = 0
    /// The session data the deletions journaled since the last fold free when folded
    /// (estimated); it counts toward ``Options/checkpointBytes`` with the journal's bytes, so
    /// that deleted sessions give their space back within one journal's worth.
    var freedBytes = 0
    /// The state last committed of each session kept in parts (larger than
    /// ``StoredParts/wholeLimit``), to journal only the parts a new state changes; smaller
    /// sessions are written whole. The values share their storage with the engine's, so holding
    /// them costs little.
    var held: [String: Pager] = [:]
    /// Folds failed in a row, and when the next may be tried (``Options/clock``).
    var foldFailures = 0
    var nextFoldAttempt = -Double.infinity
    /// Set when a fold failed and `quick_check` found the file damaged: nothing is written again.
    var damaged = false
    /// The room last measured, when (``Options/clock``), and the bytes committed since (counted
    /// twice: journal, then fold).
    var measuredRoom: Int?
    var roomMeasuredAt = -Double.infinity
    var writtenSinceMeasure = 0

    public var statistics: StoreStatistics { queue.statistics }

    /// Opens the store at `options.path`: takes its lock, checks that the file is pagerd's (or
    /// new) and undamaged, creates or migrates the schema, measures the room left, and starts the
    /// writer thread (which sleeps until a submission arrives).
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
        // again under the lock, in case another process wrote the file meanwhile. The lock and
        // the database are named by the file's resolved path: a second pagerd given a symbolic
        // link to the file meets the same lock.
        let file = FileLock.resolved(path)
        try Self.checkHeader(file)
        lock = try FileLock(path: file + ".lock")
        if try Self.checkHeader(file) == .empty {
            options.warn(
                "\(path) is an empty file (0 bytes): pagerd takes it as a new database and starts with no sessions")
        }
        do {
            database = try SQLiteDatabase(path: file)
            vacuums = try Self.prepareSchema(database, options: options)
            insertRecord = try database.prepare(
                "INSERT INTO journal(id, kind, version, part, body, position, last_used) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
            )
            try readJournal()
        } catch let error as StoreOpenError {
            throw error
        } catch let error as SQLiteError {
            throw StoreOpenError(error.isCorruptFile ? .corrupt : .unusable, "\(path): \(error)")
        } catch {
            throw StoreOpenError(.unusable, "\(path): \(error)")
        }
        measureRoomAgain()
        // The thread holds the store until `close()` ends it.
        let thread = Thread { self.writeLoop() }
        thread.name = "pagerd-sqlite"
        thread.start()
    }

    /// Folds the journal left by the last run (records not yet in the tables) into `fold`, so
    /// that recovery reads them and the first checkpoint writes them to the tables.
    private func readJournal() throws {
        let records = try database.prepare(
            "SELECT kind, id, version, part, body, position, last_used FROM journal ORDER BY seq")
        while try records.step() {
            guard let kind = JournalRecord.Kind(rawValue: records.int(0)) else {
                throw StoreOpenError(
                    .corrupt, "\(options.path): a journal record has the unknown kind \(records.int(0))")
            }
            let record = JournalRecord(
                kind: kind, id: records.string(1), version: records.int(2),
                part: records.isNull(3) ? nil : records.string(3), body: records.bytes(4),
                position: records.bytes(5), lastUsed: records.double(6))
            fold.apply(record)
            journalRecords += 1
            journalBytes += record.bytes
        }
    }

    // MARK: - SessionStore

    public func recover() throws(StoreError) -> [StoredSession] {
        var sessions: [StoredSession] = []
        do {
            let count = (try database.integer("SELECT count(*) FROM sessions") ?? 0) + fold.entries.count
            sessions.reserveCapacity(count)
            // Each session's row with its parts, one session after another, so that each is
            // rebuilt, and its bytes dropped, before the next one's are read.
            let rows = try database.prepare(
                """
                SELECT s.id, s.version, s.position, s.last_used, p.key, p.body
                FROM sessions s LEFT JOIN parts p ON p.session = s.id ORDER BY s.id
                """)
            var current: TableSession?
            var overlaid = Set<String>()
            while try rows.step() {
                let id = rows.string(0)
                if current?.id != id {
                    if let finished = current, let session = try restore(finished.id, table: finished) {
                        sessions.append(session)
                    }
                    if fold.entries[id] != nil { overlaid.insert(id) }
                    current = TableSession(
                        id: id, version: rows.int(1), position: rows.bytes(2) ?? [], lastUsed: rows.double(3))
                }
                if !rows.isNull(4) { current?.parts.append((rows.string(4), rows.bytes(5) ?? [])) }
            }
            if let finished = current, let session = try restore(finished.id, table: finished) {
                sessions.append(session)
            }
            // Sessions made since the last fold are in the journal alone.
            for id in fold.entries.keys where !overlaid.contains(id) {
                if let session = try restore(id, table: nil) { sessions.append(session) }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("\(options.path) cannot be read: \(error)")
        }
        return sessions
    }

    /// A session as the tables hold it.
    private struct TableSession {
        var id: String
        var version: Int
        var position: [UInt8]
        var lastUsed: Double
        var parts: [(key: String, body: [UInt8])] = []
    }

    /// Session `id` as the tables hold it (`table`) with what the journal changed laid over it;
    /// nil when it is deleted (or the journal only touched a session the tables lack).
    private func restore(_ id: String, table: TableSession?) throws(StoreError) -> StoredSession? {
        let entry = fold.entries[id]
        if entry?.deleted == true { return nil }
        let sessionID = SessionID(id)
        guard sessionID.isWellFormed else { throw StoreError("\(options.path): '\(id)' is not a session id") }
        let pager: Pager
        let lastUsed: Double
        do {
            if entry == nil, let table, table.parts.count == 1, table.parts[0].key == StoredParts.whole {
                // Most sessions: kept whole, untouched since the last fold.
                pager = try StoredRecord.pager(
                    document: table.parts[0].body, position: table.position, version: table.version)
                lastUsed = table.lastUsed
            } else {
                let fresh = entry?.fresh == true
                var parts: [String: [UInt8]] = [:]
                if !fresh, let table { for part in table.parts { parts[part.key] = part.body } }
                var version = fresh ? 0 : table?.version ?? 0
                var position = fresh ? nil : table?.position
                var used = fresh ? 0 : table?.lastUsed ?? 0
                if let entry {
                    for (key, body) in entry.parts { parts[key] = body }
                    if let newer = entry.position {
                        position = newer
                        version = entry.version
                    }
                    used = max(used, entry.lastUsed)
                }
                guard let position else {
                    if parts.isEmpty { return nil }
                    throw RecordError("it has no position")
                }
                pager = try StoredParts.pager(parts: parts, position: position, version: version)
                lastUsed = used
            }
        } catch {
            throw StoreError("\(options.path): session \(id) is damaged: \(error)")
        }
        if pager.storedBytes > StoredParts.wholeLimit { held[id] = pager }
        return StoredSession(id: sessionID, pager: pager, lastUsed: lastUsed)
    }

    public func submit(
        _ change: SessionChange, announcing _: ChangeAnnouncement?, completion: (@Sendable (StoreError?) -> Void)?
    ) throws(StoreError) {
        let freesSpace: Bool
        if case .delete = change { freesSpace = true } else { freesSpace = false }
        let pending = Pending(change: change, completion: completion)
        do {
            try queue.add(pending, freesSpace: freesSpace)
        } catch {
            // Refused for want of room, measured a while ago: measure again, and try once more.
            guard !freesSpace,
                queue.roomMeasureDue(
                    at: options.clock(), whileShort: Self.shortageMeasureInterval, otherwise: .infinity)
            else { throw error }
            measureRoomAgain()
            try queue.add(pending, freesSpace: freesSpace)
        }
    }

    /// False while the store refuses changes: after a failed commit, while the disk has less
    /// room than ``Options/reserveBytes`` (measured again at most every 0.1 s while short, and
    /// every second otherwise, so that a disk another process fills shows before a change is
    /// refused), or once the file is found damaged.
    public var isAcceptingChanges: Bool {
        if queue.roomMeasureDue(
            at: options.clock(), whileShort: Self.shortageMeasureInterval, otherwise: Self.roomMeasureInterval)
        {
            measureRoomAgain()
        }
        return queue.isAcceptingChanges
    }

    /// Commits what is queued, folds the journal into the tables, copies the WAL into the file
    /// (which is then whole by itself), stops the writer thread and closes the file, releasing
    /// its lock. Submissions after it are refused.
    public func close() {
        queue.close()
        database.close()
        lock.release()
    }

    // MARK: - Room on the disk

    /// Measures the room left for a thread that is not the writer; still short, asks the writer
    /// for a fold, which gives back the space of sessions deleted since the last one (tried at
    /// most as often as the pauses after failed folds allow).
    private func measureRoomAgain() {
        measureRoom()
        if queue.isShortOfSpace { queue.requestFold() }
    }

    /// Measures the room left and records whether the store is short of it, logging when that
    /// changes; answers the room (nil when it cannot be measured, which is not a shortage).
    @discardableResult
    func measureRoom() -> Int? {
        let begun = options.clock()
        let room = options.room(options.path)
        let reserve = options.reserveBytes
        let short = room.map { $0 < reserve } ?? false
        let reason =
            short
            ? "\(options.path): \(room ?? 0) bytes of disk are left, less than the \(reserve) pagerd keeps free; only deletions are taken until there is room"
            : nil
        if queue.setShortage(reason, at: begun) {
            if let reason {
                options.warn(reason)
            } else {
                options.warn("\(options.path): \(room ?? 0) bytes of disk are left again; changes are taken")
            }
        }
        return room
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
