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
    /// Answers not yet read by their clients hold more than `answerBudgetBytes`: the request is
    /// refused before its work, so it changed nothing.
    case answerBudgetExceeded(limit: Int)
    /// Large answers (or stream chunks) not yet read by clients at the request's address hold more than their share
    /// of `answerBudgetBytes` (a quarter): refused before its work, so it changed nothing, and
    /// other clients are still served.
    case addressAnswerShareExceeded(limit: Int)
}

/// A responder's answer to one request: a response now, or work that produces one later.
public enum Reply: Sendable {
    /// The response, made on the server thread that read the request. The server queues it at
    /// once.
    case now(Response)
    /// Work that must wait (for a commit, or for another process's data). The server starts it
    /// in a task that runs on the server thread until it first suspends; a request whose work
    /// suspends waits with its connection suspended, holding no thread. Nothing may have been
    /// changed before the work runs: the server may refuse the request instead (when it is
    /// stopping), and then the work never runs.
    case later(@Sendable () async -> Response)
}

/// The application side of the server: turns each request into a response.
public protocol HTTPResponder: Sendable {
    /// Answers one request, on the server thread that read it: with a response now, or with
    /// work for later. It runs on one of libmicrohttpd's threads, which serve other connections
    /// too, so whatever it waits for delays those connections as well: it should wait for nothing
    /// but locks held briefly (docs/architecture.md lists the locks pagerd's responder takes, and
    /// how long each is held, under «Threads and locks»).
    func respond(to request: Request) -> Reply

    /// Answers a request the server refused on its own; called synchronously on a server thread
    /// (and by ``HTTPServer/stop()`` for the requests still waiting), so it must be quick and must
    /// not wait.
    func response(for refusal: HTTPRefusal) -> Response
}
