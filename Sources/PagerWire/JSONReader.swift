public import JSON
public import PagerModel

/// Reads the members of a JSON object with errors that name the field, and refuses unknown
/// members so a typo is reported rather than ignored (unless it reads a document a newer server
/// may have written, see ``ignoresUnknownMembers``). `null` counts as absent.
///
/// Its methods are inlinable, so the modules that read with it (PagerAPI) specialise them as
/// when the reader lived there: `allowOnly` with an array literal then allocates nothing, and the
/// conversions inline. Called out of line, a create body of four pages took 136 allocations
/// instead of 60 and a third more time.
public struct JSONReader {
    /// The object read.
    public let object: JSONObject
    /// The field path of the object, such as `pages[2]`; empty at the top.
    public let path: String
    /// Whether ``allowOnly(_:)`` lets unknown members pass, in this object and the ones read from
    /// it: true for a document pagerd sent, which a newer server may have given more members.
    public let ignoresUnknownMembers: Bool

    /// Reads `value`, which must be an object.
    @inlinable public init(
        _ value: JSONValue, path: String = "", ignoringUnknownMembers: Bool = false
    ) throws(PagerError) {
        guard let object = value.objectValue else {
            throw .invalid(field: path.isEmpty ? nil : path, "Expected an object, found \(value.kindName).")
        }
        self.object = object
        self.path = path
        self.ignoresUnknownMembers = ignoringUnknownMembers
    }

    /// The full path of member `key`.
    @inlinable public func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Refuses any member not in `known`: an array (a literal list allocates nothing; the lists
    /// are short) or a set.
    @inlinable public func allowOnly(_ known: some Collection<String>) throws(PagerError) {
        guard !ignoresUnknownMembers else { return }
        for (key, _) in object where !known.contains(key) {
            throw .invalid(
                field: field(key), "Unknown member; expected one of \(known.sorted().joined(separator: ", ")).")
        }
    }

    /// Whether member `key` is present and not null.
    @inlinable public func has(_ key: String) -> Bool { object[key].map { !$0.isNull } ?? false }

    /// Member `key`; nil when it is absent or null.
    @inlinable public func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// The error for member `key` holding `value` where `expected` was expected.
    @inlinable public func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> PagerError {
        .invalid(field: field(key), "Expected \(expected), found \(value.kindName).")
    }

    /// Member `key` read by `convert`; nil when it is absent or null, an error naming the field
    /// when it is not what `convert` reads.
    @inlinable func read<T>(_ key: String, _ convert: (WireValue) throws(WireMismatch) -> T) throws(PagerError) -> T? {
        guard let value = value(key) else { return nil }
        do { return try convert(WireValue(value)) } catch { throw .invalid(field: field(key), error.description) }
    }

    /// A string member.
    @inlinable public func string(_ key: String) throws(PagerError) -> String? {
        try read(key) { value throws(WireMismatch) in try value.string() }
    }

    /// A required string member.
    @inlinable public func requiredString(_ key: String) throws(PagerError) -> String {
        guard let string = try string(key) else { throw .invalid(field: field(key), "This member is required.") }
        return string
    }

    /// A member as a merge patch changes it: absent keeps, null clears, a value (read by `read`)
    /// sets.
    @inlinable public func change<T>(
        _ key: String, _ read: (String) throws(PagerError) -> T?
    ) throws(PagerError) -> FieldChange<T> {
        guard let present = object[key] else { return .keep }
        if present.isNull { return .clear }
        return try read(key).map { .set($0) } ?? .keep
    }

    /// A badge member: a string, or an integer (docs/api.md, «Tab icons and badges»; lengths and ranges are the
    /// model's).
    @inlinable public func badge(_ key: String) throws(PagerError) -> Badge? {
        try read(key) { value throws(WireMismatch) in try value.badge() }
    }

    /// A colour member: `#RRGGBB` or `#RRGGBBAA`.
    @inlinable public func color(_ key: String) throws(PagerError) -> RGBA? {
        try read(key) { value throws(WireMismatch) in try value.color() }
    }

    /// A number member; JSON numbers are always finite.
    @inlinable public func number(_ key: String) throws(PagerError) -> Double? {
        try read(key) { value throws(WireMismatch) in try value.number() }
    }

    /// An integer member.
    @inlinable public func integer(_ key: String) throws(PagerError) -> Int? {
        try read(key) { value throws(WireMismatch) in try value.integer() }
    }

    /// A Boolean member.
    @inlinable public func boolean(_ key: String) throws(PagerError) -> Bool? {
        try read(key) { value throws(WireMismatch) in try value.boolean() }
    }

    /// An object member.
    @inlinable public func object(_ key: String) throws(PagerError) -> JSONReader? {
        guard let value = value(key) else { return nil }
        return try JSONReader(value, path: field(key), ignoringUnknownMembers: ignoresUnknownMembers)
    }

    /// An object member kept as opaque JSON.
    @inlinable public func rawObject(_ key: String) throws(PagerError) -> JSONObject? {
        try read(key) { value throws(WireMismatch) in try value.object() }
    }

    /// An array member.
    @inlinable public func array(_ key: String) throws(PagerError) -> [JSONValue]? {
        try read(key) { value throws(WireMismatch) in try value.array() }
    }

    /// A member whose value must be one of an enumeration's raw values.
    @inlinable public func choice<T: RawRepresentable & CaseIterable>(
        _ key: String, as type: T.Type
    ) throws(PagerError) -> T?
    where T.RawValue == String {
        try read(key) { value throws(WireMismatch) in try value.choice(type) }
    }
}
