import HTTPTypes
import Locking
import MicroHTTP
import TestSupport
import Testing

/// Answers `/stream` with a stream it keeps, so that the test writes to it; anything else with
/// `done`.
private final class StreamWriter: HTTPResponder {
    let streams = Locked<[HTTPResponseStream]>([])
    let echo = EchoResponder()

    func respond(to request: Request) -> Reply {
        guard request.path == "/stream" else { return .now(Response(status: .ok, body: Array("done".utf8))) }
        let stream = HTTPResponseStream()
        streams.withLock { $0.append(stream) }
        return .now(Response(status: .ok, headers: [.contentType: "text/event-stream"], stream: stream))
    }

    func response(for refusal: HTTPRefusal) -> Response { echo.response(for: refusal) }
}

@Suite("Event streams' unsent bytes count toward the answer budget", .runsAlone)
struct StreamBudgetTests {
    /// Far more than the socket buffers hold, so that most of it waits in the server.
    private static let size = 32 << 20

    /// Opens `count` streams from `source` whose clients read nothing past the head, and the
    /// streams the server made for them; the connections go to `connections`, where setting one to
    /// nil closes it.
    private static func openUnread(
        _ count: Int, port: Int, from source: String? = nil, writer: StreamWriter,
        into connections: inout [RawHTTPConnection?]
    ) async throws -> [HTTPResponseStream] {
        var streams: [HTTPResponseStream] = []
        for _ in 0..<count {
            let connection = try await onThread {
                let connection = try RawHTTPConnection(port: port, from: source)
                try connection.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try connection.readHeadOnly()
                return connection
            }
            let stream = try #require(writer.streams.withLock { $0.last })
            connections.append(connection)
            streams.append(stream)
        }
        return streams
    }

    @Test(
        "an event shared by several unread streams counts once, until the last of them lets it go; past the budget requests are refused"
    )
    func sharedChunkCountsOnce() async throws {
        let writer = StreamWriter()
        let configuration = HTTPServerConfiguration(port: 0, perIPConnectionLimit: 0, answerBudgetBytes: 1 << 20)
        try await withTestServer(configuration, responder: writer) { server in
            let port = server.port
            var connections: [RawHTTPConnection?] = []
            let streams = try await Self.openUnread(2, port: port, writer: writer, into: &connections)
            let chunk = StreamChunk([UInt8](repeating: 0x61, count: Self.size))
            #expect(streams.allSatisfy { $0.write(chunk) })
            await waitUntil("the chunk is counted once") { server.statistics.answerBytes == Self.size }
            #expect(server.statistics.answerBytes == Self.size)
            let refused = try await onThread { try RawHTTPConnection(port: port).request("GET", "/work") }
            #expect(refused.status == 503)
            // One client hangs up: the other still holds the chunk.
            connections[0] = nil
            await waitUntil("the first stream is closed") { streams[0].isClosed }
            #expect(server.statistics.answerBytes == Self.size)
            // Bytes written as an array count as well, on their own.
            #expect(streams[1].write([UInt8](repeating: 0x62, count: 1000)))
            await waitUntil("the array is counted") { server.statistics.answerBytes == Self.size + 1000 }
            connections[1] = nil
            await waitUntil("nothing unsent is counted") { server.statistics.answerBytes == 0 }
            let served = try await onThread { try RawHTTPConnection(port: port).request("GET", "/work") }
            #expect(served.status == 200)
            try await waitUntilIdle(server)
        }
    }

    @Test("bytes written before the server sends the stream count from then on; what the client reads no longer counts")
    func readBytesRelease() async throws {
        let writer = StreamWriter()
        let configuration = HTTPServerConfiguration(port: 0, perIPConnectionLimit: 0, answerBudgetBytes: 1 << 30)
        try await withTestServer(configuration, responder: writer) { server in
            let port = server.port
            let reader = try await onThread {
                let connection = try RawHTTPConnection(port: port)
                try connection.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try connection.readHeadOnly()
                return connection
            }
            let stream = try #require(writer.streams.withLock { $0.last })
            #expect(stream.write(StreamChunk([UInt8](repeating: 0x63, count: Self.size))))
            await waitUntil("the chunk is counted") { server.statistics.answerBytes == Self.size }
            var read = 0
            while read < Self.size { read += try await onThread { try reader.readChunk()?.count ?? 0 } }
            await waitUntil("the read chunk is no longer counted") { server.statistics.answerBytes == 0 }
            #expect(read == Self.size)
            stream.finish()
            #expect(try await onThread { try reader.readChunk() } == nil)
            try await waitUntilIdle(server)
        }
    }

    @Test("one client network's unread streams hold at most its share: its new requests are refused, the others served")
    func networkShare() async throws {
        let writer = StreamWriter()
        // A share (a quarter) of one chunk.
        let configuration = HTTPServerConfiguration(port: 0, perIPConnectionLimit: 64, answerBudgetBytes: 4 * Self.size)
        try await withTestServer(configuration, responder: writer) { server in
            let port = server.port
            var connections: [RawHTTPConnection?] = []
            let streams = try await Self.openUnread(
                2, port: port, from: "127.0.0.2", writer: writer, into: &connections)
            // The same chunk held by two of the network's streams counts twice toward its share
            // (each stream may have to send all of it), once toward the budget.
            let chunk = StreamChunk([UInt8](repeating: 0x64, count: Self.size / 2))
            #expect(streams.allSatisfy { $0.write(chunk) })
            await waitUntil("the chunk is counted") { server.statistics.answerBytes == Self.size / 2 }
            let refused = try await onThread {
                try RawHTTPConnection(port: port, from: "127.0.0.2").request("GET", "/work")
            }
            #expect(refused.status == 503)
            #expect(String(decoding: refused.body, as: UTF8.self) == "this address's answers over \(Self.size)")
            let other = try await onThread {
                try RawHTTPConnection(port: port, from: "127.0.0.3").request("GET", "/work")
            }
            #expect(other.status == 200)
            connections.removeAll()
            await waitUntil("nothing unsent is counted") { server.statistics.answerBytes == 0 }
            let again = try await onThread {
                try RawHTTPConnection(port: port, from: "127.0.0.2").request("GET", "/work")
            }
            #expect(again.status == 200)
            try await waitUntilIdle(server)
        }
    }

    @Test("a chunk held by streams of two servers counts toward both, and neither keeps a count once they let it go")
    func twoServers() async throws {
        let writers = (StreamWriter(), StreamWriter())
        let configuration = HTTPServerConfiguration(port: 0, perIPConnectionLimit: 0, answerBudgetBytes: 1 << 30)
        try await withTestServer(configuration, responder: writers.0) { first in
            try await withTestServer(configuration, responder: writers.1) { second in
                let chunk = StreamChunk([UInt8](repeating: 0x65, count: Self.size))
                var connections: [RawHTTPConnection?] = []
                var streams: [HTTPResponseStream] = []
                // first, second, first, second: the holds and releases interleave.
                for (server, writer) in [
                    (first, writers.0), (second, writers.1), (first, writers.0), (second, writers.1),
                ] {
                    streams += try await Self.openUnread(1, port: server.port, writer: writer, into: &connections)
                }
                #expect(streams.allSatisfy { $0.write(chunk) })
                // The first server's streams share the chunk; each of the second's counts it itself.
                await waitUntil("the chunk is counted") {
                    first.statistics.answerBytes == Self.size && second.statistics.answerBytes == 2 * Self.size
                }
                for index in [0, 1, 2, 3] {
                    connections[index] = nil
                    await waitUntil("stream \(index) is closed") { streams[index].isClosed }
                }
                await waitUntil("neither counts anything") {
                    first.statistics.answerBytes == 0 && second.statistics.answerBytes == 0
                }
                #expect(first.statistics.answerBytes == 0 && second.statistics.answerBytes == 0)
                try await waitUntilIdle(second)
            }
            try await waitUntilIdle(first)
        }
    }

    @Test(
        "past the budget a stream still holding unsent bytes should wait for all of them to go; an empty one need not")
    func behindWaitsPastBudget() async throws {
        let writer = StreamWriter()
        let configuration = HTTPServerConfiguration(port: 0, perIPConnectionLimit: 0, answerBudgetBytes: 1 << 20)
        try await withTestServer(configuration, responder: writer) { server in
            var connections: [RawHTTPConnection?] = []
            let streams = try await Self.openUnread(2, port: server.port, writer: writer, into: &connections)
            let (behind, idle) = (streams[0], streams[1])
            // Under the budget, a few unsent bytes are no reason to wait (they may already be in
            // the socket: the client's buffer has room for them).
            #expect(behind.write([UInt8](repeating: 0x66, count: 100)))
            #expect(!behind.shouldWait(beyond: 256 << 10))
            // Past it: the stream behind should wait, the one that has sent everything need not.
            #expect(behind.write(StreamChunk([UInt8](repeating: 0x67, count: Self.size))))
            await waitUntil("past the budget") { server.statistics.answerBytes >= 1 << 20 }
            #expect(behind.shouldWait(beyond: Self.size * 2))
            #expect(!idle.shouldWait(beyond: 256 << 10))
            connections.removeAll()
            await waitUntil("nothing unsent is counted") { server.statistics.answerBytes == 0 }
            try await waitUntilIdle(server)
        }
    }
}
