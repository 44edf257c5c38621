public import PagerAccess

/// Keys made for the tests (never used anywhere else): an HS256 secret, a P-256 pair and an
/// Ed25519 pair, in the forms the `accessKeys` setting takes.
public enum AccessTestKeys {
    /// 32 bytes, base64url.
    public static let secret = Base64URL.encode(Array("pagerd-tests-secret-32-bytes-ok!".utf8))
    /// Another 32-byte secret, for a key pagerd does not have.
    public static let otherSecret = Base64URL.encode(Array("a-different-secret-of-32-bytes!!".utf8))

    public static let es256Private = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSYqSpoB//ilfTrJI
        dNGTE66vy3FXLXCK6MiLNmgnDSmhRANCAAT7I2aqaTW6/bscq58M8oWk/GCtCoer
        zic5n8pw1KkKlqXTuwwTUxs5UhhhEPfST2aVpjyO8cfxqUm5uaNWy+Ee
        -----END PRIVATE KEY-----
        """
    public static let es256Public = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE+yNmqmk1uv27HKufDPKFpPxgrQqH
        q84nOZ/KcNSpCpal07sME1MbOVIYYRD30k9mlaY8jvHH8alJubmjVsvhHg==
        -----END PUBLIC KEY-----
        """
    public static let edDSAPrivate = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEII3jmF2ytroFCluFfkQc6d6IBX47Gh8E72WXDjEapP4N
        -----END PRIVATE KEY-----
        """
    public static let edDSAPublic = """
        -----BEGIN PUBLIC KEY-----
        MCowBQYDK2VwAyEALz12OuuFeueDmvMLUXXKrWwliIvELi9va/pzpmBNlmE=
        -----END PUBLIC KEY-----
        """

    /// One key object of the setting, as JSON text.
    public static func key(_ kid: String, _ alg: String, _ member: String, _ value: String) -> String {
        let escaped = value.replacingNewlines()
        return #"{"kid": "\#(kid)", "alg": "\#(alg)", "\#(member)": "\#(escaped)"}"#
    }

    /// The setting pagerd's tests run with: `hs` (HS256, signs), `es` (ES256 public key) and
    /// `ed` (EdDSA public key).
    public static let standard =
        "[" + key("hs", "HS256", "secret", secret) + ", " + key("es", "ES256", "publicKey", es256Public) + ", "
        + key("ed", "EdDSA", "publicKey", edDSAPublic) + "]"

    /// The keys that sign the tests' tokens: the same `kid`s with the private halves, and `other`,
    /// an HS256 key pagerd does not have.
    public static let signing =
        "[" + key("hs", "HS256", "secret", secret) + ", " + key("es", "ES256", "privateKey", es256Private) + ", "
        + key("ed", "EdDSA", "privateKey", edDSAPrivate) + ", " + key("other", "HS256", "secret", otherSecret) + "]"

    /// Prepared keys from setting text.
    public static func keys(_ text: String) async throws -> AccessKeys {
        try await AccessKeys.make(try AccessKeyDefinition.parse(text: text))
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        var result = ""
        for character in self { result += character == "\n" ? "\\n" : String(character) }
        return result
    }
}

/// Builds tokens as a client's backend would, or as an attacker might: the header and the
/// payload are given as JSON text, written as they are (a repeated member stays repeated).
public struct TokenForge: Sendable {
    /// The keys that sign.
    public let keys: AccessKeys

    /// A forge signing with ``AccessTestKeys/signing``.
    public static func make() async throws -> TokenForge {
        TokenForge(keys: try await AccessTestKeys.keys(AccessTestKeys.signing))
    }

    public init(keys: AccessKeys) { self.keys = keys }

    /// A token of `header` and `payload`, signed with key `signer` (nil: no signature at all).
    public func token(header: String, payload: String, signer: String?) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        guard let signer else { return input + "." }
        let signature = keys.signature(of: Array(input.utf8), withKey: signer) ?? []
        return input + "." + Base64URL.encode(signature)
    }

    /// A well-formed token signed with `kid` (and its algorithm): `scope` for session `sub`
    /// (none when nil), expiring at `exp`, for `aud`.
    public func token(
        kid: String = "hs", scope: String, sub: String? = "*", exp: Double, iat: Double? = nil,
        aud: String = "pagerd"
    ) -> String {
        let alg = ["hs": "HS256", "es": "ES256", "ed": "EdDSA", "other": "HS256"][kid] ?? "HS256"
        var claims = #"{"aud": "\#(aud)", "scope": "\#(scope)", "exp": \#(Self.number(exp))"#
        if let sub { claims += #", "sub": "\#(sub)""# }
        if let iat { claims += #", "iat": \#(Self.number(iat))"# }
        claims += "}"
        return token(header: #"{"alg": "\#(alg)", "kid": "\#(kid)", "typ": "JWT"}"#, payload: claims, signer: kid)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
