import Foundation
import HTTPTypes
import MicroHTTP
import PagerAPI
import PagerSessions
import TestSupport
import Testing

/// Each route answers either now, on the server thread, or with work for later (when a store
/// must make the change durable first). Both ways must give the same answers, and a route that
/// answers later must change nothing before its work runs.
@Suite("Answers now and later")
struct NowAndLaterTests {
    @Test("commands and reads answered now in memory equal the answers made later over a store, refusals included")
    func sameAnswers() async throws {
        let api = try APITester()
        // The stored session is `HandStore.threePages`; the one in memory is made alike.
        let quick = try await api.create(
            #"{"pages": [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}, {"id": "c", "title": "C"}]}"#)
        let store = HandStore()
        let engines = PagerEngines(
            count: 2, clock: TestClock(time: api.clock), store: store, drivesTimers: false,
            wallOrigin: Double(APITester.wallOrigin) / 1000)
        let stored = APIResponder(
            engines: engines, templates: try APITester.shippedTemplates(), readiness: Readiness())
        let slow = try await HandStore.created(engines, store)
        let steps: [(method: String, path: String, json: String?, headers: [(String, String)], status: Int)] = [
            ("POST", "/next", nil, [], 200),
            ("POST", "/select", #"{"index": 2, "path": "shortest"}"#, [], 200),
            ("POST", "/previous", nil, [("If-Match", "\"3\"")], 200),
            ("POST", "/next", nil, [("If-Match", "\"1\"")], 412),
            ("POST", "/scroll", #"{"progress": 0.3}"#, [], 200),
            ("POST", "/scroll", #"{"progres": 0.3}"#, [], 400),
            ("POST", "/scroll", #"{"progress": 0.3"#, [], 400),
            ("POST", "/transition", #"{"phase": "end", "completed": true}"#, [], 200),
            ("POST", "/autoAdvance", #"{"action": "start"}"#, [], 200),
            ("GET", "", nil, [], 200),
            ("GET", "", nil, [("If-None-Match", "\"7\"")], 304),
        ]
        for step in steps {
            let now = await api.send(
                step.method, "/v1/sessions/\(quick)\(step.path)", json: step.json, headers: step.headers)
            #expect(now.answeredNow, "\(step.method) \(step.path)")
            let request = Request(
                method: HTTPRequest.Method(step.method)!, path: "/v1/sessions/\(slow)\(step.path)",
                headers: HTTPFields(
                    step.headers.map { HTTPField(name: HTTPField.Name($0.0)!, value: $0.1) }
                        + (step.json == nil ? [] : [HTTPField(name: .contentType, value: "application/json")])),
                body: Array((step.json ?? "").utf8))
            let later: Response
            switch stored.respond(to: request) {
            case .now(let response):
                #expect(step.method == "GET" || step.status != 200, "a change answered now over a store")
                later = response
            case .later(let work):
                async let answer = work()
                if step.status == 200 {
                    await waitUntil("the store has the change") { !store.submitted.isEmpty }
                    store.answerAll()
                }
                later = await answer
            }
            #expect(now.status == step.status && later.status.code == step.status, "\(step.method) \(step.path)")
            for name in [HTTPField.Name.eTag, .contentType, .cacheControl] {
                #expect(now.headers[name] == later.headers[name], "\(name) of \(step.method) \(step.path)")
            }
            let body = String(decoding: later.bodyBytes, as: UTF8.self).replacingOccurrences(
                of: slow.rawValue, with: quick)
            #expect(String(decoding: now.body, as: UTF8.self) == body, "\(step.method) \(step.path)")
        }
        let missing = await api.send("POST", "/v1/sessions/nope/next")
        #expect(missing.answeredNow && missing.status == 404 && missing.code == "session_not_found")
        // A settings PATCH always merges and applies in work for later.
        let patched = await api.send("PATCH", "/v1/sessions/\(quick)", json: #"{"preload": 2}"#)
        #expect(!patched.answeredNow && patched.status == 200)
    }

    @Test("with a store a command is answered later and applied only when its work runs; a read of a held session now")
    func storeCommandsWait() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 1, store: store)
        let responder = APIResponder(engines: engines, readiness: Readiness())
        let id = try await HandStore.created(engines, store)
        func request(_ method: HTTPRequest.Method, _ path: String) -> Request {
            Request(method: method, path: path, query: [], headers: [:], body: [])
        }
        guard case .later(let work) = responder.respond(to: request(.post, "/v1/sessions/\(id)/next")) else {
            Issue.record("a command over a store was answered now")
            return
        }
        #expect(store.submitted.isEmpty)
        #expect(try engines.shard(for: id).withLock { try $0.snapshot(of: id) }.version == 1)
        guard case .now(let read) = responder.respond(to: request(.get, "/v1/sessions/\(id)")) else {
            Issue.record("a read of a held session waited")
            return
        }
        #expect(read.status == .ok && read.headers[.eTag] == "\"1\"")
        guard case .now(let unknown) = responder.respond(to: request(.get, "/v1/sessions/nope")) else {
            Issue.record("a read of an unknown session waited")
            return
        }
        #expect(unknown.status == .notFound)
        // The work applies it, and answers once the store has it.
        async let answer = work()
        await waitUntil("the store has the change") { !store.submitted.isEmpty }
        #expect(store.submitted.count == 1)
        store.answerAll()
        let done = await answer
        #expect(done.status == .ok && done.headers[.eTag] == "\"2\"")
    }
}
