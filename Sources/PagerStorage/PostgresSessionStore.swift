import Foundation
import PagerModel
public import PagerSessions

/// Sessions in a PostgreSQL database, one row each, written by one thread of its own with group
/// commit: everything queued goes to the server as one transaction, sent in one pipeline.
///
/// Threads: `submit` (called by the engine under a shard's lock) only appends to a queue under
/// `queueLock`. The writer thread takes everything queued (at most ``maxBatch`` changes), writes
/// it in one transaction and then reports each change, in order, by calling its completion.
/// The connection is used by one thread at a time: ``recover()`` runs before the first
/// submission, and everything after on the writer thread.
///
/// Every save names the version it replaces (`WHERE version = new − 1`), so a row is never
/// overwritten by a stale copy; a save whose row moved on (or went) fails alone. One pagerd at a
/// time uses a database: the store holds a session-level advisory lock for its whole life, and a
/// second one is refused at start. When a transaction fails (the server went away, a disk is
/// full), the writer fails it and everything queued behind it, refuses submissions for
/// ``Options/retryDelay``, reconnects if the connection broke (taking the lock again), and goes
/// on with the next submission.
public final class PostgresSessionStore: SessionStore, @unchecked Sendable {
    // @unchecked: the queue state is guarded by `queueLock`; the connection belongs to the writer
    // thread once recovery is done.

    /// How the store is set up.
    public struct Options: Sendable {
        /// `postgres://user@host:port/database`, without a password.
        public var url: String
        /// The password, given to libpq apart from the URL; never logged.
        public var password: String?
        /// How long submissions are refused after a failed commit, in seconds.
        public var retryDelay: Double
        /// Where the store reports failures it handled (a failed commit).
        public var log: @Sendable (String) -> Void
        /// Where it reports what an operator should know (`synchronous_commit` off, a reconnection).
        public var warn: @Sendable (String) -> Void

        /// Creates options.
        public init(
            url: String, password: String? = nil, retryDelay: Double = 0.25,
            log: @escaping @Sendable (String) -> Void = { _ in }, warn: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.url = url
            self.password = password
            self.retryDelay = retryDelay
            self.log = log
            self.warn = warn
        }
    }

    /// The schema this pagerd writes; a database with a newer one is refused.
    static let schemaVersion = 1
    /// The advisory lock key pagerd holds while it uses a database: "PGRD".
    static let lockKey = 0x5047_5244
    /// The most changes one transaction carries.
    static let maxBatch = 512

    private let options: Options
    private let connection: PostgresConnection
    /// Where the server is, for messages: the URL without its query.
    private let place: String

    private struct Pending {
        var change: SessionChange
        var completion: (@Sendable (StoreError?) -> Void)?
    }

    private let queueLock = NSCondition()
    // Guarded by `queueLock`.
    private var queue: [Pending] = []
    private var refusing: String?
    private var stopping = false
    private var stopped = false
    private var counts = StoreStatistics()

    public var statistics: StoreStatistics { queueLock.withLock { counts } }

    /// Connects, takes the database's advisory lock, and creates or migrates the schema. The
    /// writer thread starts at once and waits for the first submission.
    public init(options: Options) throws(StoreOpenError) {
        self.options = options
        place = String(options.url.prefix { $0 != "?" })
        do {
            connection = try PostgresConnection(url: options.url, password: options.password)
        } catch {
            throw StoreOpenError(.unusable, "\(place): \(error)")
        }
        do {
            try Self.lock(connection, place: place)
            try Self.migrate(connection, place: place)
            try Self.prepareStatements(connection)
            let commit = try connection.setting("synchronous_commit")
            if commit == "off" {
                options.warn(
                    "\(place): synchronous_commit is off, so an acknowledged change can be lost if PostgreSQL crashes")
            }
        } catch let error as StoreOpenError {
            throw error
        } catch {
            throw StoreOpenError(.unusable, "\(place): \(error)")
        }
        let thread = Thread { self.writeLoop() }
        thread.name = "pagerd-postgres"
        thread.start()
    }

    /// Takes the advisory lock that keeps a second pagerd off the database.
    private static func lock(_ connection: PostgresConnection, place: String) throws {
        var taken = false
        try connection.query("SELECT pg_try_advisory_lock($1::bigint)", [.int(lockKey)]) { row throws(PostgresError) in
            taken = try row.bool(0)
        }
        guard taken else {
            throw StoreOpenError(.inUse, "\(place) is in use by another pagerd process (advisory lock \(lockKey))")
        }
    }

    /// Creates the tables on first use and migrates an older schema forward, under a
    /// transaction-level advisory lock so that two processes starting together do it once.
    private static func migrate(_ connection: PostgresConnection, place: String) throws {
        try connection.execute(
            """
            BEGIN;
            SELECT pg_advisory_xact_lock(\(lockKey + 1));
            CREATE TABLE IF NOT EXISTS pagerd_schema(version integer NOT NULL);
            """)
        do {
            var version = 0
            try connection.query("SELECT version::bigint FROM pagerd_schema") { row throws(PostgresError) in
                version = try row.int(0)
            }
            guard version <= schemaVersion else {
                throw StoreOpenError(
                    .corrupt, "\(place) has pagerd schema \(version), newer than this pagerd's (\(schemaVersion))")
            }
            if version < 1 {
                try connection.execute(
                    """
                    CREATE TABLE pagerd_sessions(
                        id text PRIMARY KEY, version bigint NOT NULL, document bytea NOT NULL,
                        position bytea NOT NULL, last_used double precision NOT NULL);
                    INSERT INTO pagerd_schema(version) VALUES (1);
                    """)
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The statements a transaction is made of, prepared once per connection.
    private static func prepareStatements(_ connection: PostgresConnection) throws(PostgresError) {
        try connection.prepare(
            "insert",
            "INSERT INTO pagerd_sessions(id, version, document, position, last_used) VALUES ($1, $2, $3, $4, $5)")
        try connection.prepare(
            "save",
            """
            UPDATE pagerd_sessions SET version = $2, document = $3, position = $4,
                last_used = greatest(last_used, $5) WHERE id = $1 AND version = $2 - 1
            """)
        try connection.prepare(
            "move",
            """
            UPDATE pagerd_sessions SET version = $2, position = $3, last_used = greatest(last_used, $4)
                WHERE id = $1 AND version = $2 - 1
            """)
        try connection.prepare("delete", "DELETE FROM pagerd_sessions WHERE id = $1")
        try connection.prepare(
            "touch", "UPDATE pagerd_sessions SET last_used = greatest(last_used, $2) WHERE id = $1")
    }

    // MARK: - SessionStore

    public func recover() throws(StoreError) -> [StoredSession] {
        var sessions: [StoredSession] = []
        do {
            try connection.query("SELECT id, version, document, position, last_used FROM pagerd_sessions") {
                row throws(PostgresError) in
                let id = try row.text(0)
                let pager: Pager
                do {
                    pager = try StoredRecord.pager(
                        document: try row.data(2), position: try row.data(3), version: try row.int(1))
                } catch let error as PostgresError {
                    throw error
                } catch {
                    throw PostgresError("session \(id) is damaged: \(error)")
                }
                let sessionID = SessionID(id)
                guard sessionID.isWellFormed else { throw PostgresError("'\(id)' is not a session id") }
                sessions.append(StoredSession(id: sessionID, pager: pager, lastUsed: try row.double(4)))
            }
        } catch {
            throw StoreError("\(place): \(error)")
        }
        return sessions
    }

    public func submit(_ change: SessionChange, completion: (@Sendable (StoreError?) -> Void)?) throws(StoreError) {
        queueLock.lock()
        defer { queueLock.unlock() }
        if stopping { throw StoreError("the store is closed") }
        if let refusing { throw StoreError(refusing) }
        queue.append(Pending(change: change, completion: completion))
        if queue.count == 1 { queueLock.signal() }
    }

    /// Commits what is queued, stops the writer thread and closes the connection (which releases
    /// the advisory lock). Submissions after it are refused.
    public func close() {
        queueLock.withLock {
            stopping = true
            queueLock.signal()
        }
        queueLock.withLock {
            while !stopped { queueLock.wait() }
        }
        connection.close()
    }

    // MARK: - The writer thread

    private func writeLoop() {
        while true {
            queueLock.lock()
            while queue.isEmpty && !stopping { queueLock.wait() }
            let batch = Array(queue.prefix(Self.maxBatch))
            queue.removeFirst(batch.count)
            let finishing = stopping && batch.isEmpty
            queueLock.unlock()
            if finishing { break }
            write(batch)
        }
        queueLock.withLock {
            stopped = true
            queueLock.broadcast()
        }
    }

    /// One transaction for `batch`; then every completion, in order. A save whose row is not at
    /// the version it replaces fails alone; any other failure fails the batch.
    private func write(_ batch: [Pending]) {
        let statements = batch.map { Self.statement(for: $0.change) }
        let counts: [Int]
        do {
            if !connection.isOpen { try reconnect() }
            counts = try connection.transaction(statements)
        } catch {
            fail(batch, error: error)
            return
        }
        queueLock.withLock {
            self.counts.commits += 1
            self.counts.changes += batch.count
        }
        for (pending, count) in zip(batch, counts) {
            switch pending.change {
            case .save(let id, let pager, _, _) where count == 0:
                pending.completion?(
                    StoreError(
                        "\(place): session \(id) is not at version \(pager.version - 1) in the database; its change was not kept"
                    ))
            default:
                pending.completion?(nil)
            }
        }
    }

    /// Connects again after the connection broke: the lock and the prepared statements went
    /// with it.
    private func reconnect() throws {
        guard connection.reset() else { throw PostgresError("cannot reconnect to \(place)") }
        try Self.lock(connection, place: place)
        try Self.prepareStatements(connection)
        options.warn("\(place): reconnected")
    }

    /// Fails `batch` and everything queued behind it, then refuses submissions for the retry
    /// delay: nothing built on a failed change is ever committed.
    private func fail(_ batch: [Pending], error: any Error) {
        let reason = "\(place): a commit failed: \(error)"
        options.log(reason)
        let behind: [Pending] = queueLock.withLock {
            counts.failedCommits += 1
            refusing = reason
            defer { queue.removeAll() }
            return queue
        }
        let failure = StoreError(reason)
        for pending in batch + behind { pending.completion?(failure) }
        Thread.sleep(forTimeInterval: options.retryDelay)
        queueLock.withLock { refusing = nil }
    }

    /// The statement that keeps `change`: a creation (version 1) is inserted; a later state
    /// replaces the version before it, whole or, when only the position changed, just that.
    private static func statement(for change: SessionChange) -> PostgresConnection.Statement {
        let id = change.id.rawValue
        switch change {
        case .save(_, let pager, let lastUsed, let positionOnly):
            let position = PostgresConnection.Value.bytes(StoredRecord.position(of: pager))
            if pager.version == 1 {
                return .init(
                    name: "insert",
                    parameters: [
                        .text(id), .int(1), .bytes(StoredRecord.document(of: pager)), position, .double(lastUsed),
                    ])
            }
            if positionOnly {
                return .init(name: "move", parameters: [.text(id), .int(pager.version), position, .double(lastUsed)])
            }
            return .init(
                name: "save",
                parameters: [
                    .text(id), .int(pager.version), .bytes(StoredRecord.document(of: pager)), position,
                    .double(lastUsed),
                ])
        case .delete:
            return .init(name: "delete", parameters: [.text(id)])
        case .touch(_, let lastUsed):
            return .init(name: "touch", parameters: [.text(id), .double(lastUsed)])
        }
    }
}
