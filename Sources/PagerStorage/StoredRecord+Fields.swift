import JSON
import PagerModel
import PagerWire

/// Why a stored record could not be read back.
struct RecordError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// The members of a stored array, read in order, each read checking its kind.
struct Fields {
    private let items: [JSONValue]
    private var next = 0

    init(_ items: [JSONValue]) { self.items = items }

    /// Parses `bytes`, which must hold an array.
    init(parsing bytes: [UInt8], what: String) throws(RecordError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes, maxDepth: StoredRecord.maxDepth) } catch {
            throw RecordError("the \(what) is not readable: \(error)")
        }
        guard let items = value.arrayValue else { throw RecordError("the \(what) is not an array") }
        self.init(items)
    }

    var isAtEnd: Bool { next == items.count }

    private mutating func take(_ expected: String) throws(RecordError) -> JSONValue {
        guard next < items.count else { throw RecordError("a record ends where \(expected) was expected") }
        defer { next += 1 }
        return items[next]
    }

    /// The next member read by `convert`, the conversion every reader of the pager's values
    /// shares; `expected` names it when the record ends before it.
    private mutating func read<T>(
        _ expected: String, _ convert: (WireValue) throws(WireMismatch) -> T
    ) throws(RecordError) -> T {
        let value = try take(expected)
        do { return try convert(WireValue(value)) } catch { throw RecordError(error.description) }
    }

    mutating func string() throws(RecordError) -> String {
        try read("a string") { value throws(WireMismatch) in try value.string() }
    }

    mutating func number() throws(RecordError) -> Double {
        try read("a number") { value throws(WireMismatch) in try value.number() }
    }

    mutating func badge() throws(RecordError) -> Badge {
        try read("a badge") { value throws(WireMismatch) in try value.badge() }
    }

    mutating func bool() throws(RecordError) -> Bool {
        try read("a boolean") { value throws(WireMismatch) in try value.boolean() }
    }

    mutating func color() throws(RecordError) -> RGBA {
        try read("a colour") { value throws(WireMismatch) in try value.color() }
    }

    mutating func int() throws(RecordError) -> Int {
        try read("an integer") { value throws(WireMismatch) in try value.integer() }
    }

    mutating func object() throws(RecordError) -> JSONObject {
        try read("an object") { value throws(WireMismatch) in try value.object() }
    }

    mutating func array() throws(RecordError) -> Fields {
        Fields(try read("an array") { value throws(WireMismatch) in try value.array() })
    }

    mutating func enumeration<T: RawRepresentable & CaseIterable>() throws(RecordError) -> T
    where T.RawValue == String {
        try read("a name") { value throws(WireMismatch) in try value.choice(T.self) }
    }

    /// nil for a null member, else `read` over this member.
    mutating func optional<T>(_ read: (inout Fields) throws(RecordError) -> T) throws(RecordError) -> T? {
        guard next < items.count else { throw RecordError("a record ends early") }
        if items[next].isNull {
            next += 1
            return nil
        }
        return try read(&self)
    }

    /// nil for a null member or one a record written before it was added does not have (at the
    /// end), else `read` over this member.
    mutating func trailing<T>(_ read: (inout Fields) throws(RecordError) -> T) throws(RecordError) -> T? {
        isAtEnd ? nil : try optional(read)
    }

    /// nil for a null member, else `read` over the members of this array.
    mutating func optionalArray<T>(_ read: (inout Fields) throws(RecordError) -> T) throws(RecordError) -> T? {
        try optional { fields throws(RecordError) -> T in
            var inner = try fields.array()
            return try read(&inner)
        }
    }
}
