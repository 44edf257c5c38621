import Foundation
import HTTPTypes
import MicroHTTP
import PagerAPI
import PagerSessions
import Testing

/// The responder's two ways in: at once on the server thread, and awaited. Both must give the
/// same answers; the first must leave alone what it cannot finish without waiting.
@Suite("Answers given at once on the server thread")
struct ImmediateAnswerTests {
    @Test("commands and reads answered at once equal the awaited answers, refusals included")
    func sameAnswers() async throws {
        let api = try APITester()
        let quick = try await api.create(#"{"template": "media"}"#)
        let slow = try await api.create(#"{"template": "media"}"#)
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
            let atOnce = await api.send(
                step.method, "/v1/sessions/\(quick)\(step.path)", json: step.json, headers: step.headers)
            let awaited = await api.send(
                step.method, "/v1/sessions/\(slow)\(step.path)", json: step.json, headers: step.headers, awaited: true)
            #expect(atOnce.answeredAtOnce && !awaited.answeredAtOnce)
            #expect(atOnce.status == step.status && awaited.status == step.status, "\(step.method) \(step.path)")
            for name in [HTTPField.Name.eTag, .contentType, .cacheControl] {
                #expect(atOnce.headers[name] == awaited.headers[name], "\(name) of \(step.method) \(step.path)")
            }
            let body = String(decoding: awaited.body, as: UTF8.self).replacingOccurrences(of: slow, with: quick)
            #expect(String(decoding: atOnce.body, as: UTF8.self) == body, "\(step.method) \(step.path)")
        }
        let missing = await api.send("POST", "/v1/sessions/nope/next")
        #expect(missing.answeredAtOnce && missing.status == 404 && missing.code == "session_not_found")
        // Routes without a way to answer at once are awaited, as before.
        let patched = await api.send("PATCH", "/v1/sessions/\(quick)", json: #"{"preload": 2}"#)
        #expect(!patched.answeredAtOnce && patched.status == 200)
    }

    @Test("with a store a command is left for the awaited way, untouched; a read of a held session is answered at once")
    func storeCommandsWait() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 1, store: store)
        let responder = APIResponder(engines: engines, readiness: Readiness())
        let id = try await EngineStoreTests.created(engines, store)
        func request(_ method: HTTPRequest.Method, _ path: String) -> Request {
            Request(method: method, path: path, query: [], headers: [:], body: [])
        }
        #expect(responder.respondImmediately(to: request(.post, "/v1/sessions/\(id)/next")) == nil)
        #expect(store.submitted.isEmpty)
        #expect(try engines.shard(for: id).immediately { try $0.snapshot(of: id) }.version == 1)
        let read = try #require(responder.respondImmediately(to: request(.get, "/v1/sessions/\(id)")))
        #expect(read.status == .ok && read.headers[.eTag] == "\"1\"")
        let unknown = try #require(responder.respondImmediately(to: request(.get, "/v1/sessions/nope")))
        #expect(unknown.status == .notFound)
        // The awaited way applies it, and answers once the store has it.
        async let awaited = responder.respond(to: request(.post, "/v1/sessions/\(id)/next"))
        for _ in 0..<2000 where store.submitted.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(store.submitted.count == 1)
        store.answerAll()
        let answer = await awaited
        #expect(answer.status == .ok && answer.headers[.eTag] == "\"2\"")
    }
}
