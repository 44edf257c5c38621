import JSON
import Testing

@Suite("JSON objects: duplicates, member cap, large objects")
struct JSONObjectTests {
    /// `{"k0":0,"k1":1,…}` with `count` members.
    static func wide(_ count: Int, duplicateAt: Int? = nil) -> String {
        var parts = (0..<count).map { "\"k\($0)\":\($0)" }
        if let duplicateAt { parts.append("\"k\(duplicateAt)\":-1") }
        return "{" + parts.joined(separator: ",") + "}"
    }

    @Test(
        "a member name twice in one object is refused, in small and large objects and when nested",
        arguments: [
            #"{"a":1,"a":2}"#, #"{"a":1,"b":2,"a":1}"#, #"{"x":{"p":[],"p":[]}}"#, #"[{"a":null,"a":null}]"#,
            wide(9, duplicateAt: 0), wide(100, duplicateAt: 57), wide(4000, duplicateAt: 3999),
        ])
    func duplicates(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test(
        "names that are only canonically equivalent are two names, in small and large objects",
        arguments: [
            "{\"K\":1,\"\u{212A}\":2}", "{\"\u{E9}\":1,\"e\u{301}\":2}",
            "{" + (0..<9).map { "\"k\($0)\":\($0)," }.joined() + "\"\u{E9}\":1,\"e\u{301}\":2}",
        ])
    func canonicallyEquivalentNames(text: String) throws {
        let object = try #require(try JSONParser.parse(text).objectValue)
        #expect(object.members.suffix(2).map(\.value) == [1, 2])
    }

    @Test("the same name in different objects is fine")
    func sameNameElsewhere() throws {
        let value = try JSONParser.parse(#"{"a":{"a":1},"b":[{"a":2},{"a":3}]}"#)
        #expect(value["a"]?["a"] == 1)
    }

    @Test("an object may have 4,096 members, not 4,097")
    func memberCap() throws {
        let largest = try JSONParser.parse(Self.wide(JSONParser.maxMembers))
        #expect(largest.objectValue?.count == 4096)
        #expect(largest["k4095"] == 4095)
        do {
            _ = try JSONParser.parse(Self.wide(JSONParser.maxMembers + 1))
            Issue.record("4,097 members were accepted")
        } catch {
            #expect(error.reason == "an object has more than 4096 members")
        }
    }

    @Test("large objects read, replace and remove members like small ones")
    func largeObjectEditing() throws {
        var object = try #require(try JSONParser.parse(Self.wide(50)).objectValue)
        #expect(object["k0"] == 0 && object["k49"] == 49 && object["k50"] == nil)
        object["k10"] = "ten"
        object["k0"] = nil
        object["new"] = true
        #expect(object.count == 50)
        #expect(object.keys.first == "k1" && object.keys.last == "new")
        #expect(object["k10"] == "ten" && object["k0"] == nil && object["new"] == true && object["k11"] == 11)
    }

    @Test("equality ignores member order; identity and the written bytes do not")
    func orderAndEquality() throws {
        let forward = try #require(try JSONParser.parse(Self.wide(40)).objectValue)
        var reversed = JSONObject()
        for (key, value) in forward.members.reversed() { reversed[key] = value }
        #expect(forward == reversed)
        #expect(forward.hashValue == reversed.hashValue)
        #expect(!forward.isIdentical(to: reversed))
        #expect(forward.isIdentical(to: forward))
        var changed = reversed
        changed["k20"] = 21
        #expect(forward != changed)
        var renamed = forward
        renamed["k39"] = nil
        renamed["other"] = 39
        #expect(forward != renamed)
    }

    @Test("a merge patch over large objects replaces, removes and adds members in order")
    func largeMerge() throws {
        let base = try #require(try JSONParser.parse(Self.wide(30)).objectValue)
        let patch: JSONObject = ["k3": nil, "k4": ["x": 1], "extra": "e", "k29": false]
        let merged = base.merging(patch: patch)
        #expect(merged.count == 30)
        #expect(merged["k3"] == nil && merged["k4"] == ["x": 1] && merged["k29"] == false && merged["extra"] == "e")
        #expect(merged.keys.prefix(4) == ["k0", "k1", "k2", "k4"] && merged.keys.last == "extra")
    }

    @Test("the memory estimate counts buffers, long strings and members")
    func memoryEstimate() throws {
        #expect(JSONValue.number(1).estimatedHeapBytes == 0)
        #expect(JSONValue.string("short").estimatedHeapBytes == 0)
        #expect(JSONValue.string(String(repeating: "x", count: 100)).estimatedHeapBytes == 132)
        #expect(JSONValue.array([1, 2, 3]).estimatedHeapBytes == 32 + 72)
        let object: JSONObject = ["a": 1, "b": [true]]
        #expect(object.estimatedHeapBytes == 32 + 80 + (32 + 24))
    }
}
