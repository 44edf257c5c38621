private import CSQLite

/// An error SQLite returned, with its result code and message.
struct SQLiteError: Error, CustomStringConvertible {
    /// SQLite's extended result code.
    var code: Int32
    var message: String

    var description: String { "\(message) (SQLite code \(code))" }

    /// Whether the file is not a database or is damaged, as opposed to a failing disk.
    var isCorruptFile: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT
    }
}

/// One connection to a SQLite database file: the only code that calls SQLite's C API.
///
/// Not thread-safe by itself: its owner uses it from one thread at a time (the store opens and
/// recovers on the starting thread, then hands the connection to its writer thread).
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    /// The file, for messages.
    let path: String

    /// Opens (creating if absent) the database at `path`.
    init(path: String) throws(SQLiteError) {
        self.path = path
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard code == SQLITE_OK else {
            let error = SQLiteError(
                code: code, message: opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")
            sqlite3_close_v2(opened)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(opened, 1)
    }

    deinit { close() }

    /// Closes the connection; statements must be finalized first.
    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// Runs SQL statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw lastError(code) }
    }

    /// The first column of the first row of `sql`, as an integer (nil without a row).
    func integer(_ sql: String) throws(SQLiteError) -> Int? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.int(0)
    }

    /// A prepared statement.
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw lastError(code) }
        return Statement(statement, database: self)
    }

    fileprivate func lastError(_ code: Int32) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection"
        return SQLiteError(
            code: sqlite3_extended_errcode(handle) != 0 ? sqlite3_extended_errcode(handle) : code, message: message)
    }

    /// A prepared statement of this connection; parameters are numbered from 1, columns from 0.
    final class Statement {
        private let statement: OpaquePointer
        private let database: SQLiteDatabase

        fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        /// Clears the bindings and rewinds, to run again.
        func reset() {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }

        func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(statement, index, Int64(value)) }

        func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(statement, index, value) }

        func bind(_ index: Int32, _ value: String) {
            var text = value
            text.withUTF8 { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                    CSQLite_bind_text(statement, index, chars.baseAddress, Int32(chars.count))
                }
            }
        }

        /// Binds bytes, or NULL for nil.
        func bind(_ index: Int32, _ value: [UInt8]?) {
            guard let value else {
                sqlite3_bind_null(statement, index)
                return
            }
            value.withUnsafeBytes { bytes in
                // A zero-length blob still needs a non-null pointer, or SQLite stores NULL.
                _ = CSQLite_bind_blob(
                    statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count))
            }
        }

        func bindNull(_ index: Int32) { sqlite3_bind_null(statement, index) }

        /// Runs to the next row: true when there is one, false when done.
        @discardableResult
        func step() throws(SQLiteError) -> Bool {
            let code = sqlite3_step(statement)
            switch code {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw database.lastError(code)
            }
        }

        /// Runs a statement that returns no rows, then rewinds it.
        func run() throws(SQLiteError) {
            defer { reset() }
            try step()
        }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

        func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

        func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

        func string(_ column: Int32) -> String {
            guard let text = sqlite3_column_text(statement, column) else { return "" }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }

        /// The bytes of a blob column; nil for NULL.
        func bytes(_ column: Int32) -> [UInt8]? {
            guard !isNull(column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let start = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: start, count: count))
        }
    }
}
