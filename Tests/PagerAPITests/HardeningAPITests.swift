import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerSessions
import TestSupport
import Testing

@testable import PagerAPI

@Suite("The API under hostile input: duplicates, budgets, labels, auth order, Vary")
struct HardeningAPITests {
    @Test("a body with a member name twice is 400 invalid_json and creates nothing")
    func duplicateMembers() async throws {
        let api = try APITester()
        let reply = await api.send(
            "POST", "/v1/sessions", json: #"{"pages": [], "pages": [{"id": "a", "title": "A"}]}"#)
        #expect(reply.status == 400 && reply.code == "invalid_json")
        #expect(reply["detail"]?.stringValue?.contains("duplicate member name 'pages'") == true)
        #expect(api.engine.sessionCount == 0)
    }

    @Test("an object over 4,096 members is 400 invalid_json")
    func memberCap() async throws {
        let api = try APITester()
        let body = "{" + (0..<5000).map { "\"a\($0)\":0" }.joined(separator: ",") + "}"
        let reply = await api.send("POST", "/v1/sessions", json: body)
        #expect(reply.status == 400 && reply.code == "invalid_json")
    }

    @Test("over the session budget: 507 session_budget_exceeded, version and pages unchanged")
    func sessionBudget() async throws {
        let api = try APITester(limits: EngineLimits(pager: PagerLimits(sessionBudgetBytes: 20_000)))
        let id = try await api.create(#"{"pages": [{"id": "a", "title": "A"}]}"#)
        let blob = String(repeating: "x", count: 6000)
        var last = await api.send("GET", "/v1/sessions/\(id)")
        var refused: APITester.Reply?
        for i in 0..<10 {
            let reply = await api.send(
                "POST", "/v1/sessions/\(id)/pages",
                json: #"{"page": {"id": "p\#(i)", "title": "P", "content": {"b": "\#(blob)"}}}"#)
            if reply.status != 200 {
                refused = reply
                break
            }
            last = reply
        }
        #expect(refused?.status == 507 && refused?.code == "session_budget_exceeded")
        let after = await api.send("GET", "/v1/sessions/\(id)")
        #expect(after["version"] == last["version"] && after["pageCount"] == last["pageCount"])
    }

    @Test("over the memory budget: 503 memory_budget_exceeded with Retry-After; deleting frees room")
    func memoryBudget() async throws {
        let api = try APITester(limits: EngineLimits(memoryBudgetBytes: 30_000))
        let page =
            #"{"pages": [{"id": "a", "title": "A", "content": {"b": "\#(String(repeating: "y", count: 8000))"}}]}"#
        var ids: [String] = []
        var refused: APITester.Reply?
        for _ in 0..<10 {
            let reply = await api.send("POST", "/v1/sessions", json: page)
            guard reply.status == 201, let id = reply["id"]?.stringValue else {
                refused = reply
                break
            }
            ids.append(id)
        }
        #expect(ids.count == 3)
        #expect(
            refused?.status == 503 && refused?.code == "memory_budget_exceeded"
                && refused?.headers["Retry-After"] == "30")
        #expect(await api.send("DELETE", "/v1/sessions/\(ids[0])").status == 204)
        #expect(await api.send("POST", "/v1/sessions", json: page).status == 201)
    }

    @Test("invented methods are counted as `other`: 2,000 of them add one series")
    func boundedMethodLabel() async throws {
        let api = try APITester()
        for i in 0..<2000 { _ = await api.send("M\(i)X", "/healthz") }
        let text = String(decoding: await api.send("GET", "/metrics").body, as: UTF8.self)
        let series = text.split(separator: "\n").filter { $0.hasPrefix("pagerd_http_requests_total{") }
        #expect(series.count <= 3)
        #expect(series.contains { $0.contains(#"method="other""#) && $0.hasSuffix(" 2000") })
        #expect(!text.contains("M1999X"))
    }

    @Test("with a token set, a /v1 path answers 401 before 405 and reveals no methods")
    func unauthorizedBeforeMethodNotAllowed() async throws {
        let api = try APITester(options: APIOptions(authToken: "tok"))
        let reply = await api.send("PUT", "/v1/sessions")
        #expect(reply.status == 401 && reply.code == "unauthorized" && reply.headers["Allow"] == nil)
        #expect(reply.headers["WWW-Authenticate"] != nil)
        let authorized = await api.send("PUT", "/v1/sessions", headers: [("Authorization", "Bearer tok")])
        #expect(authorized.status == 405)
        #expect(await api.send("POST", "/healthz").status == 405)
    }

    @Test("with a list of origins every response varies by Origin, listed, unlisted or absent")
    func varyOrigin() async throws {
        let api = try APITester(options: APIOptions(corsOrigins: ["https://a.example"]))
        for headers in [[("Origin", "https://a.example")], [("Origin", "https://b.example")], []] {
            let reply = await api.send("GET", "/v1/templates", headers: headers)
            #expect(reply.headers[values: .vary] == ["Origin"])
        }
        let preflight = await api.send(
            "OPTIONS", "/v1/sessions",
            headers: [("Origin", "https://a.example"), ("Access-Control-Request-Method", "POST")])
        #expect(preflight.headers[values: .vary] == ["Origin"])
        let open = try APITester()
        #expect(
            await open.send("GET", "/v1/templates", headers: [("Origin", "https://b.example")]).headers["Vary"] == nil)
    }
}

@Suite("PATCH decodes outside the engine and still applies every change")
struct ConcurrentPatchTests {
    @Test("PATCHes racing with commands all apply, each once, with no spurious 412")
    func racingPatches() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall"}"#)
        let statuses = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var worst = 200
                    for step in 0..<50 {
                        let reply =
                            step % 2 == 0
                            ? await api.send(
                                "PATCH", "/v1/sessions/\(id)", json: #"{"preload": \#((task + step) % 3)}"#)
                            : await api.send("POST", "/v1/sessions/\(id)/next")
                        worst = max(worst, reply.status)
                    }
                    return worst
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 })
        // 200 nexts always change the state; each PATCH changes it when preload differs.
        let version = await api.send("GET", "/v1/sessions/\(id)")["version"]?.intValue ?? 0
        #expect(version >= 201 && version <= 401)
        let stale = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"preload": 2}"#, headers: [("If-Match", "\"1\"")])
        #expect(stale.status == 412 && stale.code == "version_mismatch")
    }
}
