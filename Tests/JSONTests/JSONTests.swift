import JSON
import Testing

@Suite("JSON parser and writer")
struct JSONTests {
    @Test(
        "valid documents parse to the expected values",
        arguments: [
            ("null", JSONValue.null),
            (" true ", .bool(true)),
            ("-0.5e2", .number(-50)),
            ("0", .number(0)),
            ("\"a\\u00e9\\ud83d\\ude00\\n\"", .string("aé😀\n")),
            ("[1, [2], {}]", .array([1, [2], .object(JSONObject())])),
            ("{\"b\": 1, \"a\": [true, null]}", JSONValue.object(["b": 1, "a": [true, nil]])),
            ("\"포즈픽\"", .string("포즈픽")),
        ])
    func parses(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test(
        "malformed documents are refused",
        arguments: [
            "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "+1", "tru", "nul", "\"abc", "\"\\x\"", "\"\\ud800\"",
            "\"\\udc00\"", "{a:1}", "[1 2]", "1 2", "'a'", "\"tab\there\"", "1e999", "NaN", "{\"a\" 1}",
            String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
        ])
    func refuses(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("64 levels of nesting are accepted")
    func deepestAccepted() throws {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(text) }
    }

    @Test(
        "the writer produces compact JSON that reads back the same",
        arguments: [
            (
                JSONValue.object(["x": 97.5, "n": 3, "s": "q\"\\\n\u{01}", "neg": -0.25, "big": 1e20]),
                "{\"x\":97.5,\"n\":3,\"s\":\"q\\\"\\\\\\n\\u0001\",\"neg\":-0.25,\"big\":1e+20}"
            ),
            (
                JSONValue.object(["a": [], "b": .object([:]), "c": nil, "d": false]),
                "{\"a\":[],\"b\":{},\"c\":null,\"d\":false}"
            ),
            (.string("\u{2028}한"), "\"\\u2028한\""),
        ])
    func writes(value: JSONValue, expected: String) throws {
        #expect(JSONWriter.string(value) == expected)
        #expect(try JSONParser.parse(expected) == value)
    }

    @Test("a merge patch replaces, removes and merges objects member by member")
    func mergePatch() {
        let base: JSONObject = ["a": 1, "b": ["x": 1, "y": 2], "c": 3]
        let patch: JSONObject = ["a": 9, "b": ["y": nil, "z": 3], "c": nil, "d": "new"]
        let merged = base.merging(patch: patch)
        #expect(JSONValue.object(merged) == ["a": 9, "b": ["x": 1, "z": 3], "d": "new"])
        #expect(merged.keys == ["a", "b", "d"])
    }
}

@Suite("JSON writer fast paths")
struct JSONWriterFastPathTests {
    @Test(
        "integers are written digit by digit, including the extremes",
        arguments: [0, 7, -7, 10, 1_000_000, Int.max, Int.min])
    func integers(value: Int) {
        var writer = JSONWriter()
        writer.int(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }

    @Test("literal field names and escaped keys produce the same document")
    func fields() throws {
        var fast = JSONWriter()
        fast.beginObject()
        fast.field("a")
        fast.number(1.5)
        fast.field("b")
        fast.number(-3)
        fast.endObject()
        var slow = JSONWriter()
        slow.beginObject()
        slow.key("a")
        slow.number(1.5)
        slow.key("b")
        slow.number(-3)
        slow.endObject()
        #expect(fast.bytes == slow.bytes)
        #expect(String(decoding: fast.bytes, as: UTF8.self) == #"{"a":1.5,"b":-3}"#)
    }

    @Test("long strings with escapes in the middle keep every unescaped run")
    func runs() throws {
        let text = String(repeating: "포즈", count: 50) + "\"\n\u{2028}" + String(repeating: "x", count: 100) + "\\"
        let encoded = JSONWriter.string(.string(text))
        #expect(try JSONParser.parse(encoded) == .string(text))
        #expect(encoded.contains("\\u2028") && encoded.contains("\\n"))
    }

    @Test(
        "fractions are written in the shortest text that reads back to the same Double",
        arguments: [
            97.5, -48.75, 0.1, 0.3, 1.0 / 3.0, 0.1 + 0.2, 123_456_789.125, 390.0 / 7.0, 1e-7, -2.5e-3,
            Double.leastNonzeroMagnitude,
            1.7976931348623157e308, 0.000001, 0.001, 0.0123, 999_999_999.999999,
        ]
    )
    func fractions(value: Double) throws {
        var writer = JSONWriter()
        writer.number(value)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(Double(text) == value)
        #expect(text == value.description)
        #expect(try JSONParser.parse(text) == .number(value))
    }

    @Test("integral numbers are written as integers up to 2^63, as a client's content sent them up to 2^53")
    func integralNumbers() throws {
        let cases: [(String, String)] = [
            ("1000000000000000", "1000000000000000"), ("-1e15", "-1000000000000000"),
            ("9007199254740991", "9007199254740991"), ("9007199254740993", "9007199254740992"),
            ("1234567890123456789", "1234567890123456768"), ("1e18", "1000000000000000000"),
            ("1e19", "1e+19"), ("123456789012.5", "123456789012.5"),
        ]
        for (sent, written) in cases {
            #expect(JSONWriter.string(try JSONParser.parse(sent)) == written, "\(sent)")
            #expect(try JSONParser.parse(written) == JSONParser.parse(sent))
        }
    }

    @Test("integers are written digit for digit, at every length and both extremes")
    func integers() {
        var values = [0, -1, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            values += [power, power - 1, power + 1, -power, 9 * power]
            power *= 10
        }
        for value in values {
            var writer = JSONWriter()
            writer.int(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
    }

    @Test("every byte that needs escaping is escaped wherever it falls in a string, and nothing else is")
    func escapesAtEveryPosition() throws {
        // Each special text and how it is written; the last ones are written as they are.
        let written: [(String, String)] = [
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{01}", #"\u0001"#), ("\u{1F}", #"\u001f"#),
            ("\u{2028}", #"\u2028"#), ("\u{2029}", #"\u2029"#), ("é", "é"), ("\u{7F}", "\u{7F}"), (" ", " "),
            ("~", "~"),
            ("\u{2027}", "\u{2027}"),
        ]
        for length in 0...19 {
            for position in 0...length {
                for (special, escaped) in written {
                    let before = String(repeating: "a", count: position),
                        after = String(repeating: "b", count: length - position)
                    let encoded = JSONWriter.string(.string(before + special + after))
                    #expect(
                        encoded == "\"" + before + escaped + after + "\"", "\(special.debugDescription) at \(position)")
                }
            }
        }
    }

    @Test("writing into the array's storage gives the same bytes, whether the document fits or outgrows it")
    func intoArrayStorage() throws {
        var value: JSONValue = ["s": "포즈 \"quoted\"", "n": 97.5]
        for level in 0..<20 { value = ["level": .number(Double(level)), "inner": value, "list": [1, 2, "three"]] }
        let expected = JSONWriter.encode(value)
        for capacity in [0, 16, 100, expected.count - 1, expected.count, expected.count + 1, 4 * expected.count] {
            let written = JSONWriter.bytes(capacity: capacity) { $0.value(value) }
            #expect(written == expected, "capacity \(capacity)")
        }
        #expect(JSONWriter.bytes(capacity: 64) { _ in }.isEmpty)
    }

    @Test("commas stay right in containers nested deeper than 64 levels")
    func deepNesting() throws {
        var value: JSONValue = [1, 2]
        for level in 0..<100 {
            value = [JSONValue.number(Double(level)), value, ["k": value.arrayValue?.first ?? .null, "z": true]]
        }
        #expect(String(decoding: JSONWriter.encode(value), as: UTF8.self) == Self.reference(value))
    }

    /// A plain recursive writer for the values `deepNesting` builds.
    static func reference(_ value: JSONValue) -> String {
        switch value {
        case .array(let elements): "[" + elements.map(reference).joined(separator: ",") + "]"
        case .object(let object):
            "{" + object.map { "\"\($0.key)\":" + reference($0.value) }.joined(separator: ",") + "}"
        case .number(let n): String(Int(n))
        case .bool(let b): String(b)
        default: "null"
        }
    }
}
