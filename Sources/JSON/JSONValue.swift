/// A JSON value. Objects keep their members in order, so documents round-trip as written.
public enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member `key` of an object; nil for other values or a missing member.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The object's members, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number, if this is a number.
    public var numberValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The number as an Int, if this is a number with no fractional part that fits.
    public var intValue: Int? {
        guard case .number(let number) = self else { return nil }
        return Int(exactly: number)
    }

    /// The Boolean, if this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// Whether both are equal and every object in them has its members in the same order, so
    /// that both are written as the same bytes.
    public func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let a), .object(let b)): a.isIdentical(to: b)
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        default: self == other
        }
    }

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object: members in insertion order with lookup by key. Assigning to an existing key
/// replaces its value in place.
///
/// An object stores only its members, so page content costs no more memory than it must. A
/// single lookup scans the members; work over a whole object (parsing, comparing, merging) builds
/// a temporary hash index once it has more than ``indexThreshold`` members, so it stays linear.
public struct JSONObject: Sendable, Equatable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// Objects with more members than this are indexed by hash for whole-object work.
    public static let indexThreshold = 8

    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Creates an empty object.
    public init() { members = [] }

    /// Creates an object from members in order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = []
        for (key, value) in elements { self[key] = value }
    }

    /// The value of member `key`; assigning nil removes it.
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key: key, value: newValue))
            }
        }
    }

    /// Appends a member without looking for its key; the caller knows the key is new.
    mutating func appendNew(_ key: String, _ value: JSONValue) {
        members.append((key: key, value: value))
    }

    /// The position of each key, for whole-object work on large objects; nil for small ones,
    /// where scanning is cheaper.
    private var positions: [String: Int]? {
        guard members.count > Self.indexThreshold else { return nil }
        var positions = [String: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() { positions[member.key] = position }
        return positions
    }

    /// The member names in order.
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    /// Equal when both have the same members with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        guard let positions = rhs.positions else { return lhs.members.allSatisfy { rhs[$0.key] == $0.value } }
        return lhs.members.allSatisfy { member in
            positions[member.key].map { rhs.members[$0].value == member.value } ?? false
        }
    }

    /// Whether both have the same members with equal values in the same order, as they would be
    /// written.
    public func isIdentical(to other: JSONObject) -> Bool {
        members.count == other.members.count
            && zip(members, other.members).allSatisfy { $0.key == $1.key && $0.value.isIdentical(to: $1.value) }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, as == is: combine each member's own hash commutatively.
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }

    /// Applies an RFC 7396 merge patch: members of `patch` replace these, `null` removes, and
    /// objects merge member by member.
    ///
    /// Linear in the sizes of both objects: members are found through a hash index.
    public func merging(patch: JSONObject) -> JSONObject {
        var merged = members.map { Optional($0) }
        var positions = [String: Int](minimumCapacity: members.count + patch.count)
        for (position, member) in members.enumerated() { positions[member.key] = position }
        for (key, value) in patch {
            let existing = positions[key]
            let newValue: JSONValue?
            switch value {
            case .null: newValue = nil
            case .object(let inner):
                let base = existing.flatMap { merged[$0]?.value.objectValue } ?? JSONObject()
                newValue = .object(base.merging(patch: inner))
            default: newValue = value
            }
            if let existing {
                merged[existing] = newValue.map { (key: key, value: $0) }
                if newValue == nil { positions[key] = nil }
            } else if let newValue {
                positions[key] = merged.count
                merged.append((key: key, value: newValue))
            }
        }
        var result = JSONObject()
        result.members = merged.compactMap { $0 }
        return result
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}
