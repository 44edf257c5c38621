import Foundation
import HTTPTypes
import MicroHTTP
import Synchronization
import TestSupport
import Testing

/// Answers `/now` now and everything else later, counting which way each request went.
private final class SplitResponder: HTTPResponder {
    let immediate = Atomic<Int>(0)
    let awaited = Atomic<Int>(0)

    func respond(to request: Request) -> Reply {
        guard request.path == "/now" else {
            return .later { [self] in
                awaited.add(1, ordering: .relaxed)
                try? await Task.sleep(for: .milliseconds(2))
                return Response(status: .accepted, body: Array("later".utf8))
            }
        }
        immediate.add(1, ordering: .relaxed)
        return .now(
            Response(status: .ok, headers: [.contentType: "text/plain"], body: Array("now \(request.body.count)".utf8)))
    }

    func response(for refusal: HTTPRefusal) -> Response { Response(status: 400) }
}

@Suite("Replies now and later", .runsAlone)
struct ReplyTests {
    @Test("answers made now and work done later are both delivered, in order, on one kept-alive connection")
    func bothWays() async throws {
        let responder = SplitResponder()
        try await withTestServer(responder: responder) { server in
            let port = server.port
            let replies = try await onThread {
                let connection = try RawHTTPConnection(port: port)
                var replies: [RawHTTPResponse] = []
                for path in ["/now", "/later", "/now", "/now", "/later"] {
                    try connection.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
                    replies.append(try connection.readResponse())
                }
                return replies
            }
            #expect(replies.map(\.status) == [200, 202, 200, 200, 202])
            #expect(String(decoding: replies[0].body, as: UTF8.self) == "now 3")
            #expect(String(decoding: replies[1].body, as: UTF8.self) == "later")
            #expect(
                responder.immediate.load(ordering: .relaxed) == 3 && responder.awaited.load(ordering: .relaxed) == 2)
            try await waitUntilIdle(server)
        }
    }
}
