public import JSON
import JWTKit

/// One key of the `accessKeys` setting, read and checked: its `kid`, its algorithm, and the key
/// itself (an HMAC secret, or an ES256 or EdDSA public or private key). It holds secrets: it is
/// never written to a log, and its description names only the `kid`.
public struct AccessKeyDefinition: Sendable, CustomStringConvertible {
    /// The key's identifier, which a token names in its header's `kid`.
    public let kid: String
    /// The algorithm every token naming this key must be signed with.
    public let algorithm: AccessAlgorithm
    let material: Material

    enum Material: Sendable {
        case secret([UInt8])
        case es256Public(ES256PublicKey)
        case es256Private(ES256PrivateKey)
        case edDSAPublic(EdDSA.PublicKey)
        case edDSAPrivate(EdDSA.PrivateKey)
    }

    /// Whether pagerd can sign with this key: a secret or a private key.
    public var canSign: Bool {
        switch material {
        case .secret, .es256Private, .edDSAPrivate: true
        case .es256Public, .edDSAPublic: false
        }
    }

    public var description: String { "access key '\(kid)' (\(algorithm.rawValue))" }

    /// The fewest bytes an HS256 secret may have: the length of its hash.
    public static let minimumSecretBytes = 32
}

/// Why the `accessKeys` setting cannot be used. The reason names a key by its position and
/// `kid`, never by its secret.
public struct AccessKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for example `[1] (kid 'b'): secret must be base64url of at least 32 bytes`.
    public var reason: String

    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

extension AccessKeyDefinition {
    /// The keys of the setting's JSON text (an array of key objects); none for empty text.
    public static func parse(text: String) throws(AccessKeyError) -> [AccessKeyDefinition] {
        guard text.contains(where: { !$0.isWhitespace }) else { return [] }
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch {
            // The parser's message quotes no input, only an offset: nothing secret is repeated.
            throw AccessKeyError("not valid JSON: \(error)")
        }
        return try parse(value)
    }

    /// The keys of the setting's value: an array of `{kid, alg, secret}`, `{kid, alg, publicKey}`
    /// or `{kid, alg, privateKey}` objects, `kid`s unique; null or an empty array for none.
    public static func parse(_ value: JSONValue) throws(AccessKeyError) -> [AccessKeyDefinition] {
        if value.isNull { return [] }
        guard let items = value.arrayValue else {
            throw AccessKeyError("must be an array of keys, not \(value.kindName)")
        }
        var keys: [AccessKeyDefinition] = []
        for (index, item) in items.enumerated() {
            let key = try parse(item, at: index)
            if keys.contains(where: { $0.kid.isSameBytes(as: key.kid) }) {
                throw AccessKeyError("[\(index)] (kid '\(key.kid)'): the kid is used by an earlier key")
            }
            keys.append(key)
        }
        return keys
    }

    private static func parse(_ item: JSONValue, at index: Int) throws(AccessKeyError) -> AccessKeyDefinition {
        guard let object = item.objectValue else {
            throw AccessKeyError("[\(index)]: a key must be an object, not \(item.kindName)")
        }
        guard let kid = object["kid"]?.stringValue, !kid.isEmpty else {
            throw AccessKeyError("[\(index)]: 'kid' must be a non-empty string")
        }
        func fail(_ reason: String) -> AccessKeyError { AccessKeyError("[\(index)] (kid '\(kid)'): \(reason)") }
        guard let name = object["alg"]?.stringValue, let algorithm = AccessAlgorithm(rawValue: name) else {
            throw fail("'alg' must be HS256, ES256 or EdDSA")
        }
        let materials = ["secret", "publicKey", "privateKey"].filter { object[$0] != nil }
        for member in object.keys where !["kid", "alg", "secret", "publicKey", "privateKey"].contains(member) {
            throw fail("unknown member '\(member)'")
        }
        let allowed = algorithm == .hs256 ? ["secret"] : ["publicKey", "privateKey"]
        guard materials.count == 1, let member = materials.first, allowed.contains(member),
            let text = object[member]?.stringValue
        else {
            throw fail(
                algorithm == .hs256
                    ? "an HS256 key has one string member 'secret'"
                    : "an \(algorithm.rawValue) key has one string member, 'publicKey' or 'privateKey' (PEM)")
        }
        let material: Material
        switch (algorithm, member) {
        case (.hs256, _):
            guard let secret = decodeSecret(text), secret.count >= minimumSecretBytes else {
                throw fail("'secret' must be base64url of at least \(minimumSecretBytes) bytes")
            }
            material = .secret(secret)
        case (.es256, "publicKey"):
            guard let key = try? ES256PublicKey(pem: text) else {
                throw fail("'publicKey' is not a P-256 public key in PEM")
            }
            material = .es256Public(key)
        case (.es256, _):
            guard let key = try? ES256PrivateKey(pem: text) else {
                throw fail("'privateKey' is not a P-256 private key in PEM")
            }
            material = .es256Private(key)
        case (.edDSA, "publicKey"):
            guard let key = try? EdDSA.PublicKey(pem: text) else {
                throw fail("'publicKey' is not an Ed25519 public key in PEM")
            }
            material = .edDSAPublic(key)
        case (.edDSA, _):
            guard let key = try? EdDSA.PrivateKey(pem: text) else {
                throw fail("'privateKey' is not an Ed25519 private key in PEM")
            }
            material = .edDSAPrivate(key)
        }
        return AccessKeyDefinition(kid: kid, algorithm: algorithm, material: material)
    }

    /// A secret in base64url, with or without its `=` padding.
    private static func decodeSecret(_ text: String) -> [UInt8]? {
        var letters = Array(text.utf8)
        while letters.last == UInt8(ascii: "=") { letters.removeLast() }
        return Base64URL.decode(letters)
    }
}
