import HTTPTypes
import JSON
import PagerAPI
import PagerAccess
import PagerSessions
import TestSupport
import Testing

@testable import MicroHTTP

/// The order of the checks, refused tokens, query tokens, minted tokens and event streams that
/// end with their token.
@Suite("Access tokens: the rules of the HTTP face")
struct AccessRulesTests {
    typealias T = AccessTester

    @Test("an invalid token gets 401 invalid_token whatever the path and method; a valid one learns 404 and 405")
    func orderOfChecks() async throws {
        let tester = try await T()
        let api = tester.api
        let expired = tester.forge.token(scope: "control", exp: tester.clock.now() - 60)
        for (method, path) in [("GET", "/v1/nowhere"), ("GET", "/v1/sessions/x/next"), ("POST", "/v1/sessions/x/next")]
        {
            let none = await api.send(method, path)
            #expect(
                none.status == 401 && none.headers[.wwwAuthenticate] == #"Bearer"#, "\(method) \(path)")
            let bad = await api.send(method, path, headers: T.bearer(expired))
            #expect(
                bad.status == 401 && bad.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#)
            #expect(bad.headers[.allow] == nil)
        }
        // Any valid token, whatever it covers, learns that a path names no route or takes other methods.
        let watchOther = tester.token("watch", "someone-else")
        #expect(await api.send("GET", "/v1/nowhere", headers: T.bearer(watchOther)).code == "not_found")
        let wrongMethod = await api.send("GET", "/v1/sessions/x/next", headers: T.bearer(watchOther))
        #expect(wrongMethod.status == 405 && wrongMethod.headers[.allow] == "POST, OPTIONS")
        // Not covered: 403 before the session lookup, If-Match and the body.
        let ghost = await api.send(
            "POST", "/v1/sessions/ghost/select", json: "{not json",
            headers: T.bearer(watchOther) + [("If-Match", "\"9\"")])
        #expect(ghost.status == 403 && ghost.code == "forbidden")
        // Covered: the route's own answers.
        let controlGhost = tester.token("control", "ghost")
        #expect(
            await api.send("POST", "/v1/sessions/ghost/next", headers: T.bearer(controlGhost)).code
                == "session_not_found")
        // Outside /v1 nothing is asked for; /v1 without keys is as before (the tests of authToken).
        #expect(await api.send("GET", "/nowhere").status == 404)
    }

    @Test("refused tokens are counted in /metrics by reason, and the token is never echoed")
    func refusalsCounted() async throws {
        let tester = try await T()
        let api = tester.api
        let expired = tester.forge.token(scope: "watch", exp: tester.clock.now() - 31)
        let otherAudience = tester.forge.token(scope: "watch", exp: tester.clock.now() + 60, aud: "elsewhere")
        for token in [expired, expired, otherAudience] {
            let reply = await api.send("GET", "/v1/templates", headers: T.bearer(token))
            #expect(reply.status == 401 && !String(decoding: reply.body, as: UTF8.self).contains(token))
        }
        _ = await api.send("GET", "/v1/templates")
        let id = try await tester.create()
        _ = await api.send("POST", "/v1/sessions/\(id)/next", headers: T.bearer(tester.token("watch", id)))
        _ = await api.send("POST", "/v1/sessions/\(id)/next", headers: T.bearer(tester.token("drive", "other")))
        let metrics = String(decoding: await api.send("GET", "/metrics").body, as: UTF8.self)
        for (reason, count) in [
            ("expired", 2), ("audience", 1), ("missing", 1), ("insufficient_scope", 1), ("other_session", 1),
            ("signature", 0),
        ] {
            #expect(metrics.contains(#"pagerd_access_refusals_total{reason="\#(reason)"} \#(count)"#), "\(reason)")
        }
    }

    @Test("a token for one session does nothing on another, even one that exists")
    func oneSessionOnly() async throws {
        let tester = try await T()
        let first = try await tester.create(), second = try await tester.create()
        let control = tester.token("control", first)
        #expect(await tester.api.send("GET", "/v1/sessions/\(first)", headers: T.bearer(control)).status == 200)
        for (method, path) in [("GET", ""), ("POST", "/next"), ("DELETE", "")] {
            let reply = await tester.api.send(method, "/v1/sessions/\(second)" + path, headers: T.bearer(control))
            #expect(reply.status == 403 && reply.code == "forbidden", "\(method) \(path)")
        }
        // Nor does it create one: the refusal names the scope that would.
        let create = await tester.api.send(
            "POST", "/v1/sessions", json: #"{"template": "mall"}"#, headers: T.bearer(control))
        #expect(
            create.status == 403 && create.json["detail"] == "Creating a session needs a token with the 'create' scope."
        )
        #expect(
            create.headers[.wwwAuthenticate] == #"Bearer error="insufficient_scope", scope="create""#)
        #expect(tester.api.engine.sessionCount == 2)
    }

    @Test("only the event stream reads ?access_token=, and never together with the header")
    func queryTokens() async throws {
        let tester = try await T()
        let api = tester.api
        let id = try await tester.create()
        let watch = tester.token("watch", id), control = tester.token("control", id)
        let stream = await api.send("GET", "/v1/sessions/\(id)/events", query: [("access_token", watch)])
        #expect(stream.status == 200 && stream.headers[.contentType] == "text/event-stream; charset=utf-8")
        if case .stream(let body) = stream.response.body { body.close() }
        for (method, path) in [("GET", ""), ("GET", "/pages"), ("POST", "/next"), ("DELETE", "")] {
            let reply = await api.send(method, "/v1/sessions/\(id)" + path, query: [("access_token", control)])
            // No token in a form the route reads: the challenge has no error.
            #expect(
                reply.status == 401 && reply.headers[.wwwAuthenticate] == #"Bearer"#, "\(method) \(path)"
            )
        }
        let both = await api.send(
            "GET", "/v1/sessions/\(id)/events", headers: T.bearer(watch), query: [("access_token", watch)])
        #expect(both.status == 401 && both.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
        let twice = await api.send(
            "GET", "/v1/sessions/\(id)/events", query: [("access_token", watch), ("access_token", watch)])
        #expect(twice.status == 401)
        let bad = await api.send("GET", "/v1/sessions/\(id)/events", query: [("access_token", "x.y.z")])
        #expect(bad.status == 401 && bad.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
    }

    @Test("a header of another scheme carries no token; authToken is never read from the query; HEAD reads it")
    func formsOfToken() async throws {
        let tester = try await T()
        let api = tester.api
        let id = try await tester.create()
        let basic = [("Authorization", "Basic dXNlcjpwYXNz")]
        // RFC 6750 §3.1: no token in a form the route reads, so the challenge carries no error.
        let other = await api.send("GET", "/v1/sessions/\(id)", headers: basic)
        #expect(other.status == 401 && other.headers[.wwwAuthenticate] == #"Bearer"#)
        let watch = tester.token("watch", id)
        let beside = await api.send(
            "GET", "/v1/sessions/\(id)/events", headers: basic, query: [("access_token", watch)])
        #expect(beside.status == 200)
        if case .stream(let body) = beside.response.body { body.close() }
        // The operator's secret stays out of URLs: in the query it is not a token pagerd accepts.
        let secret = await api.send("GET", "/v1/sessions/\(id)/events", query: [("access_token", T.authToken)])
        #expect(
            secret.status == 401
                && secret.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#)
        let operatorStream = await api.send("GET", "/v1/sessions/\(id)/events", headers: T.bearer(T.authToken))
        #expect(operatorStream.status == 200)
        if case .stream(let body) = operatorStream.response.body { body.close() }
        // HEAD of the stream reads the query token as GET does.
        let head = await api.send("HEAD", "/v1/sessions/\(id)/events", query: [("access_token", watch)])
        #expect(head.status == 200)
        if case .stream(let body) = head.response.body { body.close() }
        let headControl = await api.send(
            "HEAD", "/v1/sessions/\(id)", query: [("access_token", tester.token("control", id))])
        #expect(headControl.status == 401)
    }

    @Test("without access keys, a query token is not read and authToken alone is asked for")
    func withoutKeys() async throws {
        let api = try APITester(options: APIOptions(authToken: "tok"))
        let id = try await createWith(api, "tok")
        let reply = await api.send("GET", "/v1/sessions/\(id)/events", query: [("access_token", "tok")])
        #expect(reply.status == 401)
        #expect(await api.send("GET", "/v1/nowhere").status == 404)
        let tokens = await api.send(
            "POST", "/v1/sessions/\(id)/tokens", json: #"{"scope": "watch"}"#,
            headers: [("Authorization", "Bearer tok")])
        #expect(tokens.status == 409 && tokens.code == "signing_unavailable")
        let created = await api.send(
            "POST", "/v1/sessions", json: #"{"template": "media"}"#, headers: [("Authorization", "Bearer tok")])
        #expect(created.status == 201 && created["access"] == nil)
    }

    func createWith(_ api: APITester, _ token: String) async throws -> String {
        let reply = await api.send(
            "POST", "/v1/sessions", json: #"{"template": "media"}"#, headers: [("Authorization", "Bearer \(token)")])
        return try #require(reply["id"]?.stringValue)
    }
}
