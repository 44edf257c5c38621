import HTTPTypes
import JSON
import MicroHTTP
import PagerAPI
import PagerSessions
import TestSupport
import Testing

@Suite("Readiness: /readyz reports whether the service can take changes")
struct ReadinessTests {
    @Test("/readyz answers 503 not_ready while the store refuses changes, and 200 again once it takes them")
    func readinessFollowsTheStore() async throws {
        let store = HandStore()
        let engines = PagerEngines(count: 1, store: store)
        let readiness = Readiness()
        readiness.set(true)
        let responder = APIResponder(engines: engines, readiness: readiness)
        let id = try await HandStore.created(engines, store)
        func send(_ method: HTTPRequest.Method, _ path: String) async -> Response {
            await responder.answer(Request(method: method, path: path, query: [], headers: [:], body: []))
        }
        #expect(await send(.get, "/readyz").status == .ok)
        store.refuse(StoreError("the disk is full"))
        let refused = await send(.post, "/v1/sessions/\(id)/next")
        #expect(refused.status == .serviceUnavailable)
        let notReady = await send(.get, "/readyz")
        let problem = try JSONParser.parse(notReady.bodyBytes)
        #expect(notReady.status == .serviceUnavailable && notReady.headers[.retryAfter] == "1")
        #expect(problem["code"] == "not_ready" && problem["detail"]?.stringValue?.contains("disk") == false)
        // Reads go on meanwhile.
        #expect(await send(.get, "/v1/sessions/\(id)").status == .ok)
        store.refuse(nil)
        #expect(await send(.get, "/readyz").status == .ok)
    }
}
