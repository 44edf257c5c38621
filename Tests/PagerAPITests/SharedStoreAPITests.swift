import HTTPTypes
import JSON
import MicroHTTP
import PagerAPI
import PagerModel
import PagerSessions
import TestSupport
import Testing

/// With a shared store, this instance's copy of a session may lag a change another instance
/// made, its notification still on the way; a client that knows the newer version must still
/// have its `If-Match` met, as on one node.
@Suite("Preconditions over a shared store", .timeLimit(.minutes(1)))
struct SharedStoreAPITests {
    let store = HandStore(shared: true)
    let engines: PagerEngines
    let responder: APIResponder

    init() throws {
        engines = PagerEngines(
            count: 2, clock: TestClock(time: ManualTime()), store: store, drivesTimers: false,
            wallOrigin: Double(APITester.wallOrigin) / 1000)
        responder = APIResponder(
            engines: engines, templates: try APITester.shippedTemplates(), readiness: Readiness())
    }

    /// The status, ETag and problem code of a request, its change made durable when it makes one.
    private func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, ifMatch: String
    ) async -> (status: Int, etag: String?, code: String?) {
        var headers = HTTPFields([HTTPField(name: .ifMatch, value: ifMatch)])
        if json != nil { headers.append(HTTPField(name: .contentType, value: "application/json")) }
        let request = Request(method: method, path: path, headers: headers, body: Array((json ?? "").utf8))
        let response: Response
        switch responder.respond(to: request) {
        case .now(let now):
            response = now
        case .later(let work):
            // The store commits whatever reaches it while the work runs.
            let store = self.store
            let committing = Task {
                while !Task.isCancelled {
                    store.answerAll()
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            response = await work()
            committing.cancel()
        }
        return Self.summary(response)
    }

    private static func summary(_ response: Response) -> (status: Int, etag: String?, code: String?) {
        let body = response.bodyBytes
        let code = (try? JSONParser.parse(body))?["code"]?.stringValue
        return (response.status.code, response.headers[.eTag], code)
    }

    /// The row another instance wrote at `version`: this copy's state moved forward.
    private func writtenElsewhere(_ id: SessionID, at version: Int) throws {
        let held = try engines.shard(for: id).withLock { engine throws(EngineError) in try engine.snapshot(of: id) }
        let moved = try held.pager.applying(.next, limits: PagerLimits(), now: 0).pager
        let row = try moved.restoring(
            index: moved.index, transition: nil, overscroll: nil, version: version, timer: moved.timer)
        store.hold(StoredSession(id: id, pager: row, lastUsed: 0))
    }

    @Test(
        "If-Match naming a version another instance made is met by a command, a PATCH and a DELETE; a stale one is refused"
    )
    func preconditionsOnALaggingCopy() async throws {
        let id = try await HandStore.created(engines, store)
        let path = "/v1/sessions/\(id)"
        try writtenElsewhere(id, at: 2)  // this instance holds version 1
        #expect(await send(.post, path + "/next", ifMatch: #""2""#) == (200, #""3""#, nil))
        try writtenElsewhere(id, at: 4)
        #expect(await send(.patch, path, json: #"{"preload": 2}"#, ifMatch: #""4""#) == (200, #""5""#, nil))
        // An older version is refused with the newest, read from the row.
        try writtenElsewhere(id, at: 6)
        let refused = await send(.post, path + "/previous", ifMatch: #""3""#)
        #expect(refused == (412, #""6""#, "version_mismatch"), "\(refused)")
        try writtenElsewhere(id, at: 7)
        #expect(await send(.delete, path, ifMatch: #""7""#) == (204, nil, nil))
    }

    /// The work of a request whose answer comes later.
    private func later(_ method: HTTPRequest.Method, _ path: String) -> (@Sendable () async -> Response)? {
        guard case .later(let work) = responder.respond(to: Request(method: method, path: path)) else { return nil }
        return work
    }

    @Test("a change waits for this instance's change of the session in flight, and is made on what the store kept")
    func oneChangeInFlight() async throws {
        let store = self.store
        let id = try await HandStore.created(engines, store)
        let path = "/v1/sessions/\(id)"
        let next = try #require(later(.post, path + "/next"))
        let nextAnswer = Task { await next() }
        await waitUntil("the next is submitted") { store.submitted.count == 1 }
        // A previous meanwhile waits: built on the next, it would be stored should the next lose.
        let previous = try #require(later(.post, path + "/previous"))
        let previousAnswer = Task { await previous() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(store.submitted.count == 1)
        // The next loses to another instance's select of page b, version 2.
        let held = try engines.shard(for: id).withLock { engine throws(EngineError) in try engine.snapshot(of: id) }
        let selected = try held.pager.applying(.select(.index(1), path: .direct), limits: PagerLimits(), now: 0).pager
        let row = try selected.restoring(
            index: 1, transition: nil, overscroll: nil, version: 2, timer: selected.timer)
        store.answerAll(StoreError.conflict("lost", current: row))
        // Both are made again on that row, one after the other, and stored.
        let committing = Task {
            while !Task.isCancelled {
                store.answerAll()
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        let answers = [await nextAnswer.value, await previousAnswer.value].map(Self.summary)
        committing.cancel()
        #expect(answers.map(\.status) == [200, 200])
        let final = try engines.shard(for: id).withLock { engine throws(EngineError) in try engine.snapshot(of: id) }
        #expect(
            final.version == 4 && final.pager.index == 1,
            "version \(final.version), index \(String(describing: final.pager.index)), \(answers)")
    }
}
