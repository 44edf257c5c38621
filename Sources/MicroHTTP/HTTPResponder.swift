/// Why the server refused a request before it reached the responder.
public enum HTTPRefusal: Sendable, Equatable {
    /// The declared Content-Length exceeds the configured body cap.
    case bodyTooLarge(limit: Int)
    /// A chunked body was sent where only a body with a Content-Length is accepted.
    case lengthRequired
    /// The message framing is ambiguous (the request-smuggling class of defects).
    case ambiguousFraming(reason: String)
    /// The server is stopping and did not finish this request within its grace period.
    case shuttingDown
}

/// The application side of the server: turns each request into a response.
public protocol HTTPResponder: Sendable {
    /// Answers one request. Called on a Swift concurrency thread, never on a server thread.
    func respond(to request: HTTPRequest) async -> HTTPResponse

    /// Answers a request the server refused on its own; called synchronously on a server thread,
    /// so it must be quick and must not block.
    func response(for refusal: HTTPRefusal) -> HTTPResponse
}
