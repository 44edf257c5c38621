import HTTPTypes
import Locking

/// The server's state for one request, from its first header callback to its completion.
///
/// What only the server thread serving the connection touches (the request's parts as they are
/// copied in) is plain; what other threads touch too (the responder's task delivering its answer,
/// `stop()` refusing the request or ending its stream) is the ``Exchange``, under the request's
/// lock.
final class RequestContext: @unchecked Sendable {
    // @unchecked: the plain fields below are touched only by the server thread serving the
    // connection (and by the completion callback, which runs on it too, or after it has ended);
    // `exchange` is a locked value.
    let method: HTTPRequest.Method
    let path: String
    var peer = PeerAddress()
    var query: [(name: String, value: String)] = []
    var headers = HTTPFields()
    var body: [UInt8] = []
    var bodyOverflow = false
    /// Whether the request is in the server's `active` table.
    var isTracked = false
    /// Bytes of the complete answer queued for this request, counted in the server's statistics
    /// until the request completes (its answer sent, or its connection closed). Server thread only.
    var answerBytes = 0
    /// Of those, the bytes counted for the client's network too (a large answer's). Server
    /// thread only.
    var networkAnswerBytes = 0
    /// The connection, which the exchange suspends and resumes.
    let connection: ConnectionHandle
    private let exchange = Locked(Exchange())

    init(method: HTTPRequest.Method, path: String, connection: ConnectionHandle) {
        self.method = method
        self.path = path
        self.connection = connection
    }

    /// The request value handed to the responder.
    func makeRequest() -> Request {
        Request(method: method, path: path, query: query, headers: headers, body: body, peer: peer)
    }

    /// Runs one transition of the exchange and performs the connection action it returns while
    /// still holding the lock, so that a suspend and a resume of the connection happen in the
    /// order of the transitions that asked for them. libmicrohttpd's suspend and resume take only
    /// its own mutex, under which it never calls pagerd, so this cannot deadlock.
    private func transition<Result>(_ body: (inout Exchange) -> (Result, Exchange.ConnectionAction)) -> Result {
        exchange.withLock { exchange in
            let (result, action) = body(&exchange)
            switch action {
            case .none: break
            case .suspend: connection.suspend()
            case .resume: connection.resume()
            }
            return result
        }
    }

    /// Whether the body is still arriving (the access handler appends chunks then).
    var isReceiving: Bool { exchange.withLock { $0.state.isReceiving } }

    /// The body is complete and the responder's work starts.
    func startResponding() { transition { ((), $0.startResponding()) } }

    /// Offers the answer; see ``Exchange/offer(_:)``. Returns whether it was taken.
    func offer(_ response: Response) -> Bool { transition { $0.offer(response) } }

    /// Called by the access handler once the responder's task has run as far as it could
    /// inline, or when libmicrohttpd calls again after a resume: the answer to queue, or nil
    /// with the connection suspended until it comes.
    func takeResponse() -> Response? { transition { $0.takeResponse() } }

    /// Marks the request answered without the responder's work (an answer made now, or a
    /// refusal).
    func markAnswered() { transition { ((), $0.markAnswered()) } }

    /// Whether the request has not been answered yet (still arriving, or with the responder).
    var isAwaitingResponse: Bool { exchange.withLock { $0.state.isAwaitingResponse } }

    /// The streamed body being sent, if any; `stop()` reads it from another thread.
    var stream: HTTPResponseStream? {
        get { exchange.withLock { $0.stream } }
        set { exchange.withLock { $0.stream = newValue } }
    }
}

/// One request's life as a state machine: the state is one enum, and each event is a mutating
/// method that moves it on and returns what must be done to the connection (the caller does it
/// under the request's lock, see ``RequestContext``).
struct Exchange {
    enum State {
        /// Headers or body still arriving; only the server thread acts.
        case receiving
        /// The responder's work runs and the connection is not suspended: the access handler is
        /// still on the stack, waiting to see whether the answer comes inline.
        case responding
        /// The responder's work runs and the connection is suspended.
        case suspended
        /// The answer is stored; the server thread queues it when libmicrohttpd calls next.
        case ready(Response)
        /// The answer has been queued (or the request refused).
        case answered

        var isReceiving: Bool { if case .receiving = self { true } else { false } }

        var isAwaitingResponse: Bool {
            switch self {
            case .receiving, .responding, .suspended: true
            case .ready, .answered: false
            }
        }
    }

    /// What the caller does to the connection after a transition.
    enum ConnectionAction {
        case none
        case suspend
        case resume
    }

    var state = State.receiving
    /// The streamed body being sent, if any.
    var stream: HTTPResponseStream?

    mutating func startResponding() -> ConnectionAction {
        state = .responding
        return .none
    }

    /// Stores the answer unless one was stored (or queued) already, and says whether it did. A
    /// connection suspended for it is resumed, so once anyone has seen the answer stored the
    /// connection has been resumed.
    mutating func offer(_ response: Response) -> (Bool, ConnectionAction) {
        switch state {
        case .responding:
            state = .ready(response)
            return (true, .none)
        case .suspended:
            state = .ready(response)
            return (true, .resume)
        case .receiving, .ready, .answered:
            return (false, .none)
        }
    }

    /// Takes the stored answer; without one, suspends the connection until it comes (also when
    /// libmicrohttpd calls again before it came, rather than let it call back in a busy loop).
    mutating func takeResponse() -> (Response?, ConnectionAction) {
        switch state {
        case .ready(let response):
            state = .answered
            return (response, .none)
        case .responding, .suspended:
            state = .suspended
            return (nil, .suspend)
        case .receiving, .answered:
            return (nil, .none)
        }
    }

    mutating func markAnswered() -> ConnectionAction {
        state = .answered
        return .none
    }
}
