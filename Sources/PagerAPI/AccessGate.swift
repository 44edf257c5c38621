import HTTPTypes
import MicroHTTP
import PagerAccess

/// What a route asks of a request's credentials.
enum AccessRequirement: Equatable {
    /// Nothing: a route outside `/v1`.
    case none
    /// Any valid token, whatever its scopes and subject (the templates).
    case anyToken
    /// The `create` scope (`POST /v1/sessions`).
    case create
    /// A session scope, on the session the path names.
    case session(AccessScope)
    /// `authToken`: a `/v1` route no scope reaches (none today; a route added outside
    /// `/v1/sessions/{id}` without a rule here falls to it rather than opening up). A route added
    /// under a session without a rule needs `control`, which covers every request on its session
    /// that `watch` and `drive` do not.
    case authToken

    /// The routes that `watch` reads, by the part of the pattern after `/v1/sessions/{id}`.
    private static let watched: Set<String> = ["", "/settings", "/pages", "/neighbors", "/events"]
    /// The commands that move the pager, which `drive` allows.
    private static let moves: Set<String> = ["/next", "/previous", "/select", "/scroll", "/transition", "/autoAdvance"]

    /// The requirement of the route `pattern` with `method` (HEAD is routed as GET).
    static func of(method: HTTPRequest.Method, pattern: String) -> AccessRequirement {
        guard pattern.hasPrefix("/v1/") else { return .none }
        if pattern == "/v1/templates" || pattern.hasPrefix("/v1/templates/") { return .anyToken }
        if pattern == "/v1/sessions" { return method == .post ? .create : .authToken }
        let session = "/v1/sessions/{id}"
        guard pattern.hasPrefix(session) else { return .authToken }
        let rest = String(pattern.dropFirst(session.count))
        guard rest.isEmpty || rest.hasPrefix("/") else { return .authToken }
        if method == .get, watched.contains(rest) { return .session(.watch) }
        if method == .post, moves.contains(rest) { return .session(.drive) }
        return .session(.control)
    }
}

/// Decides who sent a `/v1` request and whether that allows it: the operator's `authToken`, or an
/// access token checked by the verifier. Every refusal is counted by reason.
struct AccessGate: Sendable {
    let authToken: String?
    let verifier: AccessVerifier?
    let clock: any AccessClock
    let metrics: APIMetrics

    /// The name of the query argument an event stream's token may come in (RFC 6750 §2.3).
    static let queryName = "access_token"

    /// Whether requests are let through without any credential.
    var isOpen: Bool { authToken == nil && verifier == nil }

    /// Whether access tokens are in use: keys are configured.
    var usesTokens: Bool { verifier != nil }

    /// Who sent the request: its credential, from an `Authorization: Bearer` header or, when
    /// `readsQuery` (an event stream, with keys configured), an access token from
    /// `?access_token=` (never `authToken`, which stays out of URLs); or the 401 that answers it.
    /// A header of another scheme carries no token (RFC 6750 §3.1: the challenge has no error).
    func authenticate(_ request: Request, readsQuery: Bool) -> Result<Authorization, APIError> {
        if isOpen { return .success(.open) }
        let header = request.headers.value(of: .authorization).flatMap(Self.bearerToken)
        let queried = readsQuery && usesTokens ? request.query.filter { $0.name == Self.queryName }.map(\.value) : []
        guard header != nil || !queried.isEmpty else {
            return .failure(
                refusal("missing", detail: Self.missingDetail(readsQuery: readsQuery && usesTokens), sent: false))
        }
        guard (header == nil ? 0 : 1) + queried.count == 1 else {
            return .failure(
                refusal(
                    "two_tokens", detail: "Send one token, in the Authorization header or in access_token, not both.",
                    sent: true))
        }
        if let header, let authToken, ConstantTime.equal(Array(header.utf8), Array(authToken.utf8)) {
            return .success(.authToken)
        }
        guard let verifier else {
            return .failure(refusal("auth_token", detail: "The bearer token is not valid.", sent: true))
        }
        do throws(AccessRefusal) {
            return .success(.token(try verifier.verify(header ?? queried[0], now: clock.now())))
        } catch {
            return .failure(refusal(error.rawValue, detail: error.detail, sent: true))
        }
    }

    /// The 403 that answers a request `authorization` does not allow, or nil when it does.
    /// `id` is the session the path names, if any.
    func authorize(_ authorization: Authorization, _ requirement: AccessRequirement, session id: String?) -> APIError? {
        guard case .token(let grant) = authorization else { return nil }
        switch requirement {
        case .none, .anyToken: return nil
        case .create:
            guard grant.allows(.create, on: nil) else {
                return forbidden(
                    "insufficient_scope", needing: .create,
                    detail: "Creating a session needs a token with the 'create' scope.")
            }
            return nil
        case .session(let scope):
            guard grant.scopes.covers(scope) else { return forbidden("insufficient_scope", needing: scope) }
            guard let id, grant.subject.names(id) else { return forbidden("other_session", needing: scope) }
            return nil
        case .authToken:
            return forbidden("insufficient_scope", needing: nil)
        }
    }

    /// The 403 a token gets for asking more than it may (a route its scopes or subject do not
    /// cover, or a mint it may not make); counted by `reason`.
    func forbidden(_ reason: String, needing scope: AccessScope?, detail: String? = nil) -> APIError {
        metrics.recordAccessRefusal(reason)
        let challenge = scope.map { #"Bearer error="insufficient_scope", scope="\#($0.rawValue)""# }
        return APIError(
            status: 403, code: .forbidden,
            detail: detail
                ?? (scope.map { "This request needs a token with the '\($0.rawValue)' scope for this session." }
                    ?? "No access token allows this request."),
            headers: [(.wwwAuthenticate, challenge ?? #"Bearer error="insufficient_scope""#)])
    }

    /// A 401, counted under `reason`; `sent` when a token came in a form the route reads.
    private func refusal(_ reason: String, detail: String, sent: Bool) -> APIError {
        metrics.recordAccessRefusal(reason)
        return APIError(
            status: 401, code: .unauthorized, detail: detail,
            headers: [
                (.wwwAuthenticate, sent ? #"Bearer error="invalid_token""# : #"Bearer"#)
            ])
    }

    private static func missingDetail(readsQuery: Bool) -> String {
        readsQuery
            ? "This route needs 'Authorization: Bearer <token>' or '?access_token=<token>'."
            : "This route needs 'Authorization: Bearer <token>'."
    }

    /// The token of an `Authorization: Bearer <token>` value (the scheme's name in any case);
    /// nil for another scheme.
    private static func bearerToken(_ header: String) -> String? {
        let prefix = "bearer "
        guard header.lowercased().hasPrefix(prefix) else { return nil }
        return String(header.dropFirst(prefix.count)).trimmingASCIISpaces()
    }

    /// Every reason a refusal is counted under: a fixed set, so the metrics have a bounded
    /// number of series.
    static let refusalReasons: [String] =
        ["missing", "two_tokens", "auth_token"] + AccessRefusal.allCases.map(\.rawValue) + [
            "insufficient_scope", "other_session",
        ]
}
