/// Session ids: 16 random bytes as unpadded base64url (22 characters, 128 random bits).
public enum SessionID {
    /// A new id from the system's cryptographically secure generator.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A new id from `generator`.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return base64URL(bytes)
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
