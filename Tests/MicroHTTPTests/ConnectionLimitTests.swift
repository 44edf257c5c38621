import Foundation
import MicroHTTP
import TestSupport
import Testing

/// `connectionLimit` over all of the server's threads: libmicrohttpd splits its own limit between
/// its threads, so the server gives each thread the whole limit and holds the total itself.
@Suite struct ConnectionLimitTests {
    @Test(
        "the limit holds over every thread: a connection past it is closed at once, and room frees with a close",
        .serialized, arguments: HTTPThreading.allCases)
    func limitOverThreads(threading: HTTPThreading) async throws {
        // Held connections idle between requests; under a sanitizer on a busy machine the steps
        // below have taken 30 s (the default idle timeout), which closed them all mid-test.
        let configuration = HTTPServerConfiguration(
            port: 0, threading: threading, threadPoolSize: 2, connectionLimit: 6, perIPConnectionLimit: 0,
            connectionTimeout: 600)
        try await withTestServer(configuration) { server in
            let port = server.port
            // Six connections, each answered once and kept open, one after another.
            var held = try await onThread {
                try (0..<6).map { index -> RawHTTPConnection in
                    let connection = try RawHTTPConnection(port: port, timeout: 30)
                    #expect(try connection.request("GET", "/held/\(index)").status == 200)
                    return connection
                }
            }
            #expect(server.statistics.openConnections == 6)
            // A seventh is accepted and closed at once: it does not wait in the listen backlog
            // (where it would stay, unanswered, until the read timed out).
            let started = ContinuousClock.now
            let refused = try await onThread { () -> Bool in
                let connection = try RawHTTPConnection(port: port, timeout: 20)
                try? connection.send("GET /seventh HTTP/1.1\r\nHost: x\r\n\r\n")
                // Closed (or reset, the request being unread) with no answer.
                return (try? connection.readResponse()) == nil
            }
            #expect(refused && ContinuousClock.now - started < .seconds(10))
            #expect(server.statistics.openConnections == 6)
            // One held connection closes: a new one is served.
            held.removeFirst()
            await waitUntil("the closed connection is counted out") { server.statistics.openConnections == 5 }
            let answered = try await onThread { try RawHTTPConnection(port: port).request("GET", "/after").status }
            #expect(answered == 200)
            // Every held connection still works.
            for connection in held {
                #expect(try await onThread { try connection.request("GET", "/again").status } == 200)
            }
        }
    }
}
