import Foundation
import HTTPTypes
import MicroHTTP
import Synchronization
import TestSupport
import Testing

@Suite("HTTP server over a real socket", .runsAlone)
struct ServerSocketTests {
    @Test("method, path, query and headers reach the responder")
    func requestValues() async throws {
        try await withTestServer { server in
            let port = server.port
            #expect(port > 0)
            let response = try await onThread {
                try RawHTTPConnection(port: port).request(
                    "DELETE", "/a/b?x=1&y=two%20words&flag", headers: [("X-Echo-One", "v1")])
            }
            #expect(response.status == 200)
            #expect(response.headers["X-Method"] == "DELETE")
            #expect(response.headers["X-Path"] == "/a/b")
            #expect(response.headers["X-Query"] == "x=1&y=two words&flag=")
            #expect(response.headers["X-Echoed"] == "X-Echo-One: v1")
            #expect(response.headers["X-Remote"] == "127.0.0.1")
            try await waitUntilIdle(server)
        }
    }

    @Test("a target in absolute form reaches the responder as its path (RFC 9112 §3.2.2)")
    func absoluteForm() async throws {
        try await withTestServer { server in
            let port = server.port
            for (target, path) in [
                ("http://example.com/a/b?x=1", "/a/b"), ("HTTPS://example.com:8443/c", "/c"),
                ("http://example.com", "/"), ("http://example.com?x=1", "/"),
            ] {
                let response = try await onThread { try RawHTTPConnection(port: port).request("GET", target) }
                #expect(response.status == 200 && response.headers["X-Path"] == path, "\(target)")
            }
            try await waitUntilIdle(server)
        }
    }

    @Test("the path and the query are percent-decoded, but for %00: a NUL would cut them short")
    func percentDecoding() async throws {
        try await withTestServer { server in
            let port = server.port
            let response = try await onThread {
                try RawHTTPConnection(port: port).request("GET", "/a%20b/c%00d%2Fe%zz?k%00=v%00w&x=%41%2f")
            }
            #expect(response.status == 200)
            #expect(response.headers["X-Path"] == "/a b/c%00d/e%zz")
            #expect(response.headers["X-Query"] == "k%00=v%00w&x=A/")
            try await waitUntilIdle(server)
        }
    }

    @Test("a body sent in pieces arrives whole")
    func bodySplitAcrossCallbacks() async throws {
        try await withTestServer { server in
            let port = server.port
            let body = Array((0..<5000).map { UInt8($0 % 251) })
            let response = try await onThread {
                let connection = try RawHTTPConnection(port: port)
                try connection.send("POST /split HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
                for start in stride(from: 0, to: body.count, by: 1000) {
                    Thread.sleep(forTimeInterval: 0.02)
                    try connection.send(Array(body[start..<min(start + 1000, body.count)]))
                }
                return try connection.readResponse()
            }
            #expect(response.status == 200)
            #expect(response.body == body)
            #expect(response.headers["X-Body-Length"] == "5000")
        }
    }

    @Test("a POST with neither Content-Length nor Transfer-Encoding has an empty body")
    func postWithoutBody() async throws {
        try await withTestServer { server in
            let port = server.port
            let response = try await onThread {
                let connection = try RawHTTPConnection(port: port)
                try connection.send("POST /next HTTP/1.1\r\nHost: x\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 200)
            #expect(response.headers["X-Body-Length"] == "0")
        }
    }

    @Test(
        "framing the server refuses before the responder sees the request",
        arguments: [
            ("Content-Length: 70000\r\n", 413),
            ("Transfer-Encoding: chunked\r\n", 411),
            ("Content-Length: 3\r\nTransfer-Encoding: chunked\r\n", 400),
            ("Content-Length: 3\r\nContent-Length: 3\r\n", 400),
            ("Transfer-Encoding: gzip\r\n", 400),
            ("Transfer-Encoding: gzip, chunked\r\n", 400),
            // A framing field folded onto the next line (obs-fold), with a Content-Length beside it.
            ("Content-Length: 3\r\nTransfer-Encoding:\r\n chunked\r\n", 400),
            ("Content-Length:\r\n 3\r\n", 400),
            ("Host: y\r\nContent-Length: 0\r\n", 400),
        ])
    func framingRefusals(headers: String, status: Int) async throws {
        try await withTestServer { server in
            let port = server.port
            let response = try await onThread {
                let connection = try RawHTTPConnection(port: port)
                try connection.send("POST /x HTTP/1.1\r\nHost: x\r\n\(headers)\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == status)
            #expect(response.headers["X-Method"] == nil, "the responder must not have been called")
            try await waitUntilIdle(server)
        }
    }

    @Test("a body at exactly the cap is accepted, one byte more is refused")
    func bodyCap() async throws {
        var configuration = HTTPServerConfiguration(port: 0, perIPConnectionLimit: 0)
        configuration.maxBodyBytes = 1000
        try await withTestServer(configuration) { server in
            let port = server.port
            let (ok, refused) = try await onThread {
                let a = try RawHTTPConnection(port: port).request(
                    "PUT", "/cap", body: [UInt8](repeating: 65, count: 1000))
                let b = try RawHTTPConnection(port: port).request(
                    "PUT", "/cap", body: [UInt8](repeating: 65, count: 1001))
                return (a, b)
            }
            #expect(ok.status == 200)
            #expect(ok.body.count == 1000)
            #expect(refused.status == 413)
            #expect(refused.text == "too large 1000")
        }
    }

    @Test("200 concurrent keep-alive clients × 20 requests are all answered correctly")
    func concurrentKeepAlive() async throws {
        try await withTestServer { server in
            let port = server.port
            let results = try await withThrowingTaskGroup(of: Int.self) { group in
                for client in 0..<200 {
                    group.addTask {
                        try await onThread {
                            // A generous read timeout: under ThreadSanitizer, with the tests not
                            // marked .runsAlone running beside it, 4,000 requests on two server
                            // threads can be slow; this test is about answers, not speed.
                            let connection = try RawHTTPConnection(port: port, timeout: 120)
                            var correct = 0
                            for i in 0..<20 {
                                let body = Array("client \(client) request \(i)".utf8)
                                let response = try connection.request("POST", "/c/\(client)?i=\(i)", body: body)
                                if response.status == 200, response.body == body,
                                    response.headers["X-Path"] == "/c/\(client)",
                                    response.headers["X-Query"] == "i=\(i)"
                                {
                                    correct += 1
                                }
                            }
                            return correct
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(results.count == 200)
            #expect(results.allSatisfy { $0 == 20 })
            try await waitUntilIdle(server)
        }
    }

    @Test(
        "keep-alive connections all ready at once never stall: 256 with poll, 96 with epoll-pool",
        .serialized, arguments: HTTPThreading.allCases)
    func manyConnections(threading: HTTPThreading) async throws {
        // epoll-pool is held to fewer than the 128 events libmicrohttpd 0.9.75 takes from epoll at
        // a time: past that it can leave a thread asleep with requests ready (docs/deploy.md,
        // «Tuning»), which is why poll is the default.
        let count = threading == .poll ? 256 : 96
        // Idle connections are kept however long the clients take (the default closes them after
        // 30 s; on a busy machine the last of 256 client threads can start that late).
        let configuration = HTTPServerConfiguration(
            port: 0, threading: threading, perIPConnectionLimit: 0, connectionTimeout: 0)
        try await withTestServer(configuration) { server in
            let port = server.port
            // Open them all first, then send on every one at once, so all are ready together.
            // A stall never ends, so a generous read timeout still catches one: under
            // ThreadSanitizer, 256 client threads beside other tests took up to 16 s.
            let connections = try await onThread {
                try (0..<count).map { _ in try RawHTTPConnection(port: port, timeout: 90) }
            }
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, connection) in connections.enumerated() {
                    group.addTask {
                        try await onThread {
                            var ok = 0
                            for round in 0..<5 {
                                let response = try connection.request("GET", "/n/\(index)?r=\(round)")
                                if response.status == 200, response.headers["X-Path"] == "/n/\(index)" { ok += 1 }
                            }
                            return ok
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(answered == count * 5)
        }
    }

    @Test("stop while busy lets requests in flight finish, then refuses new connections")
    func stopWhileBusy() async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, perIPConnectionLimit: 0),
            responder: EchoResponder(delay: .milliseconds(1500)))
        try server.start()
        let port = server.port
        let inFlight = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<20 {
                    group.addTask {
                        try await onThread { try RawHTTPConnection(port: port).request("GET", "/busy/\(i)").status }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        // Stop only once all 20 are inside the server (each waits 1.5 s in the responder, long
        // enough for all to arrive even under a sanitizer).
        await waitUntil("20 requests are in flight") { server.liveRequestCount >= 20 }
        #expect(server.liveRequestCount == 20)
        // A grace far longer than the responder's delay: what is checked is that the stop waits.
        await server.stop(gracePeriod: .seconds(60))
        let statuses = try await inFlight.value
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(server.liveRequestCount == 0)
        #expect(server.port == 0)
        await #expect(throws: RawHTTPError.self) {
            try await onThread { try RawHTTPConnection(port: port).request("GET", "/after") }
        }
    }

    @Test("a streamed response is sent as it is written, and ends when finished")
    func streamedResponse() async throws {
        try await withTestServer { server in
            let port = server.port
            let response = try await onThread { try RawHTTPConnection(port: port).request("GET", "/stream?count=4") }
            #expect(response.status == 200)
            #expect(response.headers["Transfer-Encoding"] == "chunked")
            #expect(response.text == "line 0\nline 1\nline 2\nline 3\n")
            try await waitUntilIdle(server)
        }
    }

    @Test("HEAD of a streamed resource sends the headers and not one byte of body")
    func headOfAStream() async throws {
        try await withTestServer { server in
            let port = server.port
            let bytes = try await onThread { () throws -> [UInt8] in
                let connection = try RawHTTPConnection(port: port)
                try connection.send("HEAD /stream?count=4 HTTP/1.1\r\nHost: x\r\n\r\n")
                return try connection.readAll()
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.hasSuffix("\r\n\r\n"), "nothing after the headers: \(text.debugDescription)")
            #expect(!text.contains("Transfer-Encoding") && !text.contains("Content-Length"))
            try await waitUntilIdle(server)
        }
    }

    @Test("stop ends streams that are still open and exits cleanly")
    func stopWithOpenStream() async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, perIPConnectionLimit: 0),
            responder: EchoResponder())
        try server.start()
        let port = server.port
        let received = Atomic<Bool>(false)
        let reader = Task {
            try await onThread { () throws -> (String, Bool) in
                let connection = try RawHTTPConnection(port: port)
                try connection.send("GET /stream?count=2&open=1 HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try connection.readHeadOnly()
                var text = ""
                while text != "line 0\nline 1\n", let chunk = try connection.readChunk() {
                    text += String(decoding: chunk, as: UTF8.self)
                }
                received.store(true, ordering: .releasing)
                // The stream stays open until the server stops; then the last chunk arrives.
                let ended = try connection.readChunk() == nil
                return (text, ended)
            }
        }
        await waitUntil("the request was received") { received.load(ordering: .acquiring) }
        #expect(server.liveRequestCount == 1)
        await server.stop()
        let (text, ended) = try await reader.value
        #expect(text == "line 0\nline 1\n")
        #expect(ended)
        #expect(server.liveRequestCount == 0)
    }

    @Test("starting on a port in use fails with a clear error")
    func portInUse() async throws {
        try await withTestServer { server in
            let second = HTTPServer(
                configuration: HTTPServerConfiguration(host: "127.0.0.1", port: server.port), responder: EchoResponder()
            )
            #expect(throws: HTTPServerError.startFailed(host: "127.0.0.1", port: server.port)) { try second.start() }
            let bad = HTTPServer(
                configuration: HTTPServerConfiguration(host: "example.com"), responder: EchoResponder())
            #expect(throws: HTTPServerError.invalidHost("example.com")) { try bad.start() }
        }
    }
}
