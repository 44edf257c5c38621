/// Why a document is not JSON, with the byte offset where parsing stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// The byte offset in the input.
    public var offset: Int

    public var description: String { "\(reason) at byte \(offset)" }
}

/// A strict RFC 8259 parser: UTF-8 input, no trailing commas, no comments, no leading zeros,
/// no lone surrogates, no member name twice in one object (names are compared as bytes, as
/// RFC 8259 compares them: two names that are only canonically equivalent, which `String`'s
/// `==` takes as equal, are two names), a bounded nesting depth and member count, and nothing
/// but white space after the value.
///
/// Parsing is linear in the input: in a large object, member names are checked for duplicates
/// through a hash set, never by comparing every pair.
public struct JSONParser {
    /// The deepest nesting accepted; deeper input is refused rather than risking the stack.
    public static let maxDepth = 64
    /// The most members one object may have.
    public static let maxMembers = 4096

    private let bytes: [UInt8]
    private let depthLimit: Int
    private var position = 0
    private var depth = 0

    /// Parses one JSON document, nested at most `maxDepth` levels (a document that wraps values
    /// read under the default limit, such as a stored record, may allow a few more).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = JSONParser.maxDepth) throws(JSONParseError) -> JSONValue
    {
        var parser = JSONParser(bytes: bytes, depthLimit: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    /// Parses one JSON document from text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8], depthLimit: Int) {
        self.bytes = bytes
        self.depthLimit = depthLimit
    }

    private func error(_ reason: String) -> JSONParseError { JSONParseError(reason: reason, offset: position) }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func expect(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected end of input") }
        for i in 0..<count where bytes[position + i] != literal.utf8Start[i] {
            throw error("invalid literal")
        }
        position += count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > depthLimit { throw error("nesting deeper than \(depthLimit) levels") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        position += 1
        var object = JSONObject()
        // Names seen, kept once the object is large enough that scanning would cost more.
        var names: Set<MemberName> = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a member name")
            }
            let keyOffset = position
            let key = try parseString()
            guard object.count < Self.maxMembers else {
                throw JSONParseError(reason: "an object has more than \(Self.maxMembers) members", offset: keyOffset)
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
            position += 1
            skipWhitespace()
            let isNew: Bool
            if object.count < JSONObject.indexThreshold {
                isNew = !object.members.contains { $0.key.utf8.elementsEqual(key.utf8) }
            } else {
                if names.isEmpty { names = Set(object.members.map { MemberName($0.key) }) }
                isNew = names.insert(MemberName(key)).inserted
            }
            guard isNew else {
                throw JSONParseError(reason: "duplicate member name '\(key.prefix(64))'", offset: keyOffset)
            }
            object.appendNew(key, try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; break }
            throw error("expected ',' or '}'")
        }
        depth -= 1
        return .object(object)
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        position += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; break }
            throw error("expected ',' or ']'")
        }
        depth -= 1
        return .array(array)
    }

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw error("leading zeros are not allowed") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(reason: "number out of range", offset: start)
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var runStart = position
        var result = ""
        func flushRun(_ end: Int) throws(JSONParseError) {
            guard runStart < end else { return }
            guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                throw JSONParseError(reason: "invalid UTF-8 in string", offset: runStart)
            }
            result += run
        }
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                try flushRun(position)
                position += 1
                return result
            }
            if byte < 0x20 { throw error("control character in string") }
            if byte != UInt8(ascii: "\\") {
                position += 1
                continue
            }
            try flushRun(position)
            position += 1
            guard position < bytes.count else { throw error("unterminated string") }
            let escape = bytes[position]
            position += 1
            scalars.removeAll()
            switch escape {
            case UInt8(ascii: "\""): result.append("\"")
            case UInt8(ascii: "\\"): result.append("\\")
            case UInt8(ascii: "/"): result.append("/")
            case UInt8(ascii: "b"): result.append("\u{08}")
            case UInt8(ascii: "f"): result.append("\u{0C}")
            case UInt8(ascii: "n"): result.append("\n")
            case UInt8(ascii: "r"): result.append("\r")
            case UInt8(ascii: "t"): result.append("\t")
            case UInt8(ascii: "u"):
                let unit = try parseHex4()
                if (0xD800...0xDBFF).contains(unit) {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw error("lone high surrogate") }
                    position += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
                    let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    result.unicodeScalars.append(Unicode.Scalar(scalar)!)
                } else if (0xDC00...0xDFFF).contains(unit) {
                    throw error("lone low surrogate")
                } else {
                    result.unicodeScalars.append(Unicode.Scalar(unit)!)
                }
            default: throw error("invalid escape")
            }
            runStart = position
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}

/// A member name that is equal to another only when their UTF-8 bytes are, and hashed by them.
private struct MemberName: Hashable {
    let name: String

    init(_ name: String) { self.name = name }

    static func == (lhs: MemberName, rhs: MemberName) -> Bool { lhs.name.utf8.elementsEqual(rhs.name.utf8) }

    func hash(into hasher: inout Hasher) {
        for byte in name.utf8 { hasher.combine(byte) }
    }
}
