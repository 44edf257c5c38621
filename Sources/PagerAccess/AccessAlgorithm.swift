/// A signature algorithm a configured key is used with. A token's `alg` must name its key's
/// algorithm: the algorithm is never taken from the token.
public enum AccessAlgorithm: String, Sendable, CaseIterable {
    /// HMAC with SHA-256, a shared secret.
    case hs256 = "HS256"
    /// ECDSA on P-256 with SHA-256; the signature is R‖S, 32 bytes each (RFC 7518 §3.4).
    case es256 = "ES256"
    /// Ed25519.
    case edDSA = "EdDSA"

    /// The length in bytes of every signature of this algorithm.
    public var signatureLength: Int {
        switch self {
        case .hs256: 32
        case .es256, .edDSA: 64
        }
    }
}
