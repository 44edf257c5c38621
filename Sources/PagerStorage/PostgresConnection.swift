private import CLibPQ
import Foundation

/// One connection to PostgreSQL through libpq, the only file that touches libpq. Blocking calls,
/// made by one thread at a time (the thread that opens the store, until the store's writer thread
/// it starts takes the connection over).
///
/// Parameters go in the binary format where that saves work (`bytea`), text otherwise; results
/// are read in the binary format, typed by the column types the queries declare (`bigint`,
/// `double precision`, `text`, `bytea`).
final class PostgresConnection {
    /// A parameter value.
    enum Value {
        case text(String)
        case bytes([UInt8])
        case int(Int)
        case double(Double)
    }

    /// One statement of a transaction: a prepared statement's name and its parameters.
    struct Statement {
        var name: String
        var parameters: [Value]
    }

    private let handle: OpaquePointer
    private var closed = false

    /// Connects to `url` (a `postgres://` URI; its query may carry `sslmode` and other libpq
    /// parameters) with `password`, which is given to libpq apart from the URI so that it never
    /// appears in one.
    init(url: String, password: String?) throws(PostgresError) {
        // Notices (such as "already exists, skipping") would go to standard error: not wanted.
        var keywords = ["dbname", "application_name", "connect_timeout", "options"]
        var values = [url, "pagerd", "10", "-c client_min_messages=warning"]
        if let password {
            keywords.append("password")
            values.append(password)
        }
        let made = Self.withCStrings(keywords) { keys in
            Self.withCStrings(values) { vals in PQconnectdbParams(keys, vals, 1) }
        }
        guard let made else { throw PostgresError("libpq could not allocate a connection") }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(made))
            PQfinish(made)
            throw PostgresError("cannot connect: \(message)")
        }
        handle = made
    }

    deinit { close() }

    /// Ends the connection (and with it every session-level lock it holds); later calls do nothing.
    func close() {
        guard !closed else { return }
        closed = true
        PQfinish(handle)
    }

    /// Whether the connection is usable (it was not broken by the server or the network).
    var isOpen: Bool { !closed && PQstatus(handle) == CONNECTION_OK }

    /// Reconnects with the same parameters; true when it worked.
    func reset() -> Bool {
        PQreset(handle)
        return isOpen
    }

    /// The server's value of a run-time setting (`SHOW name`).
    func setting(_ name: String) throws(PostgresError) -> String {
        var value = ""
        try query("SELECT current_setting($1)", [.text(name)]) { row throws(PostgresError) in value = try row.text(0) }
        return value
    }

    /// Runs SQL that returns no rows (several statements may be separated by semicolons).
    func execute(_ sql: String) throws(PostgresError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Prepares `sql` under `name` for ``transaction(_:)``.
    func prepare(_ name: String, _ sql: String) throws(PostgresError) {
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs `sql` with `parameters`, calling `row` for each row of the result.
    func query(
        _ sql: String, _ parameters: [Value] = [], row: (Row) throws(PostgresError) -> Void
    ) throws(PostgresError) {
        let result = Self.withParameters(parameters) { count, types, values, lengths, formats in
            PQexecParams(handle, sql, count, types, values, lengths, formats, 1)
        }
        defer { PQclear(result) }
        try check(result)
        for index in 0..<PQntuples(result) { try row(Row(result: result, index: index)) }
    }

    /// Runs the prepared statement `name` with `parameters`, calling `row` for each row.
    func queryPrepared(
        _ name: String, _ parameters: [Value], row: (Row) throws(PostgresError) -> Void
    ) throws(PostgresError) {
        let result = Self.withParameters(parameters) { count, _, values, lengths, formats in
            PQexecPrepared(handle, name, count, values, lengths, formats, 1)
        }
        defer { PQclear(result) }
        try check(result)
        for index in 0..<PQntuples(result) { try row(Row(result: result, index: index)) }
    }

    /// Runs `statements` as one transaction, sent together in one pipeline (one round trip for
    /// all of them), and answers how many rows each changed. When any statement fails, nothing
    /// is kept and the first failure is thrown.
    func transaction(_ statements: [Statement]) throws(PostgresError) -> [Int] {
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError("cannot enter pipeline mode: \(Self.text(PQerrorMessage(handle)))")
        }
        var failure: PostgresError?
        var counts: [Int] = []
        counts.reserveCapacity(statements.count)
        var sent = PQsendQueryParams(handle, "BEGIN", 0, nil, nil, nil, nil, 0) == 1
        for statement in statements where sent {
            sent =
                Self.withParameters(statement.parameters) { count, types, values, lengths, formats in
                    PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, 1)
                } == 1
        }
        if sent { sent = PQsendQueryParams(handle, "COMMIT", 0, nil, nil, nil, nil, 0) == 1 }
        if sent { sent = PQpipelineSync(handle) == 1 }
        guard sent else {
            // The connection is broken; it is reset before its next use.
            throw PostgresError("cannot send a transaction: \(Self.text(PQerrorMessage(handle)))")
        }
        // One result per query (each followed by a null), then the synchronization point.
        for position in 0..<(statements.count + 2) {
            guard let result = PQgetResult(handle) else {
                throw PostgresError("the connection ended in a transaction: \(Self.text(PQerrorMessage(handle)))")
            }
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                if position > 0, position <= statements.count {
                    counts.append(Int(Self.text(PQcmdTuples(result))) ?? 0)
                }
            case PGRES_PIPELINE_ABORTED:
                break
            default:
                if failure == nil { failure = PostgresError(result: result, handle: handle) }
            }
            PQclear(result)
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        if let sync = PQgetResult(handle) { PQclear(sync) }
        PQexitPipelineMode(handle)
        if let failure {
            if PQtransactionStatus(handle) == PQTRANS_INERROR { try? execute("ROLLBACK") }
            throw failure
        }
        return counts
    }

    /// Waits up to `timeout` seconds for notifications on the channels this connection listens
    /// to (`LISTEN`), and answers their payloads in the order they were sent; an empty answer
    /// when none came. Throws when the connection is lost.
    func notifications(timeout: Double) throws(PostgresError) -> [String] {
        var payloads = drainNotifications()
        guard payloads.isEmpty else { return payloads }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { throw PostgresError("the connection has no socket") }
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        guard ready > 0 else { return [] }
        guard PQconsumeInput(handle) == 1 else {
            throw PostgresError("the listening connection was lost: \(Self.text(PQerrorMessage(handle)))")
        }
        payloads = drainNotifications()
        return payloads
    }

    private func drainNotifications() -> [String] {
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }

    /// One row of a result, read by column position.
    struct Row {
        fileprivate let result: OpaquePointer?
        fileprivate let index: Int32

        private func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
            guard PQgetisnull(result, index, column) == 0, let value = PQgetvalue(result, index, column) else {
                return nil
            }
            return UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, index, column)))
        }

        /// A `text` column.
        func text(_ column: Int32) throws(PostgresError) -> String {
            guard let value = bytes(column) else { throw PostgresError("column \(column) is null") }
            return String(decoding: value, as: UTF8.self)
        }

        /// A `bytea` column.
        func data(_ column: Int32) throws(PostgresError) -> [UInt8] {
            guard let value = bytes(column) else { throw PostgresError("column \(column) is null") }
            return Array(value)
        }

        /// A `bigint` column.
        func int(_ column: Int32) throws(PostgresError) -> Int {
            guard let value = bytes(column), value.count == 8 else {
                throw PostgresError("column \(column) is not a bigint")
            }
            return Int(Int64(bigEndian: value.loadUnaligned(as: Int64.self)))
        }

        /// A `double precision` column.
        func double(_ column: Int32) throws(PostgresError) -> Double {
            guard let value = bytes(column), value.count == 8 else {
                throw PostgresError("column \(column) is not a double precision")
            }
            return Double(bitPattern: UInt64(bigEndian: value.loadUnaligned(as: UInt64.self)))
        }
    }

    // MARK: - Plumbing

    private func check(_ result: OpaquePointer?) throws(PostgresError) {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return
        default: throw PostgresError(result: result, handle: handle)
        }
    }

    /// Calls `body` with libpq's parameter arrays for `parameters`: `bytea` in the binary format
    /// (type 17), everything else as text with the type left to the server.
    private static func withParameters<T>(
        _ parameters: [Value],
        _ body: (
            Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?
        ) -> T
    ) -> T {
        // Every value is copied once, into one buffer; text values end with a NUL.
        var storage: [UInt8] = []
        var offsets: [Int] = []
        var types: [Oid] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for parameter in parameters {
            offsets.append(storage.count)
            let start = storage.count
            switch parameter {
            case .text(let text): storage += text.utf8
            case .int(let value): storage += String(value).utf8
            case .double(let value): storage += "\(value)".utf8
            case .bytes(let data): storage += data
            }
            lengths.append(Int32(storage.count - start))
            if case .bytes = parameter {
                types.append(17)
                formats.append(1)
            } else {
                storage.append(0)
                types.append(0)
                formats.append(0)
            }
        }
        return storage.withUnsafeBytes { buffer in
            let values = offsets.map { offset in
                buffer.baseAddress.map { UnsafePointer(($0 + offset).assumingMemoryBound(to: CChar.self)) }
            }
            return body(Int32(parameters.count), types, values, lengths, formats)
        }
    }

    /// Calls `body` with a null-terminated array of C strings for `strings`.
    private static func withCStrings<T>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
    ) -> T {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    fileprivate static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A failure reported by libpq or the server, with the server's SQLSTATE when it sent one.
struct PostgresError: Error, CustomStringConvertible {
    var message: String
    /// The five-character SQLSTATE, such as `40001`; nil for a failure of the connection.
    var state: String?

    init(_ message: String, state: String? = nil) {
        self.message = message
        self.state = state
    }

    fileprivate init(result: OpaquePointer?, handle: OpaquePointer) {
        let message = PostgresConnection.text(PQresultErrorMessage(result))
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        self.init(message.isEmpty ? PostgresConnection.text(PQerrorMessage(handle)) : message, state: state)
    }

    var description: String { state.map { "\(message) (SQLSTATE \($0))" } ?? message }
}
