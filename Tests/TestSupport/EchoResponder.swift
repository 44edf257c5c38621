public import MicroHTTP

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

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        if delay > .zero { try? await Task.sleep(for: delay) }
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
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], stream: stream)
        }
        var headers: HTTPHeaders = [
            "X-Method": request.method,
            "X-Path": request.path,
            "X-Body-Length": String(request.body.count),
            "X-Remote": request.remoteAddress,
        ]
        headers.add("X-Query", request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        for (name, value) in request.headers where name.lowercased().hasPrefix("x-echo") {
            headers.add("X-Echoed", "\(name): \(value)")
        }
        return HTTPResponse(status: 200, headers: headers, body: request.body)
    }

    public func response(for refusal: HTTPRefusal) -> HTTPResponse {
        switch refusal {
        case .bodyTooLarge(let limit): HTTPResponse(status: 413, body: Array("too large \(limit)".utf8))
        case .lengthRequired: HTTPResponse(status: 411, body: Array("length required".utf8))
        case .ambiguousFraming(let reason): HTTPResponse(status: 400, body: Array(reason.utf8))
        case .shuttingDown: HTTPResponse(status: 503, body: Array("stopping".utf8))
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
