import Foundation
import HTTPTypes
import JSON
import PagerAPI
import PagerAccess
import TestSupport
import Testing

@testable import MicroHTTP

/// Every route against every kind of credential: what each scope reaches, what it does not (403
/// naming the least scope that would), and that a covered request goes on to do its work.
@Suite("Access tokens: every scope against every route")
struct AccessScopeTableTests {
    /// A route as a client calls it on session `S` (and page `photos` of the `media` template):
    /// the least scope that covers it, and the status it answers once covered.
    struct Call: Sendable, CustomStringConvertible {
        let method: String
        let path: String
        let body: String?
        let needs: String
        let status: Int
        var description: String { "\(method) \(path)" }
    }

    static let calls: [Call] = [
        Call(method: "GET", path: "/v1/templates", body: nil, needs: "any", status: 200),
        Call(method: "GET", path: "/v1/templates/media", body: nil, needs: "any", status: 200),
        Call(method: "POST", path: "/v1/sessions", body: #"{"template": "media"}"#, needs: "create", status: 201),
        Call(method: "GET", path: "/v1/sessions/S", body: nil, needs: "watch", status: 200),
        Call(method: "HEAD", path: "/v1/sessions/S", body: nil, needs: "watch", status: 200),
        Call(method: "GET", path: "/v1/sessions/S/settings", body: nil, needs: "watch", status: 200),
        Call(method: "GET", path: "/v1/sessions/S/pages", body: nil, needs: "watch", status: 200),
        Call(method: "GET", path: "/v1/sessions/S/neighbors", body: nil, needs: "watch", status: 200),
        Call(method: "GET", path: "/v1/sessions/S/events", body: nil, needs: "watch", status: 200),
        Call(method: "POST", path: "/v1/sessions/S/next", body: nil, needs: "drive", status: 200),
        Call(method: "POST", path: "/v1/sessions/S/previous", body: nil, needs: "drive", status: 200),
        Call(method: "POST", path: "/v1/sessions/S/select", body: #"{"index": 2}"#, needs: "drive", status: 200),
        Call(method: "POST", path: "/v1/sessions/S/scroll", body: #"{"progress": 0.25}"#, needs: "drive", status: 200),
        Call(
            method: "POST", path: "/v1/sessions/S/transition", body: #"{"phase": "begin", "to": 1}"#, needs: "drive",
            status: 200),
        Call(
            method: "POST", path: "/v1/sessions/S/autoAdvance", body: #"{"action": "stop"}"#, needs: "drive",
            status: 200),
        Call(
            method: "PATCH", path: "/v1/sessions/S", body: #"{"viewport": {"width": 400}}"#, needs: "control",
            status: 200),
        Call(method: "DELETE", path: "/v1/sessions/S", body: nil, needs: "control", status: 204),
        Call(
            method: "POST", path: "/v1/sessions/S/pages", body: #"{"page": {"id": "new", "title": "New"}}"#,
            needs: "control", status: 200),
        Call(
            method: "PUT", path: "/v1/sessions/S/pages", body: #"{"pages": [{"id": "a", "title": "A"}]}"#,
            needs: "control", status: 200),
        Call(
            method: "PATCH", path: "/v1/sessions/S/pages/photos", body: #"{"title": "Pics"}"#, needs: "control",
            status: 200),
        Call(method: "DELETE", path: "/v1/sessions/S/pages/photos", body: nil, needs: "control", status: 200),
        Call(
            method: "POST", path: "/v1/sessions/S/pages/photos/stack", body: #"{"screen": {"id": "detail"}}"#,
            needs: "control", status: 200),
        Call(method: "DELETE", path: "/v1/sessions/S/pages/photos/stack", body: nil, needs: "control", status: 409),
        Call(
            method: "POST", path: "/v1/sessions/S/tokens", body: #"{"scope": "watch"}"#, needs: "control", status: 201),
    ]

    /// A credential: the scope claim and subject of a token (`S` is the session the calls use),
    /// or the operator's `authToken`.
    struct Credential: Sendable, CustomStringConvertible {
        let scope: String
        let sub: String?
        var description: String { scope + " for " + (sub ?? "no session") }
    }

    static let credentials: [Credential] = [
        Credential(scope: "watch", sub: "S"), Credential(scope: "drive", sub: "S"),
        Credential(scope: "control", sub: "S"), Credential(scope: "control", sub: "*"),
        Credential(scope: "control", sub: "another-session"), Credential(scope: "create", sub: nil),
        Credential(scope: "watch create", sub: "S"), Credential(scope: "", sub: "S"),
        Credential(scope: "operator", sub: nil),
    ]

    static let ranks = ["watch": 0, "drive": 1, "control": 2]

    /// The status a call must answer with the credential, and the scope a 403 names.
    static func expected(_ call: Call, _ credential: Credential) -> (status: Int, scope: String?) {
        if credential.scope == "operator" || call.needs == "any" { return (call.status, nil) }
        let words = credential.scope.split(separator: " ").map(String.init)
        if call.needs == "create" { return words.contains("create") ? (call.status, nil) : (403, "create") }
        let needed = ranks[call.needs]!
        let held = words.compactMap { ranks[$0] }.max() ?? -1
        guard held >= needed, credential.sub == "S" || credential.sub == "*" else { return (403, call.needs) }
        return (call.status, nil)
    }

    @Test("each credential reaches exactly the routes its scope and subject cover", arguments: credentials)
    func table(_ credential: Credential) async throws {
        let tester = try await AccessTester()
        for call in Self.calls {
            let id = try await tester.create()
            let token =
                credential.scope == "operator"
                ? AccessTester.authToken
                : tester.forge.token(
                    scope: credential.scope, sub: credential.sub == "S" ? id : credential.sub,
                    exp: tester.clock.now() + 600)
            let path = call.path.replacingOccurrences(of: "/S", with: "/" + id)
            let reply = await tester.api.send(call.method, path, json: call.body, headers: AccessTester.bearer(token))
            let (status, scope) = Self.expected(call, credential)
            #expect(reply.status == status, "\(credential): \(call) answered \(reply.status) \(reply.code ?? "")")
            if let scope {
                #expect(reply.code == "forbidden")
                #expect(
                    reply.headers[.wwwAuthenticate]
                        == #"Bearer error="insufficient_scope", scope="\#(scope)""#)
            }
            if case .stream(let stream) = reply.response.body { stream.close() }
        }
    }

    @Test("without a credential every /v1 route answers 401 with a bare Bearer challenge; others need none")
    func missing() async throws {
        let tester = try await AccessTester()
        let id = try await tester.create()
        for call in Self.calls {
            let reply = await tester.api.send(
                call.method, call.path.replacingOccurrences(of: "/S", with: "/" + id), json: call.body)
            #expect(reply.status == 401, "\(call)")
            #expect(reply.code == "unauthorized" && reply.headers[.wwwAuthenticate] == #"Bearer"#)
        }
        for path in ["/healthz", "/readyz", "/metrics", "/openapi.json"] {
            #expect(await tester.api.send("GET", path).status != 401, "\(path)")
        }
        #expect(await tester.api.send("OPTIONS", "/v1/sessions/\(id)/next").status == 204)
    }

    @Test("the table covers every route the router serves")
    func everyRoute() async throws {
        let tester = try await AccessTester()
        var served: [String] = []
        for route in tester.api.responder.routes where route.pattern.hasPrefix("/v1/") {
            served += route.methods.map { "\($0.rawValue) \(route.pattern)" }
        }
        let called = Set(
            Self.calls.filter { $0.method != "HEAD" }.map { call in
                "\(call.method) "
                    + call.path.replacingOccurrences(of: "/S", with: "/{id}").replacingOccurrences(
                        of: "/photos", with: "/{pageId}"
                    ).replacingOccurrences(of: "/media", with: "/{name}")
            })
        #expect(Set(served) == called)
    }
}
