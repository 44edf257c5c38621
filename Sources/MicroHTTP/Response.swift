public import HTTPTypes

/// What a responder answers: a status, header fields and a body. Status and header fields are
/// swift-http-types values.
public struct Response: Sendable {
    /// How the body is delivered.
    public enum Body: Sendable {
        /// A complete body, sent with a Content-Length.
        case bytes([UInt8])
        /// A body written over time by the application, sent chunked.
        case stream(HTTPResponseStream)
    }

    /// The status, for example `.ok`; only its code is sent (libmicrohttpd writes the phrase).
    public var status: HTTPResponse.Status
    /// The header fields; Content-Length and Date are added by the server.
    public var headers: HTTPFields
    /// The body.
    public var body: Body

    /// Creates a response with a complete body.
    public init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// Creates a response whose body is written through `stream`.
    public init(status: HTTPResponse.Status, headers: HTTPFields = [:], stream: HTTPResponseStream) {
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

extension Response {
    /// Releases a response that will never be sent: a streamed body is closed, so its writer
    /// and close handlers see the end.
    func discard() {
        if case .stream(let stream) = body { stream.close() }
    }
}
