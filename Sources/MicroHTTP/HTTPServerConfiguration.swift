/// How the server's event loop is threaded.
public enum HTTPThreading: String, Sendable, CaseIterable {
    /// Internal threads using `poll` (one, or a pool of `threadPoolSize`): the mode that never
    /// stalled in measurements.
    case poll
    /// A pool of internal threads using `epoll`. Single-thread epoll is not offered: it stalls
    /// with exactly 128 ready connections in libmicrohttpd 0.9.75.
    case epollPool = "epoll-pool"
}

/// Everything the HTTP server needs to start.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// The address to bind: an IPv4 or IPv6 literal, or `localhost` (see ``isListenable(host:)``).
    public var host: String
    /// The port to bind; 0 picks a free one (read it from `HTTPServer.port`).
    public var port: Int
    /// The threading mode.
    public var threading: HTTPThreading
    /// Internal threads, each serving its share of the connections: 1 or more for `.poll`, at
    /// least 2 for `.epollPool`. Requests are answered on these threads.
    public var threadPoolSize: Int
    /// The internal threads the server runs: `threadPoolSize`, and at least 2 for `.epollPool`.
    public var serverThreads: Int { threading == .epollPool ? max(2, threadPoolSize) : max(1, threadPoolSize) }
    /// Connections served at once, over all the threads; a connection accepted beyond it is
    /// closed at once. (Threads accepting at the same instant may each pass it by one.)
    public var connectionLimit: Int
    /// Connections from one IP address at once; 0 means no limit (behind a proxy).
    public var perIPConnectionLimit: Int
    /// Seconds an idle connection is kept; 0 keeps it forever.
    public var connectionTimeout: Int
    /// Bytes of memory per connection for the request line and headers.
    public var connectionMemoryLimit: Int
    /// Whether to refuse requests that break HTTP/1.1 rules, such as a missing Host.
    public var strictForClient: Bool
    /// The largest request body accepted, in bytes.
    public var maxBodyBytes: Int
    /// Bytes of answers not yet sent (their clients have not read them) past which the server
    /// refuses new requests before any work, with the responder's
    /// ``HTTPRefusal/answerBudgetExceeded(limit:)``: complete answers handed to libmicrohttpd,
    /// and the chunks event streams hold unsent (each chunk once, however many streams hold it).
    public var answerBudgetBytes: Int
    /// Paths served even past `answerBudgetBytes`: small answers an operator needs then, such as
    /// health checks and metrics.
    public var alwaysServedPaths: Set<String>

    /// Creates a configuration; the defaults are safe for a public server.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threading: HTTPThreading = .poll,
        threadPoolSize: Int = 2,
        connectionLimit: Int = 1024,
        perIPConnectionLimit: Int = 64,
        connectionTimeout: Int = 30,
        connectionMemoryLimit: Int = 32 * 1024,
        strictForClient: Bool = true,
        maxBodyBytes: Int = 64 * 1024,
        answerBudgetBytes: Int = 64 * 1024 * 1024,
        alwaysServedPaths: Set<String> = []
    ) {
        self.host = host
        self.port = port
        self.threading = threading
        self.threadPoolSize = threadPoolSize
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.connectionTimeout = connectionTimeout
        self.connectionMemoryLimit = connectionMemoryLimit
        self.strictForClient = strictForClient
        self.maxBodyBytes = maxBodyBytes
        self.answerBudgetBytes = answerBudgetBytes
        self.alwaysServedPaths = alwaysServedPaths
    }
}

extension HTTPServerConfiguration {
    /// Whether `host` is an address the server can bind: an IPv4 or IPv6 literal (an IPv6 one
    /// may be bracketed), or `localhost`. A name is not looked up.
    public static func isListenable(host: String) -> Bool {
        SocketAddress(host: host, port: 0) != nil
    }
}
