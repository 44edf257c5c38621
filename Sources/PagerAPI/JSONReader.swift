public import JSON
public import PagerModel

/// Reads the members of a JSON object with errors that name the field, and refuses unknown
/// members so a typo is reported rather than ignored. `null` counts as absent.
public struct JSONReader {
    /// The object read.
    public let object: JSONObject
    /// The field path of the object, such as `pages[2]`; empty at the top.
    public let path: String

    /// Reads `value`, which must be an object.
    public init(_ value: JSONValue, path: String = "") throws(PagerError) {
        guard let object = value.objectValue else {
            throw .invalid(field: path.isEmpty ? nil : path, "Expected an object, found \(value.kindName).")
        }
        self.object = object
        self.path = path
    }

    /// The full path of member `key`.
    public func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Refuses any member not in `known`: an array (a literal list allocates nothing; the lists
    /// are short) or a set.
    public func allowOnly(_ known: some Collection<String>) throws(PagerError) {
        for (key, _) in object where !known.contains(key) {
            throw .invalid(
                field: field(key), "Unknown member; expected one of \(known.sorted().joined(separator: ", ")).")
        }
    }

    /// Whether member `key` is present and not null.
    public func has(_ key: String) -> Bool { object[key].map { !$0.isNull } ?? false }

    func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> PagerError {
        .invalid(field: field(key), "Expected \(expected), found \(value.kindName).")
    }

    /// A string member.
    public func string(_ key: String) throws(PagerError) -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.stringValue else { throw mismatch(key, "a string", value) }
        return string
    }

    /// A required string member.
    public func requiredString(_ key: String) throws(PagerError) -> String {
        guard let string = try string(key) else { throw .invalid(field: field(key), "This member is required.") }
        return string
    }

    /// A member as a merge patch changes it: absent keeps, null clears, a value (read by `read`)
    /// sets.
    public func change<T>(_ key: String, _ read: (String) throws(PagerError) -> T?) throws(PagerError) -> FieldChange<T>
    {
        guard let present = object[key] else { return .keep }
        if present.isNull { return .clear }
        return try read(key).map { .set($0) } ?? .keep
    }

    /// A badge member: a string, or an integer (docs/api.md, «Tab icons and badges»; lengths and ranges are the
    /// model's).
    public func badge(_ key: String) throws(PagerError) -> Badge? {
        guard let value = value(key) else { return nil }
        switch value {
        case .string(let text): return .text(text)
        case .number:
            guard let count = value.intValue else { throw mismatch(key, "a string or an integer", value) }
            return .count(count)
        default: throw mismatch(key, "a string or an integer", value)
        }
    }

    /// A colour member: `#RRGGBB` or `#RRGGBBAA`.
    public func color(_ key: String) throws(PagerError) -> RGBA? {
        guard let text = try string(key) else { return nil }
        guard let color = RGBA(hex: text) else {
            throw .invalid(field: field(key), "'\(text)' is not a colour: use #RRGGBB or #RRGGBBAA.")
        }
        return color
    }

    /// A number member; JSON numbers are always finite.
    public func number(_ key: String) throws(PagerError) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.numberValue else { throw mismatch(key, "a number", value) }
        return number
    }

    /// An integer member.
    public func integer(_ key: String) throws(PagerError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let integer = value.intValue else { throw mismatch(key, "an integer", value) }
        return integer
    }

    /// A Boolean member.
    public func boolean(_ key: String) throws(PagerError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let boolean = value.boolValue else { throw mismatch(key, "true or false", value) }
        return boolean
    }

    /// An object member.
    public func object(_ key: String) throws(PagerError) -> JSONReader? {
        guard let value = value(key) else { return nil }
        return try JSONReader(value, path: field(key))
    }

    /// An object member kept as opaque JSON.
    public func rawObject(_ key: String) throws(PagerError) -> JSONObject? {
        guard let value = value(key) else { return nil }
        guard let object = value.objectValue else { throw mismatch(key, "an object", value) }
        return object
    }

    /// An array member.
    public func array(_ key: String) throws(PagerError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard let array = value.arrayValue else { throw mismatch(key, "an array", value) }
        return array
    }

    /// A member whose value must be one of an enumeration's raw values.
    public func choice<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type) throws(PagerError) -> T?
    where T.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let value = T(rawValue: text) else {
            throw .invalid(
                field: field(key), "'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return value
    }
}
