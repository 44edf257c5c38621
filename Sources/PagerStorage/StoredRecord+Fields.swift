import JSON
import PagerModel

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

    mutating func string() throws(RecordError) -> String {
        guard let value = try take("a string").stringValue else { throw RecordError("a string was expected") }
        return value
    }

    mutating func number() throws(RecordError) -> Double {
        guard let value = try take("a number").numberValue else { throw RecordError("a number was expected") }
        return value
    }

    mutating func badge() throws(RecordError) -> Badge {
        let value = try take("a badge")
        if let text = value.stringValue { return .text(text) }
        guard let count = value.intValue else { throw RecordError("a badge was expected") }
        return .count(count)
    }

    mutating func bool() throws(RecordError) -> Bool {
        guard let value = try take("a boolean").boolValue else { throw RecordError("a boolean was expected") }
        return value
    }

    mutating func color() throws(RecordError) -> RGBA {
        let text = try string()
        guard let color = RGBA(hex: text) else { throw RecordError("'\(text)' is not a colour") }
        return color
    }

    mutating func int() throws(RecordError) -> Int {
        guard let value = try take("an integer").intValue else { throw RecordError("an integer was expected") }
        return value
    }

    mutating func object() throws(RecordError) -> JSONObject {
        guard let value = try take("an object").objectValue else { throw RecordError("an object was expected") }
        return value
    }

    mutating func array() throws(RecordError) -> Fields {
        guard let value = try take("an array").arrayValue else { throw RecordError("an array was expected") }
        return Fields(value)
    }

    mutating func enumeration<T: RawRepresentable>() throws(RecordError) -> T where T.RawValue == String {
        let raw = try string()
        guard let value = T(rawValue: raw) else { throw RecordError("'\(raw)' is not a known \(T.self)") }
        return value
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
