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
    /// The method or a header name is not an HTTP token.
    case malformed(reason: String)
}

/// The application side of the server: turns each request into a response.
public protocol HTTPResponder: Sendable {
    /// Answers one request. It starts on the server thread that read the request, in a task that
    /// runs inline until it first suspends; a responder that never suspends is answered on that
    /// thread, and one that does continues on Swift's concurrency threads while the connection
    /// waits. It must not block.
    func respond(to request: Request) async -> Response

    /// Answers a request at once, on the server thread that read it, when that needs no waiting;
    /// nil when it might wait, and the server then calls ``respond(to:)`` instead (so this must
    /// not have acted on a request it returns nil for). No task is made for a request answered
    /// here. It must not block. The default answers nothing here.
    func respondImmediately(to request: Request) -> Response?

    /// Answers a request the server refused on its own; called synchronously on a server thread,
    /// so it must be quick and must not block.
    func response(for refusal: HTTPRefusal) -> Response
}

extension HTTPResponder {
    /// Answers nothing at once: every request goes to ``respond(to:)``.
    public func respondImmediately(to request: Request) -> Response? { nil }
}
