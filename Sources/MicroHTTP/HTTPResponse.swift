/// What a responder answers: a status, header fields and a body.
public struct HTTPResponse: Sendable {
    /// How the body is delivered.
    public enum Body: Sendable {
        /// A complete body, sent with a Content-Length.
        case bytes([UInt8])
        /// A body written over time by the application, sent chunked.
        case stream(HTTPResponseStream)
    }

    /// The status code, for example 200.
    public var status: Int
    /// The header fields; Content-Length and Date are added by the server.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// Creates a response with a complete body.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// Creates a response whose body is written through `stream`.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), stream: HTTPResponseStream) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }

    /// The complete body's bytes; empty for a streamed body.
    public var bodyBytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}

extension HTTPResponse {
    /// Releases a response that will never be sent: a streamed body is closed, so its writer
    /// and close handlers see the end.
    func discard() {
        if case .stream(let stream) = body { stream.close() }
    }
}
