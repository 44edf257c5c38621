/// Where an encoder writes a value, member by member: into bytes (``JSONWriter``) or into a tree
/// (``JSONTreeWriter``). A value's encoder written once against this protocol serves both, so a
/// document written straight into bytes and the same document as a ``JSONValue`` (to merge a
/// patch over, for instance) cannot differ.
public protocol JSONSink: ~Copyable {
    /// Starts an object.
    mutating func beginObject()
    /// Ends an object.
    mutating func endObject()
    /// Starts an array.
    mutating func beginArray()
    /// Ends an array.
    mutating func endArray()
    /// Names the member whose value is written next.
    mutating func field(_ name: StaticString)
    /// Writes `null`.
    mutating func null()
    /// Writes a Boolean.
    mutating func bool(_ value: Bool)
    /// Writes a string.
    mutating func string(_ value: String)
    /// Writes an integer.
    mutating func int(_ value: Int)
    /// Writes a number.
    mutating func number(_ value: Double)
}

extension JSONWriter: JSONSink {}

/// Builds the ``JSONValue`` an encoder writes, for the code that works on the tree. What
/// ``JSONWriter`` writes from the same calls is `JSONWriter.encode(value)`, byte for byte, as long
/// as the integers written are below 10^15 in magnitude: the tree holds them as `Double`s, which
/// `JSONWriter.number` writes as integers only below that.
public struct JSONTreeWriter: JSONSink {
    /// The value written, once its outermost container is closed.
    public private(set) var value: JSONValue = .null
    /// The open objects' members and the open arrays' elements, innermost last, each changed in
    /// place; `opened` says which kind each open container is (true for an object), innermost last.
    private var objects: [JSONObject] = []
    private var arrays: [[JSONValue]] = []
    private var opened: [Bool] = []
    /// The member name given by ``field(_:)`` for the next value of the innermost object.
    private var pendingKey: String?
    /// The pending member name of each enclosing object, saved when a container opens inside it.
    private var enclosingKeys: [String?] = []

    /// Creates a writer with nothing written.
    public init() {}

    /// The object written; nil when the value written is not an object.
    public var object: JSONObject? { value.objectValue }

    private mutating func add(_ element: JSONValue) {
        switch opened.last {
        case nil: value = element
        case true?:
            guard let key = pendingKey else { preconditionFailure("JSONTreeWriter: a member without a name") }
            objects[objects.count - 1][key] = element
            pendingKey = nil
        case false?: arrays[arrays.count - 1].append(element)
        }
    }

    /// Starts an object.
    public mutating func beginObject() {
        enclosingKeys.append(pendingKey)
        pendingKey = nil
        opened.append(true)
        objects.append(JSONObject())
    }

    /// Ends an object.
    public mutating func endObject() {
        precondition(opened.popLast() == true, "JSONTreeWriter: endObject without an open object")
        pendingKey = enclosingKeys.removeLast()
        add(.object(objects.removeLast()))
    }

    /// Starts an array.
    public mutating func beginArray() {
        enclosingKeys.append(pendingKey)
        pendingKey = nil
        opened.append(false)
        arrays.append([])
    }

    /// Ends an array.
    public mutating func endArray() {
        precondition(opened.popLast() == false, "JSONTreeWriter: endArray without an open array")
        pendingKey = enclosingKeys.removeLast()
        add(.array(arrays.removeLast()))
    }

    /// Names the member whose value is written next.
    public mutating func field(_ name: StaticString) { pendingKey = name.description }
    /// Writes `null`.
    public mutating func null() { add(.null) }
    /// Writes a Boolean.
    public mutating func bool(_ value: Bool) { add(.bool(value)) }
    /// Writes a string.
    public mutating func string(_ value: String) { add(.string(value)) }
    /// Writes an integer, as the number it is.
    public mutating func int(_ value: Int) { add(.number(Double(value))) }
    /// Writes a number.
    public mutating func number(_ value: Double) { add(.number(value)) }
}
