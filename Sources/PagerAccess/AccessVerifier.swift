import JSON
import JWTKit

/// Accepts or refuses access tokens (JSON Web Tokens, compact form) under pagerd's rules, and
/// signs the tokens pagerd mints. It holds no mutable state and takes the time as an argument.
///
/// jwt-kit checks signatures; everything it might accept that pagerd refuses is decided here,
/// before and after: the header and the payload are read with pagerd's strict JSON parser (which
/// refuses a repeated member), the header may hold only `alg`, `kid` and `typ` (no embedded key,
/// no `crit`), the key is found by `kid` and its configured algorithm must be the token's `alg`,
/// and the claims (`exp`, `nbf`, `iat`, `aud`, `scope`, `sub`) are checked here.
public struct AccessVerifier: Sendable {
    /// Seconds of clock difference allowed between pagerd and whoever signed a token.
    public static let leeway = 30.0
    /// The audience tokens name unless configured otherwise.
    public static let defaultAudience = "pagerd"
    /// The longest a token may live unless configured otherwise: a day.
    public static let defaultMaxLifetime = 86_400
    /// The lifetimes that may be configured: a minute to 30 days.
    public static let lifetimeRange = 60...2_592_000

    /// The keys.
    public let keys: AccessKeys
    /// The `aud` every token must name.
    public let audience: String
    /// The longest a token may live, in seconds.
    public let maxLifetime: Int

    /// A verifier of tokens signed with `keys` for `audience`, living at most `maxLifetime` seconds.
    public init(keys: AccessKeys, audience: String, maxLifetime: Int) {
        self.keys = keys
        self.audience = audience
        self.maxLifetime = maxLifetime
    }

    /// The grant of `token` at Unix time `now`, or why it is refused.
    public func verify(_ token: String, now: Double) throws(AccessRefusal) -> AccessGrant {
        let bytes = Array(token.utf8)
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        guard dots.count == 2 else { throw .malformed }
        let headerPart = bytes[..<dots[0]], payloadPart = bytes[(dots[0] + 1)..<dots[1]]
        let signaturePart = bytes[(dots[1] + 1)...]
        guard let headerBytes = Base64URL.decode(headerPart), let payloadBytes = Base64URL.decode(payloadPart),
            let signature = Base64URL.decode(signaturePart),
            let header = (try? JSONParser.parse(headerBytes))?.objectValue
        else { throw .malformed }
        let key = try key(for: header)
        guard signature.count == key.algorithm.signatureLength,
            (try? key.signature.verify(signature, signs: bytes[..<dots[1]])) == true
        else { throw .signature }
        guard let claims = (try? JSONParser.parse(payloadBytes))?.objectValue else { throw .malformed }
        return try grant(of: claims, now: now)
    }

    /// The key the header names, once the header is one pagerd accepts.
    private func key(for header: JSONObject) throws(AccessRefusal) -> AccessKeys.Key {
        guard header.keys.allSatisfy({ ["alg", "kid", "typ"].contains($0) }),
            let alg = header["alg"]?.stringValue, let kid = header["kid"]?.stringValue,
            header["typ"].map({ $0.stringValue != nil }) ?? true
        else { throw .header }
        guard let key = keys.byKid[kid], key.kid.isSameBytes(as: kid) else { throw .unknownKey }
        guard key.algorithm.rawValue == alg else { throw .algorithm }
        return key
    }

    /// The claims' grant: times (with ``leeway``), lifetime, audience, scopes and subject.
    private func grant(of claims: JSONObject, now: Double) throws(AccessRefusal) -> AccessGrant {
        guard let exp = claims["exp"]?.numberValue, exp.isFinite else { throw .claims }
        var issued: Double?
        for name in ["nbf", "iat"] {
            guard let value = claims[name] else { continue }
            guard let time = value.numberValue, time.isFinite else { throw .claims }
            guard time <= now + Self.leeway else { throw .notYetValid }
            if name == "iat" { issued = time }
        }
        guard exp > now - Self.leeway else { throw .expired }
        let lifetime = Double(maxLifetime)
        guard exp <= now + lifetime + Self.leeway, issued.map({ exp - $0 <= lifetime }) ?? true else {
            throw .lifetime
        }
        guard names(audience, in: claims["aud"]) else { throw .audience }
        guard let scope = claims["scope"]?.stringValue else { throw .claims }
        let scopes = AccessScopes(claim: scope)
        let subject: AccessGrant.Subject
        switch claims["sub"] {
        case .string("*")?: subject = .every
        case .string(let id)?: subject = .session(id)
        case nil where scopes == .create: subject = .none
        default: throw .claims
        }
        return AccessGrant(scopes: scopes, subject: subject, expiresAt: exp)
    }

    /// Whether `aud` is the audience, or an array of strings one of which is.
    private func names(_ audience: String, in aud: JSONValue?) -> Bool {
        switch aud {
        case .string(let named)?: return named.isSameBytes(as: audience)
        case .array(let items)?:
            guard items.allSatisfy({ $0.stringValue != nil }) else { return false }
            return items.contains { $0.stringValue?.isSameBytes(as: audience) == true }
        default: return false
        }
    }
}
