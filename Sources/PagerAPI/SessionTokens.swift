import JSON
import PagerAccess

/// The tokens pagerd mints for a session: the `access` member of a create's answer, and the
/// tokens of `POST /v1/sessions/{id}/tokens`. Each is signed with the first configured key that
/// can sign, for `accessAudience`, and never outlives the access token that asked for it.
struct SessionTokens: Sendable {
    let gate: AccessGate

    /// Whether pagerd can mint: keys are configured and one of them can sign.
    var canMint: Bool { gate.verifier?.canMint ?? false }

    /// The longest a minted token may live.
    var maxLifetime: Int { gate.verifier?.maxLifetime ?? AccessVerifier.defaultMaxLifetime }

    /// A token with `scope` for session `id`, living `lifetime` seconds from now but no longer
    /// than the access token that authorised the request; nil when pagerd cannot sign. A maker
    /// already past its `exp` (still accepted for its 30 s of leeway) mints tokens with its own
    /// `exp`, issued at that `exp`: never issued after they expire, never outliving their maker.
    func mint(
        _ scope: AccessScope, for id: String, lifetime: Int, authorization: Authorization
    ) -> (
        token: String, expiresAt: Int
    )? {
        guard let verifier = gate.verifier else { return nil }
        let now = Int(gate.clock.now().rounded(.down))
        var expiresAt = now + lifetime
        if let grant = authorization.grant, grant.expiresAt.isFinite {
            expiresAt = min(expiresAt, Int(grant.expiresAt.rounded(.down)))
        }
        let issuedAt = min(now, expiresAt)
        guard let token = verifier.mint(scope, for: id, issuedAt: issuedAt, expiresAt: expiresAt) else { return nil }
        return (token, expiresAt)
    }

    /// The state document of a new session with its `access` member appended: a `control` and a
    /// `watch` token, when the create was authorised by `authToken` or a `create` token and
    /// pagerd can sign; otherwise the document unchanged.
    func document(_ document: [UInt8], of id: String, authorization: Authorization) -> [UInt8] {
        guard canMint, authorization != .open,
            let control = mint(.control, for: id, lifetime: maxLifetime, authorization: authorization),
            let watch = mint(.watch, for: id, lifetime: maxLifetime, authorization: authorization),
            document.last == UInt8(ascii: "}")
        else { return document }
        let access = JSONWriter.bytes(capacity: 1024) { writer in
            writer.beginObject()
            for (name, minted) in [("control", control), ("watch", watch)] {
                writer.key(name)
                writer.beginObject()
                writer.member("token", .string(minted.token))
                writer.field("expiresAt")
                writer.int(minted.expiresAt)
                writer.endObject()
            }
            writer.endObject()
        }
        // The document is one object written compactly: the member goes before its last brace.
        return document.dropLast() + Array(#","access":"#.utf8) + access + [UInt8(ascii: "}")]
    }
}
