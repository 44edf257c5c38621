import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerSessions
import TestSupport
import Testing

@testable import PagerAPI

@Suite("The v1 API in-process: sessions and commands")
struct SessionAPITests {
    @Test("create from a template: 201, Location, ETag and the state document")
    func createFromTemplate() async throws {
        let api = try APITester()
        let reply = await api.send("POST", "/v1/sessions", json: #"{"template": "snap"}"#)
        #expect(reply.status == 201)
        let id = try #require(reply["id"]?.stringValue)
        #expect(id.utf8.count == 22 && SessionID.isWellFormed(id))
        #expect(reply.headers["Location"] == "/v1/sessions/\(id)")
        #expect(reply.headers["ETag"] == "\"1\"")
        #expect(reply.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(reply["index"] == 1 && reply["version"] == 1 && reply["pageCount"] == 4 && reply["empty"] == false)
        #expect(reply["page"]?["id"] == "snap")
        #expect(reply["previous"] == ["index": 0, "id": "chat", "title": "Chat"])
        #expect(reply["tabs"] == [] && reply["indicator"] == .null)
        #expect(reply["tabBar"] == ["layout": "none", "contentWidth": 0, "offset": 0])
        #expect(reply["pageOffset"] == 390 && reply["transition"] == .null && reply["trailingAction"] == .null)
        #expect(reply["preload"]?.arrayValue?.map { $0["id"] } == ["chat", "stories"])
        #expect(reply["moved"] == nil)
    }

    @Test("create from an explicit definition with docs/api.md's example geometry")
    func createExplicit() async throws {
        let api = try APITester()
        let reply = await api.send(
            "POST", "/v1/sessions",
            json:
                #"{"pages": [{"id": "chat", "title": "Chat"}, {"id": "snap", "title": "Snap"}, {"id": "stories", "title": "Stories"}, {"id": "discover", "title": "Discover"}], "initialPage": 1}"#
        )
        #expect(reply.status == 201)
        #expect(
            reply["tabs"]?.arrayValue?.first == [
                "index": 0, "id": "chat", "title": "Chat", "x": 0, "width": 97.5, "selection": 0, "selected": false,
                "icon": nil, "badge": nil,
                "accessibility": [
                    "label": "Chat", "hint": nil, "value": "Tab 1 of 4", "selected": false, "traits": ["button"],
                    "actions": ["activate"],
                ],
            ])
        #expect(
            reply["indicator"] == [
                "x": 97.5, "width": 97.5, "height": 2, "alpha": 1, "segments": [["x": 97.5, "width": 97.5]],
            ])
        #expect(reply["page"] == ["id": "snap", "title": "Snap", "content": .object([:]), "stack": []])
    }

    @Test(
        "create errors: status, code and field",
        arguments: [
            (#"{}"#, 400, "invalid_request", "pages"),
            (#"{"template": "nope"}"#, 404, "template_not_found", "template"),
            (#"{"template": 7}"#, 400, "invalid_request", "template"),
            (#"{"pages": [], "colour": 1}"#, 400, "invalid_request", "colour"),
            (#"{"pages": [{"id": "a", "title": "A"}], "initialPage": 5}"#, 422, "index_out_of_range", "initialPage"),
            (#"{"pages": [{"id": "a", "title": "A"}], "initialPage": "b"}"#, 404, "page_not_found", "initialPage"),
            (
                #"{"pages": [{"id": "a", "title": "A"}, {"id": "a", "title": "B"}]}"#, 409, "duplicate_page_id",
                "pages[1].id"
            ),
            (
                #"{"pages": [{"id": "a", "title": "A"}], "viewport": {"width": -1}}"#, 400, "invalid_request",
                "viewport.width"
            ),
            (#"{"template": "media", "tabBar": {"spacing": 200}}"#, 400, "invalid_request", "tabBar"),
            (#"[1, 2]"#, 400, "invalid_request", ""),
            (#"{"pages": [1]}"#, 400, "invalid_request", "pages[0]"),
        ])
    func createErrors(body: String, status: Int, code: String, field: String) async throws {
        let api = try APITester()
        let reply = await api.send("POST", "/v1/sessions", json: body)
        #expect(reply.status == status)
        #expect(reply.code == code)
        #expect(reply.field == (field.isEmpty ? nil : field))
        #expect(reply.headers["Content-Type"] == "application/problem+json; charset=utf-8")
        #expect(reply["type"] == "about:blank" && reply["status"] == .number(Double(status)))
        #expect(api.engine.sessionCount == 0)
    }

    @Test("bodies: invalid JSON is 400 invalid_json, a non-JSON type is 415, a missing type with a body is 415")
    func bodyRules() async throws {
        let api = try APITester()
        let broken = await api.send("POST", "/v1/sessions", json: #"{"template": "#)
        #expect(broken.status == 400 && broken.code == "invalid_json")
        let form = await api.send(
            "POST", "/v1/sessions", json: #"{"template": "mall"}"#, contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 415 && form.code == "unsupported_media_type")
        let missing = await api.send("POST", "/v1/sessions", json: #"{"template": "mall"}"#, contentType: nil)
        #expect(missing.status == 415)
        let charset = await api.send(
            "POST", "/v1/sessions", json: #"{"template": "mall"}"#, contentType: "application/json; charset=UTF-8")
        #expect(charset.status == 201)
        for accepted in [
            "application/json", "Application/JSON", " application/json ;charset=utf-8", "\tapplication/json\t",
            "application/merge-patch+json", "APPLICATION/problem+JSON; q=1",
        ] {
            #expect(Request.isJSONMediaType(accepted), "\(accepted)")
        }
        for refused in [
            "", "application/jsonx", "application/json5", "text/json", "application/+json", "application/x+jsonp",
            "application\u{0F}json", "application/js on", "json", "application/", ";application/json",
        ] {
            #expect(!Request.isJSONMediaType(refused), "\(refused)")
        }
        // Header values read as the subscript reads them: one field as it is, several joined.
        var fields: HTTPFields = [.contentType: "application/json"]
        #expect(fields.value(of: .contentType) == "application/json" && fields.value(of: .ifMatch) == nil)
        fields.add(.ifMatch, "\"1\"")
        fields.add(.ifMatch, "\"2\"")
        #expect(fields.value(of: .ifMatch) == "\"1\", \"2\"" && fields.value(of: .ifMatch) == fields[.ifMatch])
    }

    @Test(
        "any id that names no live session answers 404 session_not_found",
        arguments: [
            "nope", "AAAAAAAAAAAAAAAAAAAAAA", "%00", String(repeating: "x", count: 500), "..",
        ])
    func unknownSession(id: String) async throws {
        let api = try APITester()
        for (method, suffix) in [("GET", ""), ("POST", "/next"), ("DELETE", ""), ("GET", "/pages"), ("PATCH", "")] {
            let reply = await api.send(method, "/v1/sessions/\(id)\(suffix)")
            #expect(reply.status == 404 && reply.code == "session_not_found", "\(method) \(suffix)")
        }
    }

    @Test("next, previous, select, scroll and transition report moved, edge and keyframes")
    func commands() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        var reply = await api.send("POST", "/v1/sessions/\(id)/next")
        #expect(reply.status == 200 && reply["moved"] == true && reply["index"] == 1 && reply["version"] == 2)
        #expect(reply.headers["ETag"] == "\"2\"")
        reply = await api.send("POST", "/v1/sessions/\(id)/next", json: "{}")
        #expect(reply["edge"] == "end" && reply["index"] == 2)
        reply = await api.send("POST", "/v1/sessions/\(id)/next")
        #expect(reply["moved"] == false && reply["edge"] == "end" && reply["version"] == 3)
        reply = await api.send("POST", "/v1/sessions/\(id)/select", json: #"{"index": 0}"#)
        #expect(reply["keyframes"]?.arrayValue?.map { $0["index"] } == [1, 0])
        #expect(reply["keyframes"]?.arrayValue?.first?["pageOffset"] == 390)
        #expect(reply["direction"] == "reverse" && reply["edge"] == "start")
        reply = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.5}"#)
        #expect(reply["transition"] == ["from": 0, "to": 1, "progress": 0.5, "direction": "forward"])
        #expect(reply["indicator"]?["x"] == 65 && reply["pageOffset"] == 195)
        reply = await api.send("POST", "/v1/sessions/\(id)/transition", json: #"{"phase": "end", "completed": true}"#)
        #expect(reply["index"] == 1 && reply["transition"] == .null && reply["moved"] == true)
        reply = await api.send("POST", "/v1/sessions/\(id)/transition", json: #"{"phase": "begin", "to": 0}"#)
        #expect(reply["transition"]?["direction"] == "reverse")
        reply = await api.send("GET", "/v1/sessions/\(id)/neighbors")
        #expect(reply["previous"]?["id"] == "photos" && reply["next"]?["id"] == "music")
        #expect(reply.headers["ETag"] == "\"7\"")
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(state["version"] == 7, "peeking at neighbours must not change the version")
    }

    @Test(
        "command errors name the field",
        arguments: [
            ("next", #"{"x": 1}"#, 400, "invalid_request", "x"),
            ("select", #"{}"#, 400, "invalid_request", "index"),
            ("select", #"{"index": 1, "page": "videos"}"#, 400, "invalid_request", "page"),
            ("select", #"{"index": 9}"#, 422, "index_out_of_range", "index"),
            ("select", #"{"index": "1"}"#, 400, "invalid_request", "index"),
            ("select", #"{"page": "nope"}"#, 404, "page_not_found", "page"),
            ("select", #"{"index": 1, "path": "longest"}"#, 400, "invalid_request", "path"),
            ("scroll", #"{}"#, 400, "invalid_request", "progress"),
            ("scroll", #"{"progress": 0.1, "offset": 3}"#, 400, "invalid_request", "offset"),
            ("scroll", #"{"progress": "half"}"#, 400, "invalid_request", "progress"),
            ("transition", #"{"phase": "begin"}"#, 400, "invalid_request", "to"),
            ("transition", #"{"phase": "begin", "to": 2}"#, 422, "not_a_neighbor", "to"),
            ("transition", #"{"phase": "end"}"#, 400, "invalid_request", "completed"),
            ("transition", #"{"phase": "middle"}"#, 400, "invalid_request", "phase"),
            ("transition", #"{"to": 1}"#, 400, "invalid_request", "phase"),
        ])
    func commandErrors(command: String, body: String, status: Int, code: String, field: String) async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        let reply = await api.send("POST", "/v1/sessions/\(id)/\(command)", json: body)
        #expect(reply.status == status)
        #expect(reply.code == code)
        #expect(reply.field == field)
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(state["version"] == 1, "a failed request must change nothing")
    }

    @Test("an empty pager answers 409 empty_pager to moves; the piggybank shows its empty state")
    func emptyPager() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "piggybank"}"#)
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(
            state["empty"] == true && state["index"] == .null && state["page"] == .null && state["indicator"] == .null)
        #expect(state["emptyState"]?["action"]?["id"] == "add-bottle" && state["trailingAction"] == .null)
        #expect(state["canGoNext"] == false && state["preload"] == [] && state["pageOffset"] == 0)
        for (command, body) in [
            ("next", ""), ("previous", ""), ("select", #"{"index": 0}"#), ("scroll", #"{"progress": 0.2}"#),
            ("transition", #"{"phase": "begin", "to": 0}"#),
        ] {
            let reply = await api.send("POST", "/v1/sessions/\(id)/\(command)", json: body.isEmpty ? nil : body)
            #expect(reply.status == 409 && reply.code == "empty_pager", "\(command)")
        }
        let added = await api.send("POST", "/v1/sessions/\(id)/pages", json: #"{"from": "travel"}"#)
        #expect(added.status == 200 && added["index"] == 0 && added["trailingAction"]?["title"] == "Add a bottle")
        #expect(added["emptyState"] == .null && added["page"]?["content"]?["coins"] == 12)
    }

    @Test("If-Match: a stale version is 412 and changes nothing; a match or * applies; If-None-Match gives 304")
    func conditionalRequests() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall"}"#)
        let stale = await api.send("POST", "/v1/sessions/\(id)/next", headers: [("If-Match", "\"7\"")])
        #expect(stale.status == 412 && stale.code == "version_mismatch" && stale.headers["ETag"] == "\"1\"")
        #expect(await api.send("GET", "/v1/sessions/\(id)")["version"] == 1)
        let garbage = await api.send("POST", "/v1/sessions/\(id)/next", headers: [("If-Match", "abc")])
        #expect(garbage.status == 412)
        // If-Match compares strongly: a weak tag, or the version written another way, is no match.
        for tag in ["W/\"1\"", "\"01\"", "\"+1\"", "\" 1\"", "\"1.0\""] {
            let refused = await api.send("POST", "/v1/sessions/\(id)/next", headers: [("If-Match", tag)])
            #expect(refused.status == 412 && refused.code == "version_mismatch", "If-Match: \(tag)")
        }
        let matched = await api.send(
            "POST", "/v1/sessions/\(id)/next", headers: [("If-Match", "\"0\", W/\"1\", \"1\"")])
        #expect(matched.status == 200 && matched["version"] == 2)
        let any = await api.send("POST", "/v1/sessions/\(id)/next", headers: [("If-Match", "*")])
        #expect(any["version"] == 3)
        let notModified = await api.send("GET", "/v1/sessions/\(id)", headers: [("If-None-Match", "\"3\"")])
        #expect(notModified.status == 304 && notModified.body.isEmpty && notModified.headers["ETag"] == "\"3\"")
        // If-None-Match compares weakly.
        let weakNotModified = await api.send("GET", "/v1/sessions/\(id)", headers: [("If-None-Match", "W/\"3\"")])
        #expect(weakNotModified.status == 304)
        let modified = await api.send("GET", "/v1/sessions/\(id)", headers: [("If-None-Match", "\"2\"")])
        #expect(modified.status == 200)
        let deleteStale = await api.send("DELETE", "/v1/sessions/\(id)", headers: [("If-Match", "\"1\"")])
        #expect(deleteStale.status == 412)
    }

    @Test(
        "If-None-Match on a change and If-Match on a read are preconditions too (RFC 9110 §13.2.2): 412, nothing changed"
    )
    func otherConditionalPairs() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall"}"#)
        // A change with If-None-Match naming the current version (weakly) or `*` is refused.
        for tag in ["\"1\"", "W/\"1\"", "\"0\", \"1\"", "*"] {
            let refused = await api.send("POST", "/v1/sessions/\(id)/next", headers: [("If-None-Match", tag)])
            #expect(refused.status == 412 && refused.code == "version_mismatch", "If-None-Match: \(tag)")
            #expect(refused.headers["ETag"] == "\"1\"")
        }
        let patch = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"preload": 2}"#, headers: [("If-None-Match", "\"1\"")])
        #expect(patch.status == 412)
        #expect(await api.send("GET", "/v1/sessions/\(id)")["version"] == 1)
        #expect(await api.send("GET", "/v1/sessions/\(id)/settings")["preload"] == 1)
        // An older version is no match: the change goes ahead.
        let moved = await api.send("POST", "/v1/sessions/\(id)/next", headers: [("If-None-Match", "\"0\"")])
        #expect(moved.status == 200 && moved["version"] == 2)
        // Both headers: If-Match must name the version and If-None-Match must not.
        let both = await api.send(
            "POST", "/v1/sessions/\(id)/next", headers: [("If-Match", "\"2\""), ("If-None-Match", "\"2\"")])
        #expect(both.status == 412)
        let bothPass = await api.send(
            "POST", "/v1/sessions/\(id)/next", headers: [("If-Match", "\"2\""), ("If-None-Match", "\"1\"")])
        #expect(bothPass.status == 200 && bothPass["version"] == 3)
        // Reads with If-Match: 412 unless it names the current version; If-Match fails first.
        for path in ["", "/settings", "/pages", "/neighbors"] {
            let refused = await api.send("GET", "/v1/sessions/\(id)\(path)", headers: [("If-Match", "\"2\"")])
            #expect(refused.status == 412 && refused.code == "version_mismatch" && refused.headers["ETag"] == "\"3\"")
            let read = await api.send("GET", "/v1/sessions/\(id)\(path)", headers: [("If-Match", "\"3\"")])
            #expect(read.status == 200, "GET \(path) with a matching If-Match")
            let both = await api.send(
                "GET", "/v1/sessions/\(id)\(path)", headers: [("If-Match", "\"2\""), ("If-None-Match", "\"3\"")])
            #expect(both.status == 412)
        }
        let deleteRefused = await api.send("DELETE", "/v1/sessions/\(id)", headers: [("If-None-Match", "*")])
        #expect(deleteRefused.status == 412)
        #expect(await api.send("GET", "/v1/sessions/\(id)").status == 200)
    }

    @Test("pages: list, insert, catalog, replace, update, move and remove keep the current page current")
    func pages() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "posepicker", "initialPage": "posetalk"}"#)
        var reply = await api.send("GET", "/v1/sessions/\(id)/pages")
        #expect(reply["pages"]?.arrayValue?.map { $0["id"] } == ["posepick", "posetalk", "posefeed"])
        reply = await api.send(
            "POST", "/v1/sessions/\(id)/pages", json: #"{"page": {"id": "new", "title": "New"}, "at": 0}"#)
        #expect(
            reply.status == 200 && reply["index"] == 2 && reply["page"]?["id"] == "posetalk" && reply["pageCount"] == 4)
        reply = await api.send("POST", "/v1/sessions/\(id)/pages", json: #"{"from": "bookmark"}"#)
        #expect(reply["tabs"]?.arrayValue?.last?["title"] == "북마크")
        reply = await api.send("POST", "/v1/sessions/\(id)/pages", json: #"{"from": "bookmark"}"#)
        #expect(reply.status == 409 && reply.code == "duplicate_page_id")
        reply = await api.send("POST", "/v1/sessions/\(id)/pages", json: #"{"from": "nothing"}"#)
        #expect(reply.status == 404 && reply.code == "page_not_found" && reply.field == "from")
        reply = await api.send(
            "POST", "/v1/sessions/\(id)/pages", json: #"{"page": {"id": "x", "title": "X"}, "at": 9}"#)
        #expect(reply.status == 422 && reply.code == "index_out_of_range" && reply.field == "at")
        reply = await api.send("PATCH", "/v1/sessions/\(id)/pages/posetalk", json: #"{"moveTo": 0, "title": "톡"}"#)
        #expect(reply["index"] == 0 && reply["page"]?["title"] == "톡")
        reply = await api.send("PATCH", "/v1/sessions/\(id)/pages/posetalk", json: #"{"moveTo": 99}"#)
        #expect(reply.status == 422 && reply.field == "moveTo")
        reply = await api.send("DELETE", "/v1/sessions/\(id)/pages/posetalk")
        #expect(reply.status == 200 && reply["index"] == 0 && reply["page"]?["id"] == "new")
        reply = await api.send("DELETE", "/v1/sessions/\(id)/pages/posetalk")
        #expect(reply.status == 404 && reply.code == "page_not_found")
        reply = await api.send(
            "PUT", "/v1/sessions/\(id)/pages",
            json: #"{"pages": [{"id": "a", "title": "A"}, {"id": "new", "title": "N"}]}"#)
        #expect(reply["index"] == 1 && reply["pageCount"] == 2)
        reply = await api.send("PUT", "/v1/sessions/\(id)/pages", json: #"{}"#)
        #expect(reply.status == 400 && reply.field == "pages")
    }

    @Test("stacks: push, pop, pop to root, and stack_root at the root")
    func stacks() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "posepicker"}"#)
        var reply = await api.send(
            "POST", "/v1/sessions/\(id)/pages/posepick/stack", json: #"{"screen": {"id": "detail", "title": "상세"}}"#)
        #expect(reply.status == 200 && reply["page"]?["stack"] == [["id": "detail", "title": "상세"]])
        reply = await api.send("POST", "/v1/sessions/\(id)/pages/posepick/stack", json: #"{"screen": {"id": "more"}}"#)
        reply = await api.send("DELETE", "/v1/sessions/\(id)/pages/posepick/stack")
        #expect(reply["page"]?["stack"]?.arrayValue?.count == 1)
        reply = await api.send("DELETE", "/v1/sessions/\(id)/pages/posepick/stack", query: [("to", "root")])
        #expect(reply["page"]?["stack"] == [] && reply["version"] == 5)
        reply = await api.send("DELETE", "/v1/sessions/\(id)/pages/posepick/stack", query: [("to", "root")])
        #expect(reply.status == 200 && reply["version"] == 5)
        reply = await api.send("DELETE", "/v1/sessions/\(id)/pages/posepick/stack")
        #expect(reply.status == 409 && reply.code == "stack_root")
        reply = await api.send("DELETE", "/v1/sessions/\(id)/pages/posepick/stack", query: [("to", "top")])
        #expect(reply.status == 400 && reply.field == "to")
        reply = await api.send("POST", "/v1/sessions/\(id)/pages/posepick/stack", json: #"{}"#)
        #expect(reply.status == 400 && reply.field == "screen")
    }

    @Test("PATCH merges settings and recomputes geometry; DELETE answers 204 then 404")
    func patchAndDelete() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall"}"#)
        var reply = await api.send(
            "PATCH", "/v1/sessions/\(id)",
            json: #"{"viewport": {"width": 300}, "tabBar": {"indicator": {"style": "elastic"}}}"#)
        #expect(reply.status == 200 && reply["tabs"]?.arrayValue?[1]["x"] == 100 && reply["version"] == 2)
        #expect(reply["mode"] == "loop")
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"pages": []}"#)
        #expect(reply.status == 400 && reply.field == "pages")
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"preload": 500}"#)
        #expect(reply.status == 400 && reply.field == "preload")
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"mode": "loop"}"#)
        #expect(reply["version"] == 2)
        reply = await api.send("DELETE", "/v1/sessions/\(id)")
        #expect(reply.status == 204 && reply.body.isEmpty)
        #expect(await api.send("GET", "/v1/sessions/\(id)").status == 404)
    }

    @Test("limits: sessions (503 with Retry-After), pages and content size (422)")
    func limits() async throws {
        let api = try APITester(limits: EngineLimits(maxSessions: 2, pager: .init(maxPages: 3, maxContentBytes: 64)))
        _ = try await api.create(#"{"template": "mall"}"#)
        let id = try await api.create(#"{"template": "mall"}"#)
        let full = await api.send("POST", "/v1/sessions", json: #"{"template": "mall"}"#)
        #expect(full.status == 503 && full.code == "at_capacity" && full.headers["Retry-After"] == "30")
        let tooMany = await api.send("POST", "/v1/sessions/\(id)/pages", json: #"{"page": {"id": "x", "title": "X"}}"#)
        #expect(tooMany.status == 422 && tooMany.code == "limit_exceeded")
        let big = String(repeating: "y", count: 100)
        let content = await api.send(
            "PATCH", "/v1/sessions/\(id)/pages/product", json: #"{"content": {"text": "\#(big)"}}"#)
        #expect(content.status == 422 && content.code == "limit_exceeded" && content.field == "content")
    }

    @Test("idle sessions are evicted after the TTL, measured with the injected clock")
    func eviction() async throws {
        let api = try APITester(limits: EngineLimits(idleTTL: 60))
        let kept = try await api.create(#"{"template": "mall"}"#)
        let idle = try await api.create(#"{"template": "mall"}"#)
        api.clock.advance(by: 40)
        #expect(await api.send("GET", "/v1/sessions/\(kept)").status == 200)
        api.clock.advance(by: 30)
        #expect(await api.engine.evictExpired() == 1)
        #expect(await api.send("GET", "/v1/sessions/\(idle)").status == 404)
        #expect(await api.send("GET", "/v1/sessions/\(kept)").status == 200)
        api.clock.advance(by: 61)
        #expect(await api.send("POST", "/v1/sessions/\(kept)/next").status == 404)
        #expect(api.engine.evictions == 2)
    }
}
