import Foundation
import Locking
import PagerModel
public import PagerSessions
import Synchronization

/// Sessions in a PostgreSQL database that several pagerd processes share, one row each, written by
/// one thread of its own with group commit: everything queued goes to the server as one
/// transaction, sent in one pipeline.
///
/// Threads: `submit`, `load` and `expire` (called under a shard's lock, or from a request) only
/// append to a ``WriterQueue``. The writer thread takes what is queued (at most
/// ``maxBatch`` items), writes the changes in one transaction, reads the rows that loads and lost
/// races ask for in one query, and then answers each item, in order. A listener thread holds a
/// second connection, `LISTEN`ing for the changes every process announces, and hands them to the
/// handler given to ``listen(onChange:onResynchronize:)``. Each connection is used by one thread.
///
/// Every save names the version it replaces (`WHERE version = new − 1`), so a stale copy never
/// overwrites a newer row: such a save fails alone, as a conflict carrying the row as it is.
/// Each kept change is announced in the same transaction (`pg_notify`, delivered at commit):
/// the new position, and for a save the whole document: in one payload when it fits
/// PostgreSQL's 8,000 bytes, else in pieces that listeners put back together, so that each
/// version reaches every instance whole. When a transaction fails (the
/// server went away, a disk is full), the writer fails it and everything queued behind it,
/// refuses submissions for ``Options/retryDelay``, and reconnects before its next transaction.
public final class PostgresSessionStore: SessionStore, @unchecked Sendable {
    // @unchecked: the queue and `listenerRunning` guard their own state; `listenerConnected` is
    // atomic; the connection is used by `init` on the opening thread, then only by the writer thread
    // `init` starts last.

    /// How the store is set up.
    public struct Options: Sendable {
        /// `postgres://user@host:port/database`, without a password.
        public var url: String
        /// The password, given to libpq apart from the URL; never logged.
        public var password: String?
        /// The most sessions the database holds, whichever process made them.
        public var maxSessions: Int
        /// The most session data (``Pager/storedBytes``) they hold together.
        public var memoryBudgetBytes: Int
        /// How long submissions are refused after a failed commit, in seconds.
        public var retryDelay: Double
        /// Where the store reports failures it handled (a failed commit).
        public var log: @Sendable (String) -> Void
        /// Where it reports what an operator should know (`synchronous_commit` off, a reconnection).
        public var warn: @Sendable (String) -> Void

        /// Creates options.
        public init(
            url: String, password: String? = nil, maxSessions: Int = 100_000, memoryBudgetBytes: Int = 1 << 40,
            retryDelay: Double = 0.25,
            log: @escaping @Sendable (String) -> Void = { _ in }, warn: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.url = url
            self.password = password
            self.maxSessions = maxSessions
            self.memoryBudgetBytes = memoryBudgetBytes
            self.retryDelay = retryDelay
            self.log = log
            self.warn = warn
        }
    }

    /// The schema this pagerd writes; a database with a newer one is refused. 1: the sessions;
    /// 2: each session's data size (``Pager/storedBytes``), and one row counting the sessions and
    /// their data, kept with every change, for the limits of the whole cluster.
    static let schemaVersion = 2
    /// The advisory lock key under which a starting pagerd creates or migrates the schema: "PGRD".
    static let lockKey = 0x5047_5244
    /// The most items one turn of the writer takes.
    static let maxBatch = 512
    /// The channel changes are announced on.
    static let channel = "pagerd"
    /// The largest announcement PostgreSQL takes is 8,000 bytes; this leaves room for the header.
    static let maxPayload = 7_900

    /// The announcements of a saved state whose position and document are `body`: one,
    /// `header` and the body, when it fits in ``maxPayload``; else the body cut into pieces
    /// (never inside a UTF-8 sequence), each announced under `pieceHeader(i, n)`, piece i of n.
    /// A transaction's announcements reach every listener together and in order, so a listener
    /// puts the pieces back together (``PieceAssembler``) and every version arrives whole,
    /// however large, even while other instances write the same session.
    static func announcements(header: String, body: [UInt8], pieceHeader: (Int, Int) -> String) -> [String] {
        if header.utf8.count + 1 + body.count <= maxPayload {
            return [header + "\n" + String(decoding: body, as: UTF8.self)]
        }
        let room = maxPayload - pieceHeader(Int.max, Int.max).utf8.count - 1
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < body.count {
            var end = min(start + room, body.count)
            // Back to the start of a UTF-8 sequence (a byte that is not 10xxxxxx).
            while end < body.count, body[end] & 0xC0 == 0x80 { end -= 1 }
            pieces.append(body[start..<end])
            start = end
        }
        return pieces.enumerated().map { index, piece in
            pieceHeader(index, pieces.count) + "\n" + String(decoding: piece, as: UTF8.self)
        }
    }

    /// `texts` as a PostgreSQL array literal of text (`{"…","…"}`), for a `$n::text[]` parameter.
    /// Written as UTF-8 bytes: a quote or a backslash is never part of a multi-byte sequence.
    static func textArray(_ texts: [String]) -> String {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var literal: [UInt8] = [UInt8(ascii: "{")]
        literal.reserveCapacity(texts.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, text) in texts.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            literal.append(quote)
            for byte in text.utf8 {
                if byte == quote || byte == backslash { literal.append(backslash) }
                literal.append(byte)
            }
            literal.append(quote)
        }
        literal.append(UInt8(ascii: "}"))
        return String(decoding: literal, as: UTF8.self)
    }

    let options: Options
    private let connection: PostgresConnection
    /// Where the server is, for messages: the URL without its query.
    let place: String
    /// This process among those sharing the database, so that it skips its own announcements.
    let instance = String(UUID().uuidString.prefix(8))

    public var isShared: Bool { true }

    /// One thing for the writer to do.
    enum Work {
        case change(SessionChange, ChangeAnnouncement?, (@Sendable (StoreError?) -> Void)?)
        case load(SessionID, @Sendable (Result<StoredSession?, StoreError>) -> Void)
        case expire(Double, @Sendable () -> Void)
    }

    let queue = WriterQueue<Work>()
    /// Whether the listener thread runs; ``close()`` waits for it to end.
    let listenerRunning = Locked(false)
    /// Whether the listener holds a connection (or has not been started): set by the listener
    /// thread, read by anyone.
    let listenerConnected = Atomic<Bool>(true)

    public var statistics: StoreStatistics { queue.statistics }

    /// False while changes are refused after a failed commit, or while the listening connection
    /// is lost (the server is unreachable, or the notifications are): until it is made again.
    public var isAcceptingChanges: Bool {
        listenerConnected.load(ordering: .relaxed) && queue.isAcceptingChanges
    }

    /// Connects, and creates or migrates the schema. The writer thread starts at once and waits
    /// for the first submission; the listener starts with ``listen(onChange:onResynchronize:)``.
    public init(options: Options) throws(StoreOpenError) {
        self.options = options
        place = String(options.url.prefix { $0 != "?" })
        do {
            connection = try PostgresConnection(url: options.url, password: options.password)
        } catch {
            throw StoreOpenError(.unusable, "\(place): \(error)")
        }
        do {
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

    // MARK: - SessionStore

    /// Nothing: the database is shared, so sessions are loaded when a request names them
    /// (``load(_:completion:)``), not all at start.
    public func recover() throws(StoreError) -> [StoredSession] { [] }

    public func submit(
        _ change: SessionChange, announcing announcement: ChangeAnnouncement?,
        completion: (@Sendable (StoreError?) -> Void)?
    ) throws(StoreError) {
        try queue.add(.change(change, announcement, completion))
    }

    public func load(_ id: SessionID, completion: @escaping @Sendable (Result<StoredSession?, StoreError>) -> Void) {
        if !queue.addRead(.load(id, completion)) { completion(.failure(StoreError("the store is closed"))) }
    }

    public func expire(before cutoff: Double, completion: @escaping @Sendable () -> Void) {
        if !queue.addRead(.expire(cutoff, completion)) { completion() }
    }

    /// Commits what is queued, stops the writer and listener threads and closes the
    /// connections. Submissions after it are refused.
    public func close() {
        queue.close()
        listenerRunning.wait(until: { !$0 }, then: { _ in })
        connection.close()
    }

    // MARK: - The writer thread

    private func writeLoop() {
        while let batch = queue.next(limit: Self.maxBatch) { write(batch) }
        queue.end()
    }

    /// One turn: the changes in one transaction, then the rows that loads and lost races ask for
    /// in one query, then each answer in order; an expiry runs on its own.
    private func write(_ batch: [Work]) {
        var changes:
            [(change: SessionChange, announcement: ChangeAnnouncement?, completion: (@Sendable (StoreError?) -> Void)?)] =
                []
        var loads: [(id: SessionID, completion: @Sendable (Result<StoredSession?, StoreError>) -> Void)] = []
        for work in batch {
            switch work {
            case .change(let change, let announcement, let completion):
                changes.append((change, announcement, completion))
            case .load(let id, let completion): loads.append((id, completion))
            case .expire(let cutoff, let completion):
                expire(before: cutoff)
                completion()
            }
        }
        // Sessions in the order of their ids (each session's changes in the order they came), the
        // count first when a creation or deletion moves it: every transaction takes its locks in
        // that one order.
        let order = changes.indices.sorted {
            let (a, b) = (changes[$0].change.id.rawValue, changes[$1].change.id.rawValue)
            return a == b ? $0 < $1 : a < b
        }
        let movesCounts = changes.contains { change in
            switch change.change {
            case .save(_, let pager, _, let positionOnly): pager.version == 1 || !positionOnly
            case .delete: true
            case .touch: false
            }
        }
        var counts = [Int](repeating: 0, count: changes.count)
        do {
            if !connection.isOpen { try reconnect() }
            if !changes.isEmpty {
                var statements = order.map { statement(for: changes[$0].change, changes[$0].announcement) }
                if movesCounts { statements.insert(.init(name: "count", parameters: []), at: 0) }
                let answered = try connection.transaction(statements).dropFirst(movesCounts ? 1 : 0)
                for (position, count) in zip(order, answered) { counts[position] = count }
            }
        } catch {
            fail(batch, error: error)
            return
        }
        if !changes.isEmpty {
            queue.recordCommit(changes: changes.count)
        }
        // The sessions whose save lost (their row is at another version, or gone), and those
        // asked for, read back together.
        var lost = Set<Int>()
        for (position, (change, count)) in zip(changes, counts).enumerated() where count == 0 {
            switch change.change {
            case .save(_, let pager, _, _) where pager.version > 1: lost.insert(position)
            case .delete(_, let version?) where version > 0: lost.insert(position)
            default: break
            }
        }
        let wanted = Set(lost.map { changes[$0].change.id } + loads.map(\.id))
        var rows: [SessionID: StoredSession] = [:]
        var readFailure: StoreError?
        if !wanted.isEmpty {
            do { rows = try read(wanted) } catch {
                readFailure = StoreError("\(place): cannot read sessions: \(error)")
            }
        }
        let refusedCreation = changes.indices.contains { position in
            guard case .save(_, let pager, _, _) = changes[position].change else { return false }
            return pager.version == 1 && counts[position] == 0
        }
        let sessionsCounted = refusedCreation ? (try? countedSessions()) ?? 0 : 0
        let overBudget = StoreError.overBudget(
            "\(place) holds its budget of \(options.memoryBudgetBytes) bytes of session data",
            limit: options.memoryBudgetBytes)
        for (position, (change, _, completion)) in changes.enumerated() {
            if case .save(_, let pager, _, _) = change, pager.version == 1, counts[position] == 0 {
                completion?(
                    sessionsCounted >= options.maxSessions
                        ? .full(
                            "\(place) holds its limit of \(options.maxSessions) sessions", limit: options.maxSessions)
                        : overBudget)
                continue
            }
            if lost.contains(position), case .delete(let id, let version?) = change {
                // Gone already is gone; at another version, the delete lost to that change.
                if readFailure == nil, rows[id] == nil {
                    completion?(nil)
                } else {
                    completion?(
                        readFailure
                            ?? .conflict(
                                "\(place): session \(id) is not at version \(version) in the database",
                                current: rows[id]?.pager))
                }
                continue
            }
            guard lost.contains(position), case .save(let id, let pager, _, _) = change else {
                completion?(nil)
                continue
            }
            // The row is still at the version the save replaces: the budget refused it.
            if readFailure == nil, rows[id]?.pager.version == pager.version - 1 {
                completion?(overBudget)
                continue
            }
            completion?(
                readFailure
                    ?? .conflict(
                        "\(place): session \(id) is not at version \(pager.version - 1) in the database",
                        current: rows[id]?.pager))
        }
        for (id, completion) in loads {
            if let readFailure { completion(.failure(readFailure)) } else { completion(.success(rows[id])) }
        }
    }

    /// The number of sessions the counts hold.
    private func countedSessions() throws -> Int {
        var sessions = 0
        try connection.query("SELECT sessions FROM pagerd_counters") { row throws(PostgresError) in
            sessions = try row.int(0)
        }
        return sessions
    }

    /// The stored sessions among `ids`.
    private func read(_ ids: Set<SessionID>) throws -> [SessionID: StoredSession] {
        var rows: [SessionID: StoredSession] = [:]
        let list = "{" + ids.map(\.rawValue).joined(separator: ",") + "}"
        try connection.queryPrepared("rows", [.text(list)]) { row throws(PostgresError) in
            let stored = try Self.session(from: row)
            rows[stored.id] = stored
        }
        return rows
    }

    /// A row of `pagerd_sessions` (id, version, document, position, last_used) as a session.
    static func session(from row: PostgresConnection.Row) throws(PostgresError) -> StoredSession {
        let id = try row.text(0)
        let sessionID = SessionID(id)
        guard sessionID.isWellFormed else { throw PostgresError("'\(id)' is not a session id") }
        do {
            let pager = try StoredRecord.pager(
                document: try row.data(2), position: try row.data(3), version: try row.int(1))
            return StoredSession(id: sessionID, pager: pager, lastUsed: try row.double(4))
        } catch {
            throw PostgresError("session \(id) is damaged: \(error)")
        }
    }

    /// Deletes the sessions last used before `cutoff`, announcing each deletion.
    private func expire(before cutoff: Double) {
        do {
            if !connection.isOpen { try reconnect() }
            _ = try connection.transaction([
                .init(name: "count", parameters: []),
                .init(name: "expire", parameters: [.double(cutoff), .text(instance)]),
            ])
        } catch {
            options.log("\(place): expiring idle sessions failed and will be tried again: \(error)")
        }
    }

    /// Connects again after the connection broke: the prepared statements went with it.
    private func reconnect() throws {
        guard connection.reset() else { throw PostgresError("cannot reconnect to \(place)") }
        try Self.prepareStatements(connection)
        options.warn("\(place): reconnected")
    }

    /// Fails `batch` and everything queued behind it, then refuses submissions for the retry
    /// delay: nothing built on a failed change is ever committed.
    private func fail(_ batch: [Work], error: any Error) {
        queue.failAll(
            batch, reason: "\(place): a commit failed: \(error)", pause: options.retryDelay, log: options.log
        ) { work, failure in
            switch work {
            case .change(_, _, let completion): completion?(failure)
            case .load(_, let completion): completion(.failure(failure))
            case .expire(_, let completion): completion()
            }
        }
    }

    /// The statement that keeps `change` and announces it: a creation (version 1) is inserted
    /// (nobody else holds it yet, so it is not announced); a later state replaces the version
    /// before it, whole or, when only the position changed, just that.
    private func statement(
        for change: SessionChange, _ announcement: ChangeAnnouncement?
    ) -> PostgresConnection.Statement {
        let id = change.id.rawValue
        let kind = announcement?.kind ?? .state, cause = announcement?.cause ?? .request
        switch change {
        case .save(_, let pager, let lastUsed, let positionOnly):
            let position = StoredRecord.position(of: pager)
            if pager.version == 1 {
                return .init(
                    name: "insert",
                    parameters: [
                        .text(id), .int(1), .bytes(StoredRecord.document(of: pager)), .bytes(position),
                        .double(lastUsed), .int(options.maxSessions), .int(pager.storedBytes),
                        .int(options.memoryBudgetBytes),
                    ])
            }
            let header =
                "\(instance) \(positionOnly ? "M" : "S") \(id) \(pager.version) \(kind.rawValue) \(cause.rawValue)"
            if positionOnly {
                let payload = header + "\n" + String(decoding: position, as: UTF8.self)
                return .init(
                    name: "move",
                    parameters: [.text(id), .int(pager.version), .bytes(position), .double(lastUsed), .text(payload)])
            }
            let document = StoredRecord.document(of: pager)
            let payloads = Self.announcements(
                header: header, body: position + [UInt8(ascii: "\n")] + document,
                pieceHeader: { "\(instance) C \(id) \(pager.version) \(kind.rawValue) \(cause.rawValue) \($0) \($1)" })
            return .init(
                name: "save",
                parameters: [
                    .text(id), .int(pager.version), .bytes(document), .bytes(position), .double(lastUsed),
                    .text(Self.textArray(payloads)), .int(pager.storedBytes), .int(options.memoryBudgetBytes),
                ])
        case .delete(_, let version):
            return .init(
                name: "delete",
                parameters: [.text(id), .text("\(instance) D \(id) 0 deleted \(cause.rawValue)"), .int(version ?? -1)])
        case .touch(_, let lastUsed):
            return .init(name: "touch", parameters: [.text(id), .double(lastUsed)])
        }
    }
}
