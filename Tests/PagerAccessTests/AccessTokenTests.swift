import JSON
import PagerAccess
import TestSupport
import Testing

/// The acceptance rules of access tokens, one case per rule, against the verifier alone.
@Suite("Access tokens: what is accepted and why the rest is refused")
struct AccessTokenTests {
    static let now = 1_700_000_000.0
    static let maxLifetime = 86_400

    static func verifier() async throws -> AccessVerifier {
        AccessVerifier(
            keys: try await AccessTestKeys.keys(AccessTestKeys.standard), audience: "pagerd", maxLifetime: maxLifetime)
    }

    static func payload(_ members: String) -> String { "{" + members + "}" }

    /// A header and payload signed with `signer`, as text.
    static func forged(_ forge: TokenForge, header: String, payload: String, signer: String? = "hs") -> String {
        forge.token(header: header, payload: payload, signer: signer)
    }

    static let hsHeader = #"{"alg": "HS256", "kid": "hs"}"#
    static let exp = Int(now) + 600
    static let valid = #""aud": "pagerd", "scope": "watch", "sub": "abc", "exp": \#(exp)"#

    @Test("tokens signed with each configured algorithm are accepted, with their scopes and subject")
    func accepted() async throws {
        let verifier = try await Self.verifier()
        let forge = try await TokenForge.make()
        for kid in ["hs", "es", "ed"] {
            let token = forge.token(kid: kid, scope: "drive", sub: "abc", exp: Self.now + 600)
            let grant = try verifier.verify(token, now: Self.now)
            #expect(grant == AccessGrant(scopes: .drive, subject: .session("abc"), expiresAt: Self.now + 600))
        }
        let every = try verifier.verify(forge.token(scope: "watch foo  control", exp: Self.now + 60), now: Self.now)
        #expect(every.scopes == [.watch, .control] && every.subject == .every)
        let creator = try verifier.verify(forge.token(scope: "create", sub: nil, exp: Self.now + 60), now: Self.now)
        #expect(creator.scopes == .create && creator.subject == .none)
        let listed = forge.token(
            header: Self.hsHeader,
            payload: #"{"aud": ["other", "pagerd"], "scope": "watch", "sub": "s", "exp": \#(Self.exp)}"#, signer: "hs")
        #expect(try verifier.verify(listed, now: Self.now).subject == .session("s"))
    }

    /// Each case: a token (made with the forge) and the refusal it must get.
    static let refusals: [(name: String, refusal: AccessRefusal, make: @Sendable (TokenForge) async throws -> String)] =
        [
            ("expired beyond the leeway", .expired, { $0.token(scope: "watch", exp: now - 31) }),
            (
                "not before, 31 s ahead", .notYetValid,
                { forged($0, header: hsHeader, payload: payload(valid + #", "nbf": \#(Int(now) + 31)"#)) }
            ),
            ("issued 31 s in the future", .notYetValid, { $0.token(scope: "watch", exp: now + 600, iat: now + 31) }),
            (
                "expiring beyond the longest lifetime", .lifetime,
                { $0.token(scope: "watch", exp: now + Double(maxLifetime) + 31) }
            ),
            (
                "living longer than the longest lifetime", .lifetime,
                { $0.token(scope: "watch", exp: now + 100, iat: now + 99 - Double(maxLifetime)) }
            ),
            ("another audience", .audience, { $0.token(scope: "watch", exp: now + 60, aud: "someone-else") }),
            ("an audience differing in case", .audience, { $0.token(scope: "watch", exp: now + 60, aud: "Pagerd") }),
            (
                "an audience list with a number", .audience,
                {
                    forged(
                        $0, header: hsHeader,
                        payload: #"{"aud": ["pagerd", 1], "scope": "watch", "sub": "s", "exp": \#(exp)}"#)
                }
            ),
            (
                "no audience", .audience,
                { forged($0, header: hsHeader, payload: #"{"scope": "watch", "sub": "s", "exp": \#(exp)}"#) }
            ),
            ("a kid pagerd does not have", .unknownKey, { $0.token(kid: "other", scope: "watch", exp: now + 60) }),
            (
                "signed with another key", .signature,
                { forged($0, header: hsHeader, payload: payload(valid), signer: "other") }
            ),
            (
                "alg none, no signature", .algorithm,
                { forged($0, header: #"{"alg": "none", "kid": "hs"}"#, payload: payload(valid), signer: nil) }
            ),
            ("HS256 keyed with the ES256 public key's PEM", .algorithm, { _ in try await hmacWithPublicKey() }),
            (
                "ES256 naming the HS256 key", .algorithm,
                { forged($0, header: #"{"alg": "ES256", "kid": "hs"}"#, payload: payload(valid), signer: "es") }
            ),
            (
                "an embedded jwk", .header,
                {
                    forged(
                        $0, header: #"{"alg": "HS256", "kid": "hs", "jwk": {"kty": "oct", "k": "AAAA"}}"#,
                        payload: payload(valid))
                }
            ),
            (
                "crit", .header,
                { forged($0, header: #"{"alg": "HS256", "kid": "hs", "crit": ["exp"]}"#, payload: payload(valid)) }
            ),
            (
                "jku", .header,
                {
                    forged(
                        $0, header: #"{"alg": "HS256", "kid": "hs", "jku": "https://example.com/k"}"#,
                        payload: payload(valid))
                }
            ),
            (
                "x5c", .header,
                { forged($0, header: #"{"alg": "HS256", "kid": "hs", "x5c": []}"#, payload: payload(valid)) }
            ),
            ("no kid", .header, { forged($0, header: #"{"alg": "HS256"}"#, payload: payload(valid)) }),
            (
                "a typ that is not a string", .header,
                { forged($0, header: #"{"alg": "HS256", "kid": "hs", "typ": 1}"#, payload: payload(valid)) }
            ),
            (
                "a repeated payload member", .malformed,
                { forged($0, header: hsHeader, payload: payload(valid + #", "scope": "control""#)) }
            ),
            (
                "a repeated header member", .malformed,
                { forged($0, header: #"{"alg": "HS256", "kid": "hs", "kid": "hs"}"#, payload: payload(valid)) }
            ),
            ("a payload that is not an object", .malformed, { forged($0, header: hsHeader, payload: "[1]") }),
            ("four parts", .malformed, { $0.token(scope: "watch", exp: now + 60) + ".AAAA" }),
            ("padding", .malformed, { padded($0.token(scope: "watch", exp: now + 60)) }),
            ("a payload changed after signing", .signature, { tampered($0) }),
            ("a signature letter changed", .signature, { flipLastLetter($0.token(scope: "watch", exp: now + 60)) }),
            ("an ES256 signature in DER form", .signature, { derSigned($0) }),
            (
                "no scope", .claims,
                { forged($0, header: hsHeader, payload: #"{"aud": "pagerd", "sub": "s", "exp": \#(exp)}"#) }
            ),
            ("no sub with a session scope", .claims, { $0.token(scope: "create watch", sub: nil, exp: now + 60) }),
            (
                "a sub that is a number", .claims,
                {
                    forged(
                        $0, header: hsHeader, payload: #"{"aud": "pagerd", "scope": "watch", "sub": 7, "exp": \#(exp)}"#
                    )
                }
            ),
            (
                "no exp", .claims,
                { forged($0, header: hsHeader, payload: #"{"aud": "pagerd", "scope": "watch", "sub": "s"}"#) }
            ),
            (
                "an exp that is a string", .claims,
                {
                    forged(
                        $0, header: hsHeader,
                        payload: #"{"aud": "pagerd", "scope": "watch", "sub": "s", "exp": "\#(exp)"}"#)
                }
            ),
        ]

    @Test("every refused token gets its reason", arguments: refusals.indices)
    func refused(_ index: Int) async throws {
        let (name, refusal, make) = Self.refusals[index]
        let verifier = try await Self.verifier()
        let token = try await make(try await TokenForge.make())
        #expect(throws: refusal, "\(name)") { try verifier.verify(token, now: Self.now) }
    }

    @Test("aud, sub and kid are compared byte for byte: strings equal only under Unicode equivalence differ")
    func exactComparison() async throws {
        // "Kiosk-café" with a precomposed é, and a key named "K1": K has an equivalent, the Kelvin
        // sign (U+212A), and é a decomposed form (e, U+0301).
        let key = AccessTestKeys.key("K1", "HS256", "secret", AccessTestKeys.secret)
        let keys = try await AccessTestKeys.keys("[" + key + "]")
        let verifier = AccessVerifier(keys: keys, audience: "Kiosk-caf\u{E9}", maxLifetime: Self.maxLifetime)
        let forge = TokenForge(keys: keys)
        /// `aud` is JSON: a string or an array.
        func token(kid: String = "K1", aud: String = #""Kiosk-caf\u00e9""#, sub: String = "Kab") -> String {
            forge.token(
                header: #"{"alg": "HS256", "kid": "\#(kid)"}"#,
                payload: #"{"aud": \#(aud), "scope": "watch", "sub": "\#(sub)", "exp": \#(Self.exp)}"#, signer: "K1")
        }
        let grant = try verifier.verify(token(), now: Self.now)
        #expect(grant.subject.names("Kab") && !grant.subject.names("\u{212A}ab"))
        let kelvin = try verifier.verify(token(sub: #"\u212Aab"#), now: Self.now)
        #expect(!kelvin.subject.names("Kab"))
        for aud in [#""\u212Aiosk-caf\u00e9""#, #""Kiosk-cafe\u0301""#, #"["other", "Kiosk-cafe\u0301"]"#] {
            #expect(throws: AccessRefusal.audience, "\(aud)") { try verifier.verify(token(aud: aud), now: Self.now) }
        }
        #expect(throws: AccessRefusal.unknownKey) { try verifier.verify(token(kid: #"\u212A1"#), now: Self.now) }
        // Members whose names are only canonically equivalent are two members, not one repeated.
        let members = forge.token(
            header: #"{"alg": "HS256", "kid": "K1"}"#,
            payload: #"{"aud": "Kiosk-caf\u00e9", "scope": "watch", "sub": "Kab", "exp": \#(Self.exp), "#
                + #""K": 1, "\u212A": 2}"#,
            signer: "K1")
        #expect(try verifier.verify(members, now: Self.now).subject.names("Kab"))
    }

    @Test("the leeway is 30 s: a token expired 29 s ago, or not before 29 s from now, is accepted")
    func leeway() async throws {
        let verifier = try await Self.verifier()
        let forge = try await TokenForge.make()
        #expect(throws: Never.self) {
            try verifier.verify(forge.token(scope: "watch", exp: Self.now - 29), now: Self.now)
        }
        let soon = forge.token(
            header: Self.hsHeader, payload: Self.payload(Self.valid + #", "nbf": \#(Int(Self.now) + 29)"#), signer: "hs"
        )
        #expect(throws: Never.self) { try verifier.verify(soon, now: Self.now) }
        let longest = forge.token(scope: "watch", exp: Self.now + Double(Self.maxLifetime) + 29)
        #expect(throws: Never.self) { try verifier.verify(longest, now: Self.now) }
        // Issued 29 s ahead of the verifier's clock, and living exactly the longest lifetime.
        let early = forge.token(scope: "watch", exp: Self.now + 600, iat: Self.now + 29)
        #expect(throws: Never.self) { try verifier.verify(early, now: Self.now) }
        let fullLife = forge.token(
            scope: "watch", exp: Self.now - 100 + Double(Self.maxLifetime), iat: Self.now - 100)
        #expect(throws: Never.self) { try verifier.verify(fullLife, now: Self.now) }
    }

    // MARK: - Forgeries

    /// HS256 over the token, keyed with the bytes of the ES256 public key's PEM (which an
    /// attacker knows), naming the ES256 key: the classic algorithm confusion.
    static func hmacWithPublicKey() async throws -> String {
        let header = #"{"alg": "HS256", "kid": "es"}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload(valid).utf8))
        let secret = Base64URL.encode(Array(AccessTestKeys.es256Public.utf8))
        let keys = try await AccessTestKeys.keys("[" + AccessTestKeys.key("pem", "HS256", "secret", secret) + "]")
        let signature = try #require(keys.signature(of: Array(input.utf8), withKey: "pem"))
        return input + "." + Base64URL.encode(signature)
    }

    static func padded(_ token: String) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        return parts[0] + "=." + parts[1] + "." + parts[2]
    }

    static func tampered(_ forge: TokenForge) -> String {
        let good = forge.token(scope: "watch", sub: "abc", exp: now + 60).split(separator: ".")
        let changed = Base64URL.encode(
            Array(#"{"aud": "pagerd", "scope": "control", "sub": "abc", "exp": \#(Int(now) + 60)}"#.utf8))
        return good[0] + "." + changed + "." + good[2]
    }

    static func flipLastLetter(_ token: String) -> String {
        var letters = Array(token)
        letters[letters.count - 2] = letters[letters.count - 2] == "A" ? "B" : "A"
        return String(letters)
    }

    /// An ES256 signature re-encoded as an ASN.1 DER sequence of two integers, the form some
    /// libraries produce by mistake: RFC 7518 asks for R‖S.
    static func derSigned(_ forge: TokenForge) -> String {
        let token = forge.token(kid: "es", scope: "watch", exp: now + 60)
        let parts = token.split(separator: ".")
        let raw = Base64URL.decode(String(parts[2])) ?? []
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if let first = value.first, first >= 0x80 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return parts[0] + "." + parts[1] + "." + Base64URL.encode([0x30, UInt8(body.count)] + body)
    }
}
