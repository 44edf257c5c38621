import Foundation
import PagerModel

/// Opening a file: what it is, whether it is whole, and its schema, created or migrated.
extension SQLiteSessionStore {
    /// What is at a store's path before SQLite opens it.
    enum FileState {
        case absent
        /// A file of 0 bytes, which SQLite takes as an empty database.
        case empty
        case database
    }

    /// A file that exists and is not empty must begin as every SQLite database does; anything
    /// else is refused before SQLite could treat it as a database to overwrite.
    @discardableResult
    static func checkHeader(_ path: String) throws(StoreOpenError) -> FileState {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .absent }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard !header.isEmpty else { return .empty }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw StoreOpenError(.corrupt, "\(path) is not a SQLite database; pagerd will not touch it")
        }
        return .database
    }

    /// Checks the file's identity and integrity, sets the connection up, creates the schema in
    /// a new file and migrates an older one. Answers whether the file gives freed pages back.
    static func prepareSchema(_ database: SQLiteDatabase, options: Options) throws -> Bool {
        let path = options.path
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
            if let damage = try quickCheck(database) {
                throw StoreOpenError(
                    .corrupt,
                    "\(path) is damaged (PRAGMA quick_check: \(damage)); pagerd will not use it: restore a backup, or move the file away to start with no sessions"
                )
            }
        } else {
            // Only before the first table: freed pages can then be given back to the file system.
            try database.execute("PRAGMA auto_vacuum=INCREMENTAL")
        }
        try database.execute("PRAGMA journal_mode=WAL")
        try database.execute("PRAGMA journal_size_limit=\(walSizeLimit)")
        try database.execute("PRAGMA synchronous=\(options.synchronous.rawValue.uppercased())")
        if tables == 0 {
            try database.execute("BEGIN IMMEDIATE; \(createTables) PRAGMA application_id=\(applicationID);")
            try commit(database, schema: schemaVersion)
        } else if schema < 2 {
            try migrateFromWholeDocuments(database, path: path)
        }
        guard try database.integer("PRAGMA auto_vacuum") != 2 else { return true }
        // A file made before schema 2 gives nothing back until it is rebuilt once.
        do {
            try database.execute("PRAGMA auto_vacuum=INCREMENTAL")
            try database.execute("VACUUM")
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            options.warn(
                "\(path): cannot rebuild the file to give freed space back (\(error)); it works, but does not shrink, until a later start succeeds"
            )
        }
        return try database.integer("PRAGMA auto_vacuum") == 2
    }

    /// Schema 2: each session's position, version and last use in `sessions`; its document in
    /// `parts`; changes since the last fold in `journal`.
    static let createTables = """
        CREATE TABLE sessions(
            id TEXT PRIMARY KEY, version INTEGER NOT NULL, position BLOB NOT NULL, last_used REAL NOT NULL);
        CREATE TABLE parts(
            session TEXT NOT NULL, key TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY(session, key));
        CREATE TABLE journal(
            seq INTEGER PRIMARY KEY, id TEXT NOT NULL, kind INTEGER NOT NULL, version INTEGER NOT NULL,
            part TEXT, body BLOB, position BLOB, last_used REAL NOT NULL);
        """

    /// Sets the schema version and commits the transaction under way (rolled back on failure).
    private static func commit(_ database: SQLiteDatabase, schema: Int) throws {
        do {
            try database.execute("PRAGMA user_version=\(schema); COMMIT;")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Nil when `PRAGMA quick_check` finds the file whole; else its first findings.
    static func quickCheck(_ database: SQLiteDatabase) throws -> String? {
        let check = try database.prepare("PRAGMA quick_check(5)")
        var findings: [String] = []
        while try check.step() { findings.append(check.string(0)) }
        // A finding may span lines ("*** in database main ***\n…"): one log line each.
        let lines = findings.flatMap { $0.split(whereSeparator: \.isNewline) }.map(String.init)
        return findings == ["ok"] ? nil : lines.joined(separator: "; ")
    }

    /// Schema 1 to 2, in one transaction: every session's whole document (the table's, with the
    /// journal laid over it, as schema 1 read them) is read, checked and written again as parts.
    private static func migrateFromWholeDocuments(_ database: SQLiteDatabase, path: String) throws {
        try database.execute("BEGIN IMMEDIATE")
        do {
            var documents: [String: (document: [UInt8], position: [UInt8], version: Int, lastUsed: Double)] = [:]
            let rows = try database.prepare("SELECT id, version, document, position, last_used FROM sessions")
            while try rows.step() {
                documents[rows.string(0)] = (rows.bytes(2) ?? [], rows.bytes(3) ?? [], rows.int(1), rows.double(4))
            }
            // Schema 1's journal kinds: 0 a whole state, 1 a position, 2 a deletion, 3 a use.
            let records = try database.prepare(
                "SELECT kind, id, version, document, position, last_used FROM journal ORDER BY seq")
            while try records.step() {
                let id = records.string(1)
                let lastUsed = records.double(5)
                switch records.int(0) {
                case 0:
                    documents[id] = (records.bytes(3) ?? [], records.bytes(4) ?? [], records.int(2), lastUsed)
                case 1:
                    guard var stored = documents[id] else { continue }
                    stored.position = records.bytes(4) ?? []
                    stored.version = records.int(2)
                    stored.lastUsed = max(stored.lastUsed, lastUsed)
                    documents[id] = stored
                case 2: documents[id] = nil
                case 3:
                    guard var stored = documents[id] else { continue }
                    stored.lastUsed = max(stored.lastUsed, lastUsed)
                    documents[id] = stored
                default:
                    throw StoreOpenError(.corrupt, "\(path): a journal record has the unknown kind \(records.int(0))")
                }
            }
            try database.execute(
                "ALTER TABLE sessions RENAME TO sessions_1; ALTER TABLE journal RENAME TO journal_1; \(createTables)")
            let session = try database.prepare(
                "INSERT INTO sessions(id, version, position, last_used) VALUES (?1, ?2, ?3, ?4)")
            let part = try database.prepare("INSERT INTO parts(session, key, body) VALUES (?1, ?2, ?3)")
            for (id, stored) in documents {
                let pager: Pager
                do {
                    pager = try StoredRecord.pager(
                        document: stored.document, position: stored.position, version: stored.version)
                } catch {
                    throw StoreOpenError(.corrupt, "\(path): session \(id) is damaged: \(error)")
                }
                session.bind(1, id)
                session.bind(2, stored.version)
                session.bind(3, stored.position)
                session.bind(4, stored.lastUsed)
                try session.run()
                for write in StoredParts.all(of: pager) {
                    part.bind(1, id)
                    part.bind(2, write.key)
                    part.bind(3, write.body)
                    try part.run()
                }
            }
            try database.execute("DROP TABLE sessions_1; DROP TABLE journal_1;")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        try commit(database, schema: 2)
    }
}
