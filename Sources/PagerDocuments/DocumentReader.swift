import JSON
import PagerModel

/// Reads the members of a document pagerd sent. Unlike a request body, a document may carry
/// members this reader does not know (a newer server's); a member it reads must have the type
/// the contract gives it, and one that is absent or null takes its default.
struct DocumentReader {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue?, path: String) throws(PredictionError) {
        guard let object = value?.objectValue else {
            throw .unexpected("\(path.isEmpty ? "The document" : "'\(path)'") is not an object.")
        }
        self.object = object
        self.path = path
    }

    func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Member `key`, nil when absent or null.
    func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func mismatch(_ key: String, _ expected: String) -> PredictionError {
        .unexpected("'\(field(key))' is not \(expected).")
    }

    func number(_ key: String) throws(PredictionError) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.numberValue else { throw mismatch(key, "a number") }
        return number
    }

    func integer(_ key: String) throws(PredictionError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let integer = value.intValue else { throw mismatch(key, "an integer") }
        return integer
    }

    func boolean(_ key: String) throws(PredictionError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let bool = value.boolValue else { throw mismatch(key, "a boolean") }
        return bool
    }

    func string(_ key: String) throws(PredictionError) -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value.stringValue else { throw mismatch(key, "a string") }
        return string
    }

    /// A member that names one case of `type`.
    func choice<T: RawRepresentable>(_ key: String, as type: T.Type) throws(PredictionError) -> T?
    where T.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let value = T(rawValue: text) else { throw mismatch(key, "a value pagerd documents") }
        return value
    }

    func color(_ key: String) throws(PredictionError) -> RGBA? {
        guard let text = try string(key) else { return nil }
        guard let color = RGBA(hex: text) else { throw mismatch(key, "a colour") }
        return color
    }

    func array(_ key: String) throws(PredictionError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard let array = value.arrayValue else { throw mismatch(key, "an array") }
        return array
    }

    /// An object member's reader, nil when absent or null.
    func object(_ key: String) throws(PredictionError) -> DocumentReader? {
        guard let value = value(key) else { return nil }
        return try DocumentReader(value, path: field(key))
    }
}
