import HTTPTypes
import JSON
import MicroHTTP
import PagerAccess
import PagerModel
import PagerSessions
import PagerWire

/// `POST /v1/sessions/{id}/tokens`: mints a `watch`, `drive` or `control` token for the session.
/// `authToken` mints any of them; a `control` token mints `watch` or `drive` only, expiring no
/// later than itself. (Who may reach the route at all, `control` on the session, is checked
/// before it runs.)
struct TokenRoutes {
    let engines: PagerEngines
    let tokens: SessionTokens

    /// The scopes a token can be minted with.
    private enum MintedScope: String, CaseIterable {
        case watch, drive, control

        var scope: AccessScope {
            switch self {
            case .watch: .watch
            case .drive: .drive
            case .control: .control
            }
        }
    }

    /// The lifetime of a minted token when the request names none: an hour, or less when tokens
    /// may not live that long.
    static let defaultLifetime = 3600

    func register(in router: inout Router) {
        let engines = self.engines, tokens = self.tokens
        router.add(.post, "/v1/sessions/{id}/tokens") { context throws(APIError) in
            let longest = tokens.maxLifetime
            let body = try context.request.jsonObjectOrEmpty()
            // The scope asked for decides what the request needs: a token that may not mint it
            // is refused before the rest of the body is looked at, as every 403 comes first.
            if let grant = context.authorization.grant,
                !grant.scopes.covers(.control) || body["scope"]?.stringValue == MintedScope.control.rawValue
            {
                throw tokens.gate.forbidden(
                    "insufficient_scope", needing: nil,
                    detail: "An access token mints only watch and drive tokens; control tokens come from authToken.")
            }
            let reader = try JSONReader.reading(body, allowing: ["scope", "ttl"])
            let (chosen, lifetime) = try reader.read { reader throws(PagerError) in
                guard let scope = try reader.choice("scope", as: MintedScope.self) else {
                    throw .invalid(field: "scope", "'scope' is required: watch, drive or control.")
                }
                let ttl = try reader.integer("ttl") ?? min(Self.defaultLifetime, longest)
                guard (60...longest).contains(ttl) else {
                    throw .invalid(field: "ttl", "'ttl' must be an integer in 60...\(longest) (seconds).")
                }
                return (scope.scope, ttl)
            }
            let id = try context.sessionID()
            let authorization = context.authorization
            return try answer(session: id, in: engines) { engine throws(EngineError) in
                try engine.snapshot(of: id).version
            } then: { _ in
                guard
                    let minted = tokens.mint(chosen, for: id.rawValue, lifetime: lifetime, authorization: authorization)
                else {
                    return APIError(
                        status: 409, code: .signingUnavailable,
                        detail: "pagerd has no key to sign with: accessKeys holds no secret and no private key."
                    ).response
                }
                let body = JSONWriter.bytes(capacity: 512) { writer in
                    writer.beginObject()
                    writer.member("token", .string(minted.token))
                    writer.member("scope", .string(chosen.rawValue))
                    writer.member("sessionId", .string(id.rawValue))
                    writer.field("expiresAt")
                    writer.int(minted.expiresAt)
                    writer.endObject()
                }
                return Response(
                    status: .created,
                    headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"], body: body)
            }
        }
    }
}
