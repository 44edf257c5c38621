import Foundation
import HTTPTypes
import JSON
import PagerAPI
import PagerSessions
import TestSupport
import Testing

@testable import MicroHTTP

@Suite("The API's HTTP face: routing, CORS, auth, metrics, templates, OpenAPI")
struct HTTPFaceTests {
    @Test("unknown paths are 404 not_found; known paths with other methods are 405 with Allow")
    func routing() async throws {
        let api = try APITester()
        let missing = await api.send("GET", "/v2/nothing")
        #expect(missing.status == 404 && missing.code == "not_found")
        let wrong = await api.send("PUT", "/v1/sessions")
        #expect(wrong.status == 405 && wrong.code == "method_not_allowed" && wrong.headers["Allow"] == "POST, OPTIONS")
        let wrongSession = await api.send("POST", "/v1/sessions/abc")
        #expect(wrongSession.headers["Allow"] == "GET, PATCH, DELETE, HEAD, OPTIONS")
        let head = await api.send("HEAD", "/healthz")
        #expect(head.status == 200)
    }

    @Test("templates are listed and served by name")
    func templates() async throws {
        let api = try APITester()
        let list = await api.send("GET", "/v1/templates")
        #expect(
            list["templates"]?.arrayValue?.map { $0["name"] } == [
                "mall", "media", "piggybank", "posepicker", "postcards", "snap",
            ])
        let mall = await api.send("GET", "/v1/templates/mall")
        #expect(mall["mode"] == "loop" && mall["pages"]?.arrayValue?.count == 3)
        let none = await api.send("GET", "/v1/templates/zzz")
        #expect(none.status == 404 && none.code == "template_not_found")
    }

    @Test("CORS: preflight lists the path's methods and the headers clients send; responses expose ETag")
    func cors() async throws {
        let api = try APITester(options: APIOptions(corsOrigins: ["https://app.example"]))
        let preflight = await api.send(
            "OPTIONS", "/v1/sessions/abc/next",
            headers: [
                ("Origin", "https://app.example"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type, if-match"),
            ])
        #expect(preflight.status == 204)
        #expect(preflight.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(preflight.headers["Access-Control-Allow-Methods"] == "POST, OPTIONS")
        #expect(
            preflight.headers["Access-Control-Allow-Headers"]
                == "Content-Type, If-Match, If-None-Match, Authorization, Last-Event-ID")
        #expect(preflight.headers["Vary"] == "Origin")
        let created = await api.send(
            "POST", "/v1/sessions", json: #"{"template": "mall"}"#, headers: [("Origin", "https://app.example")])
        #expect(created.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(created.headers["Access-Control-Expose-Headers"] == "ETag, Location, Retry-After, WWW-Authenticate")
        let stranger = await api.send("GET", "/v1/templates", headers: [("Origin", "https://evil.example")])
        #expect(stranger.headers["Access-Control-Allow-Origin"] == nil)
        let unknown = await api.send("OPTIONS", "/nowhere", headers: [("Origin", "https://app.example")])
        #expect(unknown.status == 404)
        let any = try APITester()
        let wildcard = await any.send("GET", "/v1/templates", headers: [("Origin", "https://x.example")])
        #expect(wildcard.headers["Access-Control-Allow-Origin"] == "*")
    }

    @Test("a bearer token guards /v1 but not health, readiness or metrics")
    func auth() async throws {
        let api = try APITester(options: APIOptions(authToken: "s3cret-token"))
        let missing = await api.send("GET", "/v1/templates")
        #expect(missing.status == 401 && missing.code == "unauthorized")
        #expect(missing.headers["WWW-Authenticate"] == #"Bearer"#)
        let wrong = await api.send("GET", "/v1/templates", headers: [("Authorization", "Bearer s3cret-tokeN")])
        #expect(wrong.status == 401 && wrong.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
        let prefix = await api.send("GET", "/v1/templates", headers: [("Authorization", "Bearer s3cret")])
        #expect(prefix.status == 401)
        let right = await api.send("GET", "/v1/templates", headers: [("Authorization", "Bearer s3cret-token")])
        #expect(right.status == 200)
        let session = await api.send("POST", "/v1/sessions", json: #"{"template": "mall"}"#)
        let count = api.engine.sessionCount
        #expect(session.status == 401 && count == 0)
        #expect(await api.send("GET", "/healthz").status == 200)
        #expect(await api.send("GET", "/metrics").status == 200)
    }

    @Test("metrics count requests by route and status and report live sessions")
    func metrics() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall"}"#)
        _ = await api.send("POST", "/v1/sessions/\(id)/next")
        _ = await api.send("POST", "/v1/sessions/\(id)/next")
        _ = await api.send("GET", "/v1/sessions/nope")
        let text = String(decoding: await api.send("GET", "/metrics").body, as: UTF8.self)
        #expect(
            text.contains(#"pagerd_http_requests_total{route="/v1/sessions/{id}/next",method="POST",status="200"} 2"#))
        #expect(text.contains(#"pagerd_http_requests_total{route="/v1/sessions/{id}",method="GET",status="404"} 1"#))
        #expect(text.contains("pagerd_sessions 1"))
        #expect(text.contains("pagerd_http_request_duration_seconds_bucket"))
        #expect(text.contains("pagerd_live_requests"))
        #expect(text.contains("pagerd_open_connections 0"))  // in process: no socket
        #expect(text.contains("pagerd_session_evictions 0"))
        #expect(text.contains("pagerd_event_skips 0"))
    }

    @Test("the OpenAPI document parses and lists exactly the routes the router serves")
    func openAPI() async throws {
        let api = try APITester()
        let reply = await api.send("GET", "/openapi.json")
        #expect(reply.status == 200)
        let paths = try #require(reply["paths"]?.objectValue)
        #expect(reply["openapi"] == "3.1.0")
        var documented: [String: Set<String>] = [:]
        for (path, item) in paths {
            documented[path] = Set((item.objectValue?.keys ?? []).map { $0.uppercased() })
        }
        var served: [String: Set<String>] = [:]
        for (pattern, methods) in api.responder.routes { served[pattern] = Set(methods.map(\.rawValue)) }
        #expect(documented == served)
    }

    @Test("refusals from the HTTP layer are problem documents")
    func refusals() throws {
        let api = try APITester()
        let tooLarge = api.responder.response(for: .bodyTooLarge(limit: 10))
        #expect(tooLarge.status == 413)
        #expect(tooLarge.headers["Content-Type"] == "application/problem+json; charset=utf-8")
        let json = try JSONParser.parse(tooLarge.bodyBytes)
        #expect(json["code"] == "body_too_large" && json["title"] == "Content Too Large")
        #expect(api.responder.response(for: .lengthRequired).status == 411)
        #expect(api.responder.response(for: .ambiguousFraming(reason: "x")).status == 400)
        let stopping = api.responder.response(for: .shuttingDown)
        #expect(stopping.status == 503 && stopping.headers["Retry-After"] == "1")
        let crowded = api.responder.response(for: .answerBudgetExceeded(limit: 65_536))
        let problem = try JSONParser.parse(crowded.bodyBytes)
        #expect(crowded.status == 503 && crowded.headers["Retry-After"] == "1")
        #expect(problem["code"] == "memory_budget_exceeded")
        #expect(
            problem["detail"] == "Answers not yet read by their clients hold more than 65536 bytes; nothing was done.")
    }
}

@Suite("The event stream route in-process")
struct EventRouteTests {
    @Test("an events request answers a stream with SSE headers; unknown sessions 404; the cap 503")
    func eventsRoute() async throws {
        let api = try APITester(limits: EngineLimits(maxSubscribers: 1))
        let id = try await api.create(#"{"template": "mall"}"#)
        let reply = await api.send("GET", "/v1/sessions/\(id)/events")
        #expect(reply.status == 200)
        #expect(reply.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        #expect(reply.headers["Cache-Control"] == "no-store" && reply.headers["ETag"] == "\"1\"")
        #expect(api.engine.subscriberTotal == 1)
        let full = await api.send("GET", "/v1/sessions/\(id)/events")
        #expect(full.status == 503 && full.code == "at_capacity" && full.headers["Retry-After"] == "5")
        let missing = await api.send("GET", "/v1/sessions/nope/events")
        #expect(missing.status == 404 && missing.code == "session_not_found")
        if case .stream(let stream) = reply.response.body { stream.close() }
        #expect(api.engine.subscriberTotal == 0)
    }
}
