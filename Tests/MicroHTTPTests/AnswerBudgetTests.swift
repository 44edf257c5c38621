import HTTPTypes
import MicroHTTP
import Synchronization
import TestSupport
import Testing

/// Answers `/big` with `size` bytes and anything else with `done`, counting the requests it
/// worked on.
private final class BigResponder: HTTPResponder {
    static let size = 32 << 20
    let worked = Atomic<Int>(0)
    let echo = EchoResponder()

    func respond(to request: Request) -> Reply {
        worked.add(1, ordering: .relaxed)
        if request.path == "/big" {
            return .now(Response(status: .ok, body: [UInt8](repeating: 0x61, count: Self.size)))
        }
        if request.path == "/slow-big" {
            // Answered later, so that requests sent together are all admitted first.
            return .later {
                try? await Task.sleep(for: .milliseconds(300))
                return Response(status: .ok, body: [UInt8](repeating: 0x62, count: Self.size))
            }
        }
        return .now(Response(status: .ok, body: Array("done".utf8)))
    }

    func response(for refusal: HTTPRefusal) -> Response { echo.response(for: refusal) }
}

@Suite("Answers not yet read by their clients are counted and bounded", .runsAlone)
struct AnswerBudgetTests {
    private static let budget = 1 << 20

    /// A client that asked for `/big` and reads nothing yet: far more than the socket buffers
    /// hold, so most of the answer waits in the server.
    private static func unreadBig(port: Int, from source: String? = nil) async throws -> RawHTTPConnection {
        try await onThread {
            let connection = try RawHTTPConnection(port: port, from: source)
            try connection.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            return connection
        }
    }

    @Test(
        "past answerBudgetBytes a request is refused before its work (but for the paths always served), and served again once the answers are read"
    )
    func refusedWhileAnswersPileUp() async throws {
        let responder = BigResponder()
        let configuration = HTTPServerConfiguration(
            port: 0, perIPConnectionLimit: 0, answerBudgetBytes: Self.budget, alwaysServedPaths: ["/health"])
        try await withTestServer(configuration, responder: responder) { server in
            let port = server.port
            let reader = try await Self.unreadBig(port: port)
            await waitUntil("the big answer is counted") { server.statistics.answerBytes == BigResponder.size }
            let refused = try await onThread { try RawHTTPConnection(port: port).request("POST", "/work", body: []) }
            #expect(refused.status == 503)
            #expect(String(decoding: refused.body, as: UTF8.self) == "answers over \(Self.budget)")
            #expect(responder.worked.load(ordering: .relaxed) == 1)  // the big one only
            let health = try await onThread { try RawHTTPConnection(port: port).request("GET", "/health") }
            #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self) == "done")
            let big = try await onThread { try reader.readResponse() }
            #expect(big.status == 200 && big.body.count == BigResponder.size)
            await waitUntil("the read answer is no longer counted") { server.statistics.answerBytes == 0 }
            let served = try await onThread { try RawHTTPConnection(port: port).request("POST", "/work", body: []) }
            #expect(served.status == 200 && String(decoding: served.body, as: UTF8.self) == "done")
            #expect(responder.worked.load(ordering: .relaxed) == 3)
            try await waitUntilIdle(server)
            #expect(server.statistics.answerBytes == 0)
        }
    }

    /// A client network's share when the budget holds four big answers: one big answer.
    private static let shareOfOne = BigResponder.size

    /// Runs `body` with a server whose answer budget holds four big answers, so that one client
    /// network (a quarter) may hold one, and the per-address limits on.
    private static func withShareOfOne(
        _ responder: BigResponder, _ body: (HTTPServer) async throws -> Void
    ) async throws {
        let configuration = HTTPServerConfiguration(
            port: 0, perIPConnectionLimit: 64, answerBudgetBytes: 4 * shareOfOne)
        try await withTestServer(configuration, responder: responder, body)
    }

    @Test("one client's network may hold a quarter of the budget in unread answers; the others are still served")
    func shareOfOneAddress() async throws {
        let responder = BigResponder()
        try await Self.withShareOfOne(responder) { server in
            let port = server.port
            let reader = try await Self.unreadBig(port: port, from: "127.0.0.2")
            await waitUntil("the big answer is counted") { server.statistics.answerBytes == BigResponder.size }
            let refused = try await onThread {
                try RawHTTPConnection(port: port, from: "127.0.0.2").request("GET", "/big")
            }
            #expect(refused.status == 503)
            #expect(String(decoding: refused.body, as: UTF8.self) == "this address's answers over \(Self.shareOfOne)")
            #expect(responder.worked.load(ordering: .relaxed) == 1)
            // Another client is served, a big answer too.
            let other = try await onThread {
                try RawHTTPConnection(port: port, from: "127.0.0.3").request("GET", "/big")
            }
            #expect(other.status == 200 && other.body.count == BigResponder.size)
            // Once the first client reads its answer, it is served again.
            let big = try await onThread { try reader.readResponse() }
            #expect(big.body.count == BigResponder.size)
            await waitUntil("the read answers are no longer counted") { server.statistics.answerBytes == 0 }
            let again = try await onThread {
                try RawHTTPConnection(port: port, from: "127.0.0.2").request("POST", "/work", body: [])
            }
            #expect(again.status == 200)
            try await waitUntilIdle(server)
        }
    }

    @Test("reads admitted together from one network: the answers past its share are refused when they are ready")
    func readsAdmittedTogether() async throws {
        let responder = BigResponder()
        try await Self.withShareOfOne(responder) { server in
            let port = server.port
            // Three reads sent at once, none read: all admitted (the network holds nothing yet).
            let readers = try await onThread {
                try (0..<3).map { _ in
                    let connection = try RawHTTPConnection(port: port, from: "127.0.0.2")
                    try connection.send("GET /slow-big HTTP/1.1\r\nHost: x\r\n\r\n")
                    return connection
                }
            }
            // Read once the two refused have completed (their small answers fit the socket), with
            // the one big answer left unread (were the share not held, two would be left).
            await waitUntil("only the big answer is left") {
                responder.worked.load(ordering: .relaxed) == 3 && server.statistics.liveRequests == 1
            }
            let answers = try await onThread { try readers.map { try $0.readResponse() } }
            #expect(responder.worked.load(ordering: .relaxed) == 3)
            #expect(answers.map(\.status).sorted() == [200, 503, 503])
            #expect(answers.filter { $0.status == 200 }.map(\.body.count) == [BigResponder.size])
            await waitUntil("the answers are no longer counted") { server.statistics.answerBytes == 0 }
            try await waitUntilIdle(server)
        }
    }

    @Test("an answer whose client hangs up is no longer counted")
    func hangUpReleases() async throws {
        let configuration = HTTPServerConfiguration(port: 0, perIPConnectionLimit: 0, answerBudgetBytes: Self.budget)
        try await withTestServer(configuration, responder: BigResponder()) { server in
            var reader: RawHTTPConnection? = try await Self.unreadBig(port: server.port)
            await waitUntil("the big answer is counted") { server.statistics.answerBytes == BigResponder.size }
            #expect(reader != nil)
            reader = nil  // closes the socket with the answer unread
            await waitUntil("the abandoned answer is no longer counted") { server.statistics.answerBytes == 0 }
            try await waitUntilIdle(server)
        }
    }

    @Test("answers under the budget are counted while queued and never refused")
    func smallAnswersServed() async throws {
        try await withTestServer { server in
            let port = server.port
            for _ in 0..<20 {
                let response = try await onThread {
                    try RawHTTPConnection(port: port).request("POST", "/echo", body: Array(repeating: 7, count: 10_000))
                }
                #expect(response.status == 200 && response.body.count == 10_000)
            }
            try await waitUntilIdle(server)
            #expect(server.statistics.answerBytes == 0)
        }
    }
}
