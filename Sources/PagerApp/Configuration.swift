public import JSON
public import MicroHTTP
import PagerAPI
import PagerAccess
public import PagerModel
public import PagerSessions
public import PagerStorage

/// How log lines are written.
public enum LogFormat: String, Sendable, CaseIterable {
    /// One human-readable line per event.
    case text
    /// One JSON object per line.
    case json
}

/// Where sessions are kept.
public enum StorageKind: String, Sendable, CaseIterable {
    /// In memory only: a restart loses them.
    case memory
    /// In a SQLite file at `dataPath`, durable before each acknowledgement.
    case sqlite
    /// In a PostgreSQL database at `postgresURL`, committed before each acknowledgement.
    case postgres
}

/// The log levels, lowest first.
public enum LogLevel: String, Sendable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical
}

/// Everything pagerd is configured with, after the file, the environment and the flags. Each
/// default is taken from the library type that uses the setting, so it is stated once.
public struct Configuration: Sendable, Equatable {
    /// The HTTP server's settings; health checks and metrics are answered even past
    /// `answerBudgetBytes`.
    public var server = HTTPServerConfiguration(alwaysServedPaths: ["/healthz", "/readyz", "/metrics"])
    /// Pages per session.
    public var maxPages = PagerLimits().maxPages
    /// Screens pushed on one page's stack.
    public var maxStackDepth = PagerLimits().maxStackDepth
    /// Bytes of JSON content per page or screen.
    public var maxContentBytes = PagerLimits().maxContentBytes
    /// Bytes of session data one session may hold.
    public var sessionBudgetBytes = PagerLimits().sessionBudgetBytes
    /// Live sessions.
    public var maxSessions = EngineLimits().maxSessions
    /// Seconds after which an idle session is evicted.
    public var idleTTL = Int(EngineLimits().idleTTL)
    /// Event-stream subscribers at once.
    public var maxSubscribers = EngineLimits().maxSubscribers
    /// Event-stream subscribers of one session at once.
    public var maxSubscribersPerSession = EngineLimits().maxSubscribersPerSession
    /// Event-stream subscribers from one client address at once.
    public var maxSubscribersPerAddress = EngineLimits().maxSubscribersPerAddress
    /// Bytes of session data all sessions together may hold.
    public var memoryBudgetBytes = EngineLimits().memoryBudgetBytes
    /// Engine shards the sessions are spread over; 0 for four per server thread.
    public var engineShards = 0
    /// The bearer token every `/v1` request must carry; nil for none.
    public var authToken = APIOptions().authToken
    /// The keys of access tokens, as the setting gives them (a JSON array); nil for none. It
    /// may hold secrets: never written to a log.
    public var accessKeys: JSONValue?
    /// The `aud` every access token must name.
    public var accessAudience = AccessVerifier.defaultAudience
    /// Seconds an access token may live, at most.
    public var accessTokenMaxLifetime = AccessVerifier.defaultMaxLifetime
    /// Origins allowed by CORS; `*` allows any.
    public var corsOrigins = APIOptions().corsOrigins
    /// Seconds between heartbeats on event streams.
    public var eventHeartbeat = Int(APIOptions().eventHeartbeat.components.seconds)
    /// Seconds requests in flight get to finish when stopping.
    public var shutdownGrace = Int(HTTPServer.defaultGracePeriod.components.seconds)
    /// The folder of template files.
    public var templatesPath = "config/templates"
    /// The folder of the demo web client served at `/`.
    public var webRoot = "web"
    /// Where sessions are kept.
    public var storage = StorageKind.memory
    /// The SQLite file of `sqlite` storage.
    public var dataPath = "data/pagerd.db"
    /// How far SQLite syncs each commit.
    public var sqliteSynchronous = SQLiteSessionStore.Options(path: "").synchronous
    /// Journal bytes after which the SQLite store folds its journal into its tables.
    public var sqliteCheckpointBytes = SQLiteSessionStore.Options(path: "").checkpointBytes
    /// The database of `postgres` storage: `postgres://user@host:port/database`, with libpq
    /// parameters such as `sslmode` in its query, and no password.
    public var postgresURL: String?
    /// Its password, from `PAGERD_POSTGRES_PASSWORD` only; never written to a log.
    public var postgresPassword: String?
    /// The lowest log level written.
    public var logLevel = LogLevel.info
    /// The log line format.
    public var logFormat = LogFormat.text

    /// The defaults.
    public init() {}

    /// The limits each pager is held to.
    public var pagerLimits: PagerLimits {
        PagerLimits(
            maxPages: maxPages, maxStackDepth: maxStackDepth, maxContentBytes: maxContentBytes,
            sessionBudgetBytes: sessionBudgetBytes)
    }

    /// The number of engine shards in force: `engineShards`, or four per server thread.
    public var shardCount: Int { engineShards > 0 ? engineShards : 4 * server.serverThreads }

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
