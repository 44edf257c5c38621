import JWTKit

/// The configured keys, ready to verify tokens and, when one of them can, to sign them. The
/// signatures are jwt-kit's (swift-crypto underneath); which key a token is checked with, and
/// with which algorithm, is decided here from the configuration alone.
public struct AccessKeys: Sendable {
    struct Key: Sendable {
        let kid: String
        let algorithm: AccessAlgorithm
        /// jwt-kit's signer for the key: `verify` (HS256 compared in constant time) and `sign`.
        let signature: any JWTAlgorithm
    }

    let byKid: [String: Key]
    /// The first key with a secret or a private key: the one pagerd signs with.
    let signer: Key?

    /// The keys' identifiers, in the order they were configured.
    public let kids: [String]

    /// Whether pagerd can sign tokens (a key has a secret or a private key).
    public var canSign: Bool { signer != nil }

    /// The `kid` pagerd signs with, if any.
    public var signingKid: String? { signer?.kid }

    /// Prepares `definitions` (already checked by ``AccessKeyDefinition/parse(_:)``). jwt-kit
    /// hands its signers out through an actor, so this is done once, at start-up.
    public static func make(_ definitions: [AccessKeyDefinition]) async throws(AccessKeyError) -> AccessKeys {
        let collection = JWTKeyCollection()
        var byKid: [String: Key] = [:]
        var signer: Key?
        for definition in definitions {
            let kid = JWKIdentifier(string: definition.kid)
            switch definition.material {
            case .secret(let secret):
                await collection.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: kid)
            case .es256Public(let key): await collection.add(ecdsa: key, kid: kid)
            case .es256Private(let key): await collection.add(ecdsa: key, kid: kid)
            case .edDSAPublic(let key): await collection.add(eddsa: key, kid: kid)
            case .edDSAPrivate(let key): await collection.add(eddsa: key, kid: kid)
            }
            let signature: any JWTAlgorithm
            do { signature = try await collection.getKey(for: kid) } catch {
                throw AccessKeyError("kid '\(definition.kid)': the key cannot be used (\(type(of: error)))")
            }
            guard signature.name == definition.algorithm.rawValue else {
                throw AccessKeyError("kid '\(definition.kid)': the key is not an \(definition.algorithm.rawValue) key")
            }
            let key = Key(kid: definition.kid, algorithm: definition.algorithm, signature: signature)
            byKid[definition.kid] = key
            if signer == nil, definition.canSign { signer = key }
        }
        return AccessKeys(byKid: byKid, signer: signer, kids: definitions.map(\.kid))
    }
}

extension AccessKeys {
    /// The signature of `input` with key `kid` under its configured algorithm; nil when no key
    /// has that `kid` or it cannot sign (a public key). Minting uses it, and tests that build
    /// tokens of their own.
    public func signature(of input: [UInt8], withKey kid: String) -> [UInt8]? {
        guard let key = byKid[kid] else { return nil }
        return try? key.signature.sign(input)
    }
}
