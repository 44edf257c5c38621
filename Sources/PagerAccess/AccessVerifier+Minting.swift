import JSON

extension AccessVerifier {
    /// Whether pagerd can mint tokens: a configured key has a secret or a private key.
    public var canMint: Bool { keys.canSign }

    /// A token for session `id` with `scope`, issued at `issuedAt` and expiring at `expiresAt`
    /// (Unix seconds), signed with the first key that can sign; nil when none can. Its header is
    /// `{alg, kid, typ: "at+jwt"}` and its claims exactly `{aud, sub, scope, iat, exp}`.
    public func mint(_ scope: AccessScope, for id: String, issuedAt: Int, expiresAt: Int) -> String? {
        guard let key = keys.signer else { return nil }
        let header = JSONWriter.bytes(capacity: 64) { writer in
            writer.beginObject()
            writer.member("alg", .string(key.algorithm.rawValue))
            writer.member("kid", .string(key.kid))
            writer.member("typ", .string("at+jwt"))
            writer.endObject()
        }
        let claims = JSONWriter.bytes(capacity: 128) { writer in
            writer.beginObject()
            writer.member("aud", .string(audience))
            writer.member("sub", .string(id))
            writer.member("scope", .string(scope.rawValue))
            writer.field("iat")
            writer.int(issuedAt)
            writer.field("exp")
            writer.int(expiresAt)
            writer.endObject()
        }
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        guard let signature = keys.signature(of: Array(signingInput.utf8), withKey: key.kid) else { return nil }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
