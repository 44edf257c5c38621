import ArgumentParser

/// pagerd's command-line flags. Every setting of `Setting.all` has a flag of the same name;
/// values are validated by the same code as the file and the environment.
struct PagerdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pagerd",
        abstract: "A headless pager engine behind an HTTP/JSON API.",
        discussion: """
            Settings come from config/pagerd.json (or PAGERD_CONFIG / --config), then PAGERD_* \
            environment variables, then these flags. A bad value exits with status 2.
            """)

    @Option(help: "Configuration file (default: config/pagerd.json).") var config: String?
    @Option(help: "Address to listen on.") var host: String?
    @Option(help: "Port to listen on; 0 picks a free one.") var port: String?
    @Option(help: "poll or epoll-pool.") var threading: String?
    @Option(help: "Threads for epoll-pool.") var threadPoolSize: String?
    @Option(help: "Connections served at once.") var connectionLimit: String?
    @Option(name: .customLong("per-ip-connection-limit"), help: "Connections from one IP; 0 for none.")
    var perIPConnectionLimit: String?
    @Option(help: "Seconds an idle connection is kept.") var connectionTimeout: String?
    @Option(help: "Bytes per connection for the request head.") var connectionMemoryLimit: String?
    @Option(help: "Refuse requests that break HTTP/1.1 rules (true/false).") var strictForClient: String?
    @Option(help: "Largest request body in bytes.") var maxBodyBytes: String?
    @Option(help: "Pages per session.") var maxPages: String?
    @Option(help: "Screens pushed on one page's stack.") var maxStackDepth: String?
    @Option(help: "Bytes of JSON content per page or screen.") var maxContentBytes: String?
    @Option(help: "Live sessions.") var maxSessions: String?
    @Option(name: .customLong("idle-ttl"), help: "Seconds after which an idle session is evicted.") var idleTTL: String?
    @Option(help: "Bearer token required on /v1 routes.") var authToken: String?
    @Option(help: "CORS origins, comma-separated.") var corsOrigins: String?
    @Option(help: "Folder of template files.") var templates: String?
    @Option(help: "Folder of the demo web client served at /.") var webRoot: String?
    @Option(help: "Lowest log level written.") var logLevel: String?
    @Option(help: "text or json.") var logFormat: String?
    @Option(help: "Seconds requests in flight get when stopping.") var shutdownGrace: String?
    @Option(help: "Seconds between event-stream heartbeats.") var eventHeartbeat: String?
    @Option(help: "Event-stream subscribers at once.") var maxSubscribers: String?
    @Option(help: "Event-stream subscribers of one session at once.") var maxSubscribersPerSession: String?
    @Option(help: "Event-stream subscribers from one client address at once.") var maxSubscribersPerAddress: String?
    @Option(help: "Bytes of session data all sessions together may hold.") var memoryBudgetBytes: String?
    @Option(help: "Bytes of session data one session may hold.") var sessionBudgetBytes: String?

    /// The flags given, by setting key.
    var settingFlags: [String: String] {
        let pairs: [(String, String?)] = [
            ("host", host), ("port", port), ("threading", threading), ("threadPoolSize", threadPoolSize),
            ("connectionLimit", connectionLimit), ("perIPConnectionLimit", perIPConnectionLimit),
            ("connectionTimeout", connectionTimeout), ("connectionMemoryLimit", connectionMemoryLimit),
            ("strictForClient", strictForClient), ("maxBodyBytes", maxBodyBytes), ("maxPages", maxPages),
            ("maxStackDepth", maxStackDepth), ("maxContentBytes", maxContentBytes), ("maxSessions", maxSessions),
            ("idleTTL", idleTTL), ("authToken", authToken), ("corsOrigins", corsOrigins), ("templates", templates), ("webRoot", webRoot),
            ("logLevel", logLevel), ("logFormat", logFormat), ("shutdownGrace", shutdownGrace),
            ("eventHeartbeat", eventHeartbeat), ("maxSubscribers", maxSubscribers),
            ("maxSubscribersPerSession", maxSubscribersPerSession), ("maxSubscribersPerAddress", maxSubscribersPerAddress),
            ("memoryBudgetBytes", memoryBudgetBytes), ("sessionBudgetBytes", sessionBudgetBytes),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.compactMap { key, value in value.map { (key, $0) } })
    }
}

/// What the command line asks for.
enum CommandLineOutcome {
    case run(flags: [String: String], config: String?)
    case exit(code: Int32, message: String)
}

extension PagerdCommand {
    /// Parses `arguments` (without the program name); help exits 0, a bad flag exits 2.
    static func outcome(for arguments: [String]) -> CommandLineOutcome {
        do {
            let command = try parse(arguments)
            return .run(flags: command.settingFlags, config: command.config)
        } catch {
            let code = exitCode(for: error)
            if code == .success { return .exit(code: 0, message: fullMessage(for: error)) }
            return .exit(code: 2, message: "pagerd: " + message(for: error))
        }
    }
}
