import JSON
import PagerAccess
import TestSupport
import Testing

/// The `accessKeys` setting: what a key may be, and the refusals that stop pagerd at start-up.
@Suite("Access keys: the setting and minting")
struct AccessKeyTests {
    @Test("the tests' keys parse, in order, and only keys with a secret or a private key sign")
    func parses() async throws {
        let keys = try await AccessTestKeys.keys(AccessTestKeys.standard)
        #expect(keys.kids == ["hs", "es", "ed"] && keys.signingKid == "hs")
        let verifyOnly = try await AccessTestKeys.keys(
            "[" + AccessTestKeys.key("es", "ES256", "publicKey", AccessTestKeys.es256Public) + "]")
        #expect(!verifyOnly.canSign && verifyOnly.signingKid == nil)
        let edFirst = try await AccessTestKeys.keys(
            "[" + AccessTestKeys.key("pub", "ES256", "publicKey", AccessTestKeys.es256Public) + ", "
                + AccessTestKeys.key("ed", "EdDSA", "privateKey", AccessTestKeys.edDSAPrivate) + ", "
                + AccessTestKeys.key("hs", "HS256", "secret", AccessTestKeys.secret) + "]")
        #expect(edFirst.signingKid == "ed")
        #expect(try AccessKeyDefinition.parse(text: "  ").isEmpty)
        #expect(try AccessKeyDefinition.parse(text: "[]").isEmpty)
    }

    static let short = Base64URL.encode(Array("31-bytes-of-secret-is-too-few!!".utf8))

    static let bad: [(text: String, reason: String)] = [
        ("{}", "must be an array of keys, not an object"),
        ("[1]", "[0]: a key must be an object, not a number"),
        (#"[{"alg": "HS256", "secret": "x"}]"#, "[0]: 'kid' must be a non-empty string"),
        (
            "[" + AccessTestKeys.key("a", "RS256", "secret", AccessTestKeys.secret) + "]",
            "[0] (kid 'a'): 'alg' must be HS256, ES256 or EdDSA"
        ),
        (
            "[" + AccessTestKeys.key("a", "HS256", "secret", short) + "]",
            "[0] (kid 'a'): 'secret' must be base64url of at least 32 bytes"
        ),
        (
            "[" + AccessTestKeys.key("a", "HS256", "secret", "not base64url!") + "]",
            "[0] (kid 'a'): 'secret' must be base64url of at least 32 bytes"
        ),
        (
            "[" + AccessTestKeys.key("a", "HS256", "publicKey", AccessTestKeys.es256Public) + "]",
            "[0] (kid 'a'): an HS256 key has one string member 'secret'"
        ),
        (
            "[" + AccessTestKeys.key("a", "ES256", "secret", AccessTestKeys.secret) + "]",
            "[0] (kid 'a'): an ES256 key has one string member, 'publicKey' or 'privateKey' (PEM)"
        ),
        (
            "[" + AccessTestKeys.key("a", "ES256", "publicKey", AccessTestKeys.edDSAPublic) + "]",
            "[0] (kid 'a'): 'publicKey' is not a P-256 public key in PEM"
        ),
        (
            "[" + AccessTestKeys.key("a", "ES256", "privateKey", AccessTestKeys.es256Public) + "]",
            "[0] (kid 'a'): 'privateKey' is not a P-256 private key in PEM"
        ),
        (
            "[" + AccessTestKeys.key("a", "EdDSA", "publicKey", AccessTestKeys.es256Public) + "]",
            "[0] (kid 'a'): 'publicKey' is not an Ed25519 public key in PEM"
        ),
        (
            #"[{"kid": "a", "alg": "HS256", "secret": "\#(AccessTestKeys.secret)", "use": "sig"}]"#,
            "[0] (kid 'a'): unknown member 'use'"
        ),
        (
            "[" + AccessTestKeys.key("a", "HS256", "secret", AccessTestKeys.secret) + ", "
                + AccessTestKeys.key("a", "EdDSA", "publicKey", AccessTestKeys.edDSAPublic) + "]",
            "[1] (kid 'a'): the kid is used by an earlier key"
        ),
        (#"[{"kid": "a", "kid": "b"}]"#, "not valid JSON: duplicate member name 'kid' at byte 14"),
    ]

    @Test(
        "a bad key is refused with a reason that names it by position and kid, never by its secret",
        arguments: bad.indices)
    func refused(_ index: Int) throws {
        let (text, reason) = Self.bad[index]
        let error = #expect(throws: AccessKeyError.self) { try AccessKeyDefinition.parse(text: text) }
        #expect(error?.reason == reason)
        #expect(error.map { !$0.reason.contains(AccessTestKeys.secret) && !$0.reason.contains(Self.short) } == true)
    }

    @Test("key ids are told apart by their bytes: a precomposed and a decomposed é are two kids")
    func kidsAreBytes() throws {
        let text =
            "[" + AccessTestKeys.key("k\u{E9}", "HS256", "secret", AccessTestKeys.secret) + ", "
            + AccessTestKeys.key("ke\u{301}", "EdDSA", "publicKey", AccessTestKeys.edDSAPublic) + "]"
        #expect(try AccessKeyDefinition.parse(text: text).count == 2)
    }

    @Test(
        "a minted token has exactly the header and claims pagerd promises, and verifies", arguments: ["hs", "es", "ed"])
    func minted(_ kid: String) async throws {
        let signing = try await AccessTestKeys.keys(AccessTestKeys.signing)
        let keys = try await AccessTestKeys.keys(
            "["
                + [
                    ("hs", "HS256", "secret", AccessTestKeys.secret),
                    ("es", "ES256", "privateKey", AccessTestKeys.es256Private),
                    ("ed", "EdDSA", "privateKey", AccessTestKeys.edDSAPrivate),
                ].filter { $0.0 == kid }.map { AccessTestKeys.key($0.0, $0.1, $0.2, $0.3) }.joined() + "]")
        _ = signing
        let verifier = AccessVerifier(keys: keys, audience: "room-7", maxLifetime: 3600)
        let token = try #require(
            verifier.mint(.watch, for: "sess-1", issuedAt: 1_700_000_000, expiresAt: 1_700_000_600))
        let parts = token.split(separator: ".").map { Base64URL.decode(String($0)) ?? [] }
        let header = try JSONParser.parse(parts[0]).objectValue
        let claims = try JSONParser.parse(parts[1]).objectValue
        #expect(header?.keys == ["alg", "kid", "typ"] && header?["kid"] == .string(kid) && header?["typ"] == "at+jwt")
        #expect(claims?.keys == ["aud", "sub", "scope", "iat", "exp"])
        #expect(claims?["aud"] == "room-7" && claims?["sub"] == "sess-1" && claims?["scope"] == "watch")
        #expect(claims?["iat"] == .number(1_700_000_000) && claims?["exp"] == .number(1_700_000_600))
        let grant = try verifier.verify(token, now: 1_700_000_100)
        #expect(grant == AccessGrant(scopes: .watch, subject: .session("sess-1"), expiresAt: 1_700_000_600))
    }

    @Test("without a key that can sign, nothing is minted")
    func noSigner() async throws {
        let keys = try await AccessTestKeys.keys(
            "[" + AccessTestKeys.key("ed", "EdDSA", "publicKey", AccessTestKeys.edDSAPublic) + "]")
        let verifier = AccessVerifier(keys: keys, audience: "pagerd", maxLifetime: 3600)
        #expect(!verifier.canMint && verifier.mint(.watch, for: "s", issuedAt: 0, expiresAt: 60) == nil)
    }

    @Test("scopes cover the ones below them; create covers only itself")
    func coverage() {
        #expect(
            AccessScope.control.covers(.drive) && AccessScope.control.covers(.watch) && AccessScope.drive.covers(.watch)
        )
        #expect(!AccessScope.watch.covers(.drive) && !AccessScope.drive.covers(.control))
        #expect(!AccessScope.control.covers(.create) && !AccessScope.create.covers(.watch))
        #expect(AccessScopes(claim: "create  watch x").claim == "watch create")
        // Split at every space byte, even one a combining mark follows; names compared as bytes.
        #expect(AccessScopes(claim: "watch \u{301}x").claim == "watch")
        #expect(AccessScopes(claim: "\u{212A}watch drive\u{301}").claim == "")
    }

    @Test("base64url: unpadded, the URL alphabet, canonical")
    func base64url() {
        #expect(Base64URL.encode(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw")
        #expect(Base64URL.decode("YW55IGNhcm5hbCBwbGVhcw") == Array("any carnal pleas".utf8))
        #expect(Base64URL.decode("YW55IGNhcm5hbCBwbGVhcw==") == nil)
        #expect(Base64URL.decode("YW55IGNhcm5hbCBwbGVhcx") == nil)  // unused bits set
        #expect(Base64URL.decode("+/") == nil && Base64URL.decode("-w") == [0xFB] && Base64URL.decode("-_") == nil)
        #expect(Base64URL.decode("A") == nil && Base64URL.decode("") == [])
    }
}
