/// What a valid token allows: its scopes, the session it is about, and when it stops being
/// accepted.
public struct AccessGrant: Sendable, Equatable {
    /// Which sessions a token is about.
    public enum Subject: Sendable, Equatable {
        /// None: a token whose only scope is `create`, without `sub`.
        case none
        /// The session with this id, compared exactly.
        case session(String)
        /// Every session (`sub` is `"*"`).
        case every

        /// Whether the subject names session `id`.
        public func names(_ id: String) -> Bool {
            switch self {
            case .none: false
            case .session(let named): named.isSameBytes(as: id)
            case .every: true
            }
        }
    }

    /// The scopes of the `scope` claim that pagerd knows.
    public let scopes: AccessScopes
    /// The `sub` claim.
    public let subject: Subject
    /// The `exp` claim, in Unix seconds.
    public let expiresAt: Double

    /// Creates a grant.
    public init(scopes: AccessScopes, subject: Subject, expiresAt: Double) {
        self.scopes = scopes
        self.subject = subject
        self.expiresAt = expiresAt
    }

    /// Whether the grant allows a request that needs `scope` on session `id` (nil for `create`,
    /// which is about no session).
    public func allows(_ scope: AccessScope, on id: String?) -> Bool {
        guard scopes.covers(scope) else { return false }
        guard let id else { return true }
        return subject.names(id)
    }
}

/// Why a token is not accepted. Each reason is one label of the refusal count in the metrics, a
/// fixed set.
public enum AccessRefusal: String, Error, Sendable, CaseIterable {
    /// Not three parts of unpadded base64url; a header or payload that is not one JSON object
    /// (a repeated member included).
    case malformed
    /// A header without `alg` or `kid`, or with a member other than `alg`, `kid` and `typ`.
    case header
    /// The `kid` names no configured key.
    case unknownKey = "unknown_key"
    /// The `alg` is not the algorithm of the key its `kid` names.
    case algorithm
    /// The signature does not verify.
    case signature
    /// `exp` (with 30 s of leeway) has passed.
    case expired
    /// `nbf` or `iat` is later than now (with 30 s of leeway).
    case notYetValid = "not_yet_valid"
    /// The token lives longer than `accessTokenMaxLifetime`.
    case lifetime
    /// `aud` does not name `accessAudience`.
    case audience
    /// `exp`, `nbf`, `iat`, `scope` or `sub` is missing where required or of the wrong type.
    case claims

    /// A sentence for the problem document; it never repeats the token.
    public var detail: String {
        switch self {
        case .malformed: "The token is not a JSON Web Token in compact form."
        case .header: "The token's header must have 'alg' and 'kid', and no member but 'alg', 'kid' and 'typ'."
        case .unknownKey: "The token's 'kid' names no key of this server."
        case .algorithm: "The token's 'alg' is not the algorithm of the key its 'kid' names."
        case .signature: "The token's signature does not verify."
        case .expired: "The token has expired."
        case .notYetValid: "The token is not valid yet ('nbf' or 'iat' is in the future)."
        case .lifetime: "The token lives longer than this server accepts."
        case .audience: "The token's 'aud' does not name this server's audience."
        case .claims: "The token's 'exp', 'scope' or 'sub' is missing or not of the right type."
        }
    }
}

extension String {
    /// Whether the two are the same UTF-8 bytes. Claims and key ids are compared so (RFC 7519
    /// §7.3: no normalisation), where `==` would take strings that are only canonically
    /// equivalent (a Kelvin sign and a K, a decomposed é and a precomposed one) as equal.
    func isSameBytes(as other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}
