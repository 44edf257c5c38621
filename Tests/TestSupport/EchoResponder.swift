import HTTPTypes
public import MicroHTTP
public import Testing

/// A responder for server tests: echoes the request back and answers refusals with their kind.
public struct EchoResponder: HTTPResponder {
    /// How long to wait before answering, to keep requests in flight.
    public var delay: Duration
    /// Paths that answer with a stream: `/stream` writes `count` lines then finishes.
    public var streams: Bool

    public init(delay: Duration = .zero, streams: Bool = true) {
        self.delay = delay
        self.streams = streams
    }

    /// Answers now, or later after `delay` when one is set.
    public func respond(to request: Request) -> Reply {
        guard delay > .zero else { return .now(echo(request)) }
        return .later {
            try? await Task.sleep(for: delay)
            return echo(request)
        }
    }

    private func echo(_ request: Request) -> Response {
        if streams, request.path == "/stream" {
            let stream = HTTPResponseStream()
            let count = Int(request.queryValue("count") ?? "3") ?? 3
            Task {
                for i in 0..<count {
                    try? await Task.sleep(for: .milliseconds(10))
                    stream.write(Array("line \(i)\n".utf8))
                }
                if request.queryValue("open") == nil { stream.finish() }
            }
            return Response(status: .ok, headers: [.contentType: "text/plain"], stream: stream)
        }
        var headers = HTTPFields()
        func add(_ name: String, _ value: String) {
            headers.append(HTTPField(name: HTTPField.Name(name)!, value: value))
        }
        add("X-Method", request.method.rawValue)
        add("X-Path", request.path)
        add("X-Body-Length", String(request.body.count))
        add("X-Remote", request.remoteAddress)
        add("X-Query", request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        for field in request.headers where field.name.canonicalName.hasPrefix("x-echo") {
            add("X-Echoed", "\(field.name.rawName): \(field.value)")
        }
        return Response(status: .ok, headers: headers, body: request.body)
    }

    public func response(for refusal: HTTPRefusal) -> Response {
        switch refusal {
        case .bodyTooLarge(let limit): Response(status: .contentTooLarge, body: Array("too large \(limit)".utf8))
        case .lengthRequired: Response(status: .lengthRequired, body: Array("length required".utf8))
        case .ambiguousFraming(let reason), .malformed(let reason):
            Response(status: .badRequest, body: Array(reason.utf8))
        case .shuttingDown: Response(status: .serviceUnavailable, body: Array("stopping".utf8))
        case .answerBudgetExceeded(let limit):
            Response(status: .serviceUnavailable, body: Array("answers over \(limit)".utf8))
        case .addressAnswerShareExceeded(let limit):
            Response(status: .serviceUnavailable, body: Array("this address's answers over \(limit)".utf8))
        }
    }
}

/// Starts a server on 127.0.0.1 port 0 for the duration of `body`, then stops it.
public func withTestServer<T>(
    _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(port: 0, perIPConnectionLimit: 0),
    responder: any HTTPResponder = EchoResponder(),
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, responder: responder)
    try server.start()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Expects `server` to have no request in flight within ten seconds. A client can read a
/// response before libmicrohttpd's completion callback, which ends the request, has run.
public func waitUntilIdle(_ server: HTTPServer, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    await waitUntil("the server has no request in flight", sourceLocation: sourceLocation) {
        server.liveRequestCount == 0
    }
}
