/// A session's id. New ones are 16 random bytes as unpadded base64url (22 characters, 128
/// random bits); any text can be looked up (one that is not an id simply names no session).
///
/// An id hashes its text once, when it is made: the shard is chosen by that hash
/// (``PagerEngines/shard(for:)``) and the shard's table hashes it, not the text, so a request
/// walks the id's bytes once.
public struct SessionID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as text, as it appears in paths and documents.
    public let rawValue: String
    /// FNV-1a over the text's bytes.
    let textHash: UInt64

    /// The id `text`, as a client sent it.
    public init(_ text: String) {
        rawValue = text
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        textHash = hash
    }

    public init(stringLiteral value: String) { self.init(value) }

    public static func == (a: SessionID, b: SessionID) -> Bool { a.textHash == b.textHash && a.rawValue == b.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(textHash) }

    public var description: String { rawValue }

    /// Whether the id has the form pagerd gives ids; anything else cannot name a session.
    public var isWellFormed: Bool { Self.isWellFormed(rawValue) }

    /// A new id from the system's cryptographically secure generator.
    public static func random() -> SessionID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A new id from `generator`.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> SessionID {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return SessionID(base64URL(bytes))
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func base64URL(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var n = UInt32(bytes[index]) << 16
            if rest == 2 { n |= UInt32(bytes[index + 1]) << 8 }
            let characters = rest == 1 ? [18, 12] : [18, 12, 6]
            for shift in characters { output.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `text` has the form of a session id; anything else cannot name a session.
    public static func isWellFormed(_ text: String) -> Bool {
        (22...64).contains(text.utf8.count) && text.utf8.allSatisfy { alphabet.contains($0) }
    }
}
