import JSON
import Testing

@Suite("JSONSink: one encoder, bytes or a tree")
struct JSONSinkTests {
    /// Nested objects and arrays, empty ones, every scalar, a member after a closed container.
    static func sample<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("a"); w.int(-12)
        w.field("list")
        w.beginArray()
        w.number(0.5)
        w.beginObject()
        w.field("inner"); w.beginArray(); w.endArray()
        w.field("empty"); w.beginObject(); w.endObject()
        w.endObject()
        w.string("s\"t")
        w.bool(true)
        w.null()
        w.endArray()
        w.field("after"); w.bool(false)
        w.endObject()
    }

    @Test("the tree is the value the bytes hold, member for member and in order")
    func treeMatchesBytes() throws {
        var tree = JSONTreeWriter()
        Self.sample(into: &tree)
        let bytes = JSONWriter.bytes(capacity: 64) { w in Self.sample(into: &w) }
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"a":-12,"list":[0.5,{"inner":[],"empty":{}},"s\"t",true,null],"after":false}"#)
        #expect(JSONWriter.encode(tree.value) == bytes)
        let expected: JSONValue = [
            "a": -12, "list": [0.5, ["inner": [], "empty": [:]], "s\"t", true, nil], "after": false,
        ]
        #expect(tree.value.isIdentical(to: expected))
        #expect(tree.object?.keys == ["a", "list", "after"])
    }

    @Test("a scalar alone is the whole value; nothing written is null")
    func scalars() {
        var tree = JSONTreeWriter()
        #expect(tree.value == .null && tree.object == nil)
        tree.string("alone")
        #expect(tree.value == "alone")
    }
}
