public import JSON
public import PagerModel

/// One JSON value read as one of the pager's values. Every reader reads its values through
/// these conversions: ``JSONReader`` (request bodies and templates, member by member) and the
/// stored records' reader (in PagerStorage, by position), so each kind of value (a colour, a
/// badge, an enumeration, a number) is read in one place. A conversion that fails throws a
/// ``WireMismatch`` saying what was expected; the reader adds where (a field, a record).
public struct WireValue {
    /// The value read.
    public let value: JSONValue

    /// Reads `value`.
    @inlinable public init(_ value: JSONValue) { self.value = value }

    @usableFromInline func mismatch(_ expected: String) -> WireMismatch {
        WireMismatch("Expected \(expected), found \(value.kindName).")
    }

    /// A string.
    @inlinable public func string() throws(WireMismatch) -> String {
        guard let string = value.stringValue else { throw mismatch("a string") }
        return string
    }

    /// A number; JSON numbers are always finite.
    @inlinable public func number() throws(WireMismatch) -> Double {
        guard let number = value.numberValue else { throw mismatch("a number") }
        return number
    }

    /// An integer: a number with no fractional part that fits an `Int`.
    @inlinable public func integer() throws(WireMismatch) -> Int {
        guard let integer = value.intValue else { throw mismatch("an integer") }
        return integer
    }

    /// A Boolean.
    @inlinable public func boolean() throws(WireMismatch) -> Bool {
        guard let boolean = value.boolValue else { throw mismatch("true or false") }
        return boolean
    }

    /// An object.
    @inlinable public func object() throws(WireMismatch) -> JSONObject {
        guard let object = value.objectValue else { throw mismatch("an object") }
        return object
    }

    /// An array.
    @inlinable public func array() throws(WireMismatch) -> [JSONValue] {
        guard let array = value.arrayValue else { throw mismatch("an array") }
        return array
    }

    /// A badge: a string is a text badge, an integer a count (their lengths and ranges are the
    /// model's to check).
    @inlinable public func badge() throws(WireMismatch) -> Badge {
        switch value {
        case .string(let text): return .text(text)
        case .number:
            guard let count = value.intValue else { throw mismatch("a string or an integer") }
            return .count(count)
        default: throw mismatch("a string or an integer")
        }
    }

    /// A colour: `#RRGGBB` or `#RRGGBBAA`.
    @inlinable public func color() throws(WireMismatch) -> RGBA {
        let text = try string()
        guard let color = RGBA(hex: text) else {
            throw WireMismatch("'\(text)' is not a colour: use #RRGGBB or #RRGGBBAA.")
        }
        return color
    }

    /// One of an enumeration's raw values.
    @inlinable public func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws(WireMismatch) -> T
    where T.RawValue == String {
        let text = try string()
        guard let choice = T(rawValue: text) else {
            throw WireMismatch("'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return choice
    }
}

/// Why a JSON value is not the value a reader expected: a sentence for a person.
public struct WireMismatch: Error, CustomStringConvertible {
    /// The sentence, such as "Expected a number, found a string."
    public let description: String

    /// A mismatch described by `description`.
    @inlinable public init(_ description: String) { self.description = description }
}
