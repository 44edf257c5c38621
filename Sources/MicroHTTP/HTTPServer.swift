import Locking
import Synchronization

/// Why the server could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host is not an IP address literal or `localhost`.
    case invalidHost(String)
    /// The library refused to start (port in use, no permission, bad option).
    case startFailed(host: String, port: Int)
    /// `start()` was called twice.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidHost(let host): "host '\(host)' is not an IPv4 or IPv6 address or 'localhost'"
        case .startFailed(let host, let port): "cannot listen on \(host):\(port) (address in use or not permitted)"
        case .alreadyStarted: "the server is already started"
        }
    }
}

/// An HTTP/1.1 server on GNU libmicrohttpd that hands each complete request to a responder.
///
/// libmicrohttpd's threads call the responder, which answers now or with work for later
/// (``Reply``). An answer made now is queued at once. Work for later runs in a task that starts
/// on the server thread and runs until it first suspends: if it finishes there, its answer is
/// queued at once; otherwise the connection is suspended and the task resumes it with the
/// answer. A server thread never waits for a task; it waits only for locks (the server's own,
/// held for a few field writes, and those the responder takes; docs/architecture.md lists them
/// and how long each is held under «Threads and locks»).
public final class HTTPServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    let daemon = Locked(DaemonState())
    /// Counters the server keeps; shared with whoever reports them.
    public let statistics: HTTPServerStatistics
    /// The requests `stop()` may have to act on: those still receiving a body, those answered
    /// through a task (they may wait suspended) and those answered with a stream. A request with
    /// no body answered at once with bytes is never in it (see ``track(_:)``).
    let active = Locked([ObjectIdentifier: RequestContext]())
    /// Bytes of large answers and stream chunks not yet sent, by client network (see
    /// ``largeAnswerBytes``).
    let answersByNetwork = NetworkAnswers()
    /// Set when `stop()` begins: new requests are refused and never suspended.
    let stopping = Atomic<Bool>(false)
    /// Set when the grace period is over: requests whose body completes now are refused too.
    let refusing = Atomic<Bool>(false)
    let watcher = PeerWatcher()
    let errorLog: @Sendable (String) -> Void

    /// Creates a stopped server. `errorLog` receives libmicrohttpd's own error messages (a
    /// malformed request, a connection reset, a failed accept) as text, on a server thread.
    /// Created with `statistics` (by default its own), so a responder can report the server's
    /// counters without holding the server.
    public init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder,
        statistics: HTTPServerStatistics = HTTPServerStatistics(),
        errorLog: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.responder = responder
        self.statistics = statistics
        self.errorLog = errorLog
    }

    deinit {
        precondition(daemon.withLock { $0.handle == nil }, "an HTTPServer was released while running: call stop()")
    }

    /// The port the server listens on (the chosen one when configured with port 0); 0 when stopped.
    public var port: Int { daemon.withLock { $0.port } }

    /// The time `stop()` gives requests in flight by default: with the 2 s drain, inside the 10 s
    /// a container runtime waits before it kills.
    public static let defaultGracePeriod = Duration.seconds(5)

    /// Whether `stop()` has begun: from then on new requests are refused.
    public var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Requests between their first header and their completion, streams included.
    public var liveRequestCount: Int { statistics.liveRequests }

    /// Starts listening. Throws when the address cannot be bound.
    public func start() throws(HTTPServerError) {
        try startDaemon()
    }

    /// Stops gracefully: stops accepting, ends open streams, lets requests in flight finish for up
    /// to `gracePeriod` (answering any still unfinished with the responder's shutdown refusal),
    /// gives queued responses up to `drainPeriod` to reach their clients, then closes every
    /// connection. From the first moment, a request that arrives on a kept-alive connection is
    /// answered 503 with `Connection: close`, so no connection is suspended when the daemon stops.
    public func stop(gracePeriod: Duration = HTTPServer.defaultGracePeriod, drainPeriod: Duration = .seconds(2)) async {
        guard quiesce() else { return }
        for context in activeContexts() { context.stream?.finish() }
        await wait(until: .now + gracePeriod) { !$0.hasUnfinishedWork }
        refusing.store(true, ordering: .releasing)
        releaseWaitingConnections()
        // A request is complete once its response has been handed to the socket; an idle
        // keep-alive connection holds no request, so this does not wait for idle clients.
        await wait(until: .now + drainPeriod) { $0.liveRequestCount == 0 }
        releaseWaitingConnections()
        stopDaemon()
    }

    /// Answers every request still waiting for its responder with the shutdown refusal and ends
    /// every stream, resuming their connections. A connection is resumed only while it is
    /// suspended, under the lock that says so (the request's exchange or the stream's), and
    /// whoever clears that state resumes it before releasing the lock; so when this returns no
    /// connection known to the table is suspended, and none is touched after libmicrohttpd freed
    /// it (a suspended connection cannot complete). The table's own lock is not held meanwhile:
    /// libmicrohttpd takes its locks there.
    private func releaseWaitingConnections() {
        let refusal = responder.response(for: .shuttingDown)
        for context in activeContexts() {
            _ = context.offer(refusal)
            context.stream?.finish()
        }
    }

    /// Puts `context` in the table `stop()` reads, once. Called on the server thread that serves
    /// the request, before it reads `stopping` or `refusing` to decide whether the request may
    /// wait: either `stop()` finds the request in the table, or the request sees the flag (both
    /// sides take the table's lock, `stop()` after setting the flag), so no request is left waiting
    /// unseen.
    func track(_ context: RequestContext) {
        guard !context.isTracked else { return }
        context.isTracked = true
        active.withLock { $0[ObjectIdentifier(context)] = context }
    }

    private func activeContexts() -> [RequestContext] {
        active.withLock { Array($0.values) }
    }

    /// Whether a request still waits for its responder or a stream is still sending. Requests
    /// already answered are not waited for: stopping the daemon closes their connections.
    private var hasUnfinishedWork: Bool {
        activeContexts().contains { $0.isAwaitingResponse || $0.stream.map { !$0.isClosed } ?? false }
    }

    private func wait(until deadline: ContinuousClock.Instant, for condition: (HTTPServer) -> Bool) async {
        while !condition(self), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Counters an `HTTPServer` keeps, in an object of their own so that a responder can report them
/// (on `/metrics`) without a reference to the server, which holds the responder.
public final class HTTPServerStatistics: Sendable {
    let live = Atomic<Int>(0)
    let answers = Atomic<Int>(0)
    let connections = Atomic<Int>(0)

    /// Creates zeroed counters.
    public init() {}

    /// Connections open: from libmicrohttpd's accepting one to its closing it.
    public var openConnections: Int { connections.load(ordering: .relaxed) }

    /// Requests between their first header and their completion, streams included.
    public var liveRequests: Int { live.load(ordering: .acquiring) }

    /// Bytes of answers not yet sent: complete answers handed to libmicrohttpd, and the chunks
    /// streams hold unsent (each chunk once).
    public var answerBytes: Int { answers.load(ordering: .relaxed) }
}
