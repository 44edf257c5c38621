public import MicroHTTP
public import PagerModel
public import PagerSessions

/// How log lines are written.
public enum LogFormat: String, Sendable, CaseIterable {
    /// One human-readable line per event.
    case text
    /// One JSON object per line.
    case json
}

/// Everything pagerd is configured with, after the file, the environment and the flags.
public struct Configuration: Sendable, Equatable {
    /// The HTTP server's settings.
    public var server = HTTPServerConfiguration()
    /// Pages per session.
    public var maxPages = 1000
    /// Screens pushed on one page's stack.
    public var maxStackDepth = 32
    /// Bytes of JSON content per page or screen.
    public var maxContentBytes = 16 * 1024
    /// Live sessions.
    public var maxSessions = 100_000
    /// Seconds after which an idle session is evicted.
    public var idleTTL = 1800
    /// The bearer token every `/v1` request must carry; nil for none.
    public var authToken: String?
    /// Origins allowed by CORS; `*` allows any.
    public var corsOrigins = ["*"]
    /// The folder of template files.
    public var templatesPath = "config/templates"
    /// The folder of the demo web client served at `/`.
    public var webRoot = "web"
    /// The lowest log level written: trace, debug, info, notice, warning, error, critical.
    public var logLevel = "info"
    /// The log line format.
    public var logFormat = LogFormat.text
    /// Seconds requests in flight get to finish when stopping. With the server's 2 s drain the
    /// default stays under the 10 s a container runtime waits before it kills.
    public var shutdownGrace = 5
    /// Seconds between heartbeats on event streams.
    public var eventHeartbeat = 15
    /// Event-stream subscribers at once.
    public var maxSubscribers = 512
    /// Event-stream subscribers of one session at once.
    public var maxSubscribersPerSession = 32
    /// Event-stream subscribers from one client address at once.
    public var maxSubscribersPerAddress = 32
    /// Bytes of session data all sessions together may hold.
    public var memoryBudgetBytes = EngineLimits.defaultMemoryBudgetBytes
    /// Bytes of session data one session may hold.
    public var sessionBudgetBytes = PagerLimits.defaultSessionBudgetBytes

    /// The defaults.
    public init() {}

    /// The limits each pager is held to.
    public var pagerLimits: PagerLimits {
        PagerLimits(
            maxPages: maxPages, maxStackDepth: maxStackDepth, maxContentBytes: maxContentBytes,
            sessionBudgetBytes: sessionBudgetBytes)
    }

    /// The engine's limits.
    public var engineLimits: EngineLimits {
        EngineLimits(
            maxSessions: maxSessions, idleTTL: Double(idleTTL), pager: pagerLimits, maxSubscribers: maxSubscribers,
            maxSubscribersPerSession: maxSubscribersPerSession, maxSubscribersPerAddress: maxSubscribersPerAddress,
            memoryBudgetBytes: memoryBudgetBytes)
    }
}

/// A configuration value that is not acceptable, naming the setting and where it came from.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting's name as written in the file, for example `port`.
    public var setting: String
    /// Where the value came from: the file path, the variable or the flag.
    public var source: String
    /// What is wrong.
    public var reason: String

    public var description: String { "invalid configuration: \(setting) (from \(source)): \(reason)" }
}
