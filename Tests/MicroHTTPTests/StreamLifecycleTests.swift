import Foundation
import HTTPTypes
import Locking
import MicroHTTP
import Synchronization
import TestSupport
import Testing

/// A responder that keeps every stream it opens, so tests can see when the server closes one.
/// `/open` answers with a stream that is never written to; `/slow` answers once `release()` is
/// called (or after 10 s).
private final class StreamKeeper: HTTPResponder {
    let streams = Locked<[HTTPResponseStream]>([])
    private let released = Locked(false)
    /// Whether a `/slow` request has reached the responder.
    let slowArrived = Locked(false)

    func release() { released.withLock { $0 = true } }

    func respond(to request: Request) -> Reply {
        switch request.path {
        case "/open":
            let stream = HTTPResponseStream()
            streams.withLock { $0.append(stream) }
            return .now(Response(status: .ok, headers: [.contentType: "text/event-stream"], stream: stream))
        case "/slow":
            return .later { [self] in
                slowArrived.withLock { $0 = true }
                await waitUntil("the test releases the slow request") { released.withLock({ $0 }) }
                return Response(status: .ok, body: Array("slow".utf8))
            }
        default:
            return .now(Response(status: .ok, body: Array("ok".utf8)))
        }
    }

    func response(for refusal: HTTPRefusal) -> Response {
        refusal == .shuttingDown
            ? Response(status: .serviceUnavailable, headers: [.connection: "close"], body: Array("stopping".utf8))
            : Response(status: .badRequest)
    }
}

@Suite("Streams and shutdown over a real socket", .runsAlone)
struct StreamLifecycleTests {
    @Test("a waiting stream whose client hangs up is closed at once, with nothing written to it")
    func departedClientIsFreed() async throws {
        let keeper = StreamKeeper()
        try await withTestServer(responder: keeper) { server in
            let port = server.port
            for round in 0..<20 {
                try await onThread {
                    let connection = try RawHTTPConnection(port: port)
                    try connection.send("GET /open HTTP/1.1\r\nHost: x\r\n\r\n")
                    _ = try connection.readHeadOnly()
                }  // the connection closes here
                let stream = try #require(keeper.streams.withLock { $0.last })
                // No write and no heartbeat: only watching the socket can notice the hang-up.
                await waitUntil("the stream is closed") { stream.isClosed }
                #expect(stream.isClosed, "round \(round)")
            }
            try await waitUntilIdle(server)
        }
    }

    @Test("an upload under way when the stop begins is served within the grace period, not refused")
    func uploadDuringStop() async throws {
        let keeper = StreamKeeper()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, perIPConnectionLimit: 0),
            responder: keeper)
        try server.start()
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send("POST /plain HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhalf-")
        await waitUntil("a request is in flight") { server.liveRequestCount > 0 }
        let started = ContinuousClock.now
        let stopping = Task { await server.stop(gracePeriod: .seconds(60)) }
        await waitUntil("the server is stopping") { server.isStopping }
        // The stop waits for the body: had it not, this would be answered 503 once the grace ended.
        try await Task.sleep(for: .milliseconds(300))
        try connection.send("done!")
        let answer = try await onThread { try connection.readResponse(method: "POST") }
        #expect(answer.status == 200 && answer.body == Array("ok".utf8))
        await stopping.value
        #expect(ContinuousClock.now - started < .seconds(30))  // the stop ended with the upload, not the grace
        #expect(server.liveRequestCount == 0)
    }

    @Test("a stream asked for on a kept-alive connection while stopping is refused with Connection: close")
    func streamDuringStop() async throws {
        for _ in 0..<3 {
            let keeper = StreamKeeper()
            let server = HTTPServer(
                configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, perIPConnectionLimit: 0),
                responder: keeper)
            try server.start()
            let port = server.port
            let kept = try RawHTTPConnection(port: port)
            #expect(try await onThread { try kept.request("GET", "/plain") }.status == 200)
            // A slow request keeps the stop in its grace period while the kept-alive client asks.
            let slow = Task { try await onThread { try RawHTTPConnection(port: port).request("GET", "/slow") } }
            // Wait for the slow request itself (the kept-alive one may still count as live).
            await waitUntil("the slow request arrived") { keeper.slowArrived.withLock({ $0 }) }
            let stopping = Task { await server.stop(gracePeriod: .seconds(60)) }
            await waitUntil("the server is stopping") { server.isStopping }
            let refused = try await onThread { try kept.request("GET", "/open") }
            #expect(refused.status == 503 && refused.headers["Connection"]?.lowercased() == "close")
            keeper.release()
            #expect(try await slow.value.status == 200)
            await stopping.value
            #expect(server.liveRequestCount == 0)
            #expect(keeper.streams.withLock { $0.isEmpty })
        }
    }
}
