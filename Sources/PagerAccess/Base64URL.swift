/// Unpadded base64url (RFC 4648 §5), as the parts of a JSON Web Token are written.
///
/// Decoding is strict: only the 64 letters of the URL alphabet, no padding, no white space, and
/// the unused low bits of the last letter zero, so that one byte string has exactly one text and
/// a token cannot be altered without changing what it says.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The value of each letter of the alphabet, 255 for every other byte.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, letter) in alphabet.enumerated() { table[Int(letter)] = UInt8(index) }
        return table
    }()

    /// `bytes` as unpadded base64url text.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var letters: [UInt8] = []
        letters.reserveCapacity((bytes.count * 4 + 2) / 3)
        var group: UInt32 = 0
        var filled = 0
        for byte in bytes {
            group = group << 8 | UInt32(byte)
            filled += 8
            while filled >= 6 {
                filled -= 6
                letters.append(alphabet[Int((group >> UInt32(filled)) & 0x3F)])
            }
        }
        if filled > 0 { letters.append(alphabet[Int((group << UInt32(6 - filled)) & 0x3F)]) }
        return String(decoding: letters, as: UTF8.self)
    }

    /// The bytes of unpadded base64url `text`; nil for anything else (padding, other letters, a
    /// length no encoding has, or non-zero unused bits).
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count * 3 / 4)
        var group: UInt32 = 0
        var filled = 0
        for letter in text {
            let value = values[Int(letter)]
            guard value != 255 else { return nil }
            group = (group << 6 | UInt32(value)) & 0xFFFF
            filled += 6
            if filled >= 8 {
                filled -= 8
                bytes.append(UInt8(truncatingIfNeeded: group >> UInt32(filled)))
            }
        }
        // What is left over are the unused bits of the last letter: they must be zero.
        guard group & ((1 << UInt32(filled)) - 1) == 0 else { return nil }
        return bytes
    }

    /// The bytes of `text` in unpadded base64url.
    public static func decode(_ text: String) -> [UInt8]? { decode(Array(text.utf8)) }
}
