import JSON
import MicroHTTP

/// One setting: its names in the file, the environment and the flags, and how to apply a value.
struct Setting: Sendable {
    enum Kind: Sendable {
        case integer(ClosedRange<Int>)
        case boolean
        case text(allowEmpty: Bool)
        case list
        case choice([String])
    }

    /// A parsed value.
    enum Value {
        case integer(Int)
        case boolean(Bool)
        case text(String)
        case list([String])
    }

    let key: String
    let environment: String
    let flag: String
    let kind: Kind
    let help: String
    let apply: @Sendable (inout Configuration, Value) -> Void

    /// Parses a value from the environment or a flag.
    func parse(text raw: String, source: String) throws(ConfigurationError) -> Value {
        let value = raw.trimmed(" \t")
        switch kind {
        case .integer(let range):
            guard let number = Int(value), range.contains(number) else {
                throw fail(source, "'\(raw)' is not an integer in \(range.lowerBound)...\(range.upperBound)")
            }
            return .integer(number)
        case .boolean:
            switch value.lowercased() {
            case "true", "1", "yes", "on": return .boolean(true)
            case "false", "0", "no", "off": return .boolean(false)
            default: throw fail(source, "'\(raw)' is not a boolean (true or false)")
            }
        case .text(let allowEmpty):
            guard allowEmpty || !value.isEmpty else { throw fail(source, "must not be empty") }
            return .text(value)
        case .list:
            let items = value.split(separator: ",").map { String($0).trimmed(" \t") }.filter { !$0.isEmpty }
            return .list(items)
        case .choice(let choices):
            guard choices.contains(value) else {
                throw fail(source, "'\(raw)' is not one of \(choices.joined(separator: ", "))")
            }
            return .text(value)
        }
    }

    /// Parses a value from the configuration file.
    func parse(json: JSONValue, source: String) throws(ConfigurationError) -> Value {
        switch (kind, json) {
        case (.integer, .number):
            guard let number = json.intValue else { throw fail(source, "\(json.numberValue ?? 0) is not an integer") }
            return try parse(text: String(number), source: source)
        case (.boolean, .bool(let flag)): return .boolean(flag)
        case (.text, .string(let text)), (.choice, .string(let text)): return try parse(text: text, source: source)
        case (.text(allowEmpty: true), .null): return .text("")
        case (.list, .array(let items)):
            var strings: [String] = []
            for item in items {
                guard let string = item.stringValue else { throw fail(source, "every item must be a string") }
                strings.append(string)
            }
            return .list(strings)
        case (.list, .string(let text)): return try parse(text: text, source: source)
        default:
            throw fail(source, "expected \(expectedKind), found \(json.kindName)")
        }
    }

    private var expectedKind: String {
        switch kind {
        case .integer: "an integer"
        case .boolean: "a boolean"
        case .text, .choice: "a string"
        case .list: "an array of strings"
        }
    }

    private func fail(_ source: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(setting: key, source: source, reason: reason)
    }
}

extension String {
    func trimmed(_ set: String) -> String {
        let characters = Set(set)
        var slice = self[...]
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Setting {
    /// Every setting, in the order the README lists them.
    static let all: [Setting] = [
        Setting(key: "host", environment: "PAGERD_HOST", flag: "host", kind: .text(allowEmpty: false),
                help: "Address to listen on (IP literal or localhost).") { $0.server.host = $1.text },
        Setting(key: "port", environment: "PAGERD_PORT", flag: "port", kind: .integer(0...65535),
                help: "Port to listen on; 0 picks a free one.") { $0.server.port = $1.integer },
        Setting(key: "threading", environment: "PAGERD_THREADING", flag: "threading",
                kind: .choice(HTTPThreading.allCases.map(\.rawValue)),
                help: "poll (one internal thread) or epoll-pool.") {
            $0.server.threading = HTTPThreading(rawValue: $1.text) ?? .poll
        },
        Setting(key: "threadPoolSize", environment: "PAGERD_THREAD_POOL_SIZE", flag: "thread-pool-size",
                kind: .integer(1...256), help: "Internal server threads (at least 2 for epoll-pool).") { $0.server.threadPoolSize = $1.integer },
        Setting(key: "connectionLimit", environment: "PAGERD_CONNECTION_LIMIT", flag: "connection-limit",
                kind: .integer(1...1_000_000), help: "Connections served at once.") {
            $0.server.connectionLimit = $1.integer
        },
        Setting(key: "perIPConnectionLimit", environment: "PAGERD_PER_IP_CONNECTION_LIMIT",
                flag: "per-ip-connection-limit", kind: .integer(0...1_000_000),
                help: "Connections from one IP at once; 0 for none (behind a proxy).") {
            $0.server.perIPConnectionLimit = $1.integer
        },
        Setting(key: "connectionTimeout", environment: "PAGERD_CONNECTION_TIMEOUT", flag: "connection-timeout",
                kind: .integer(0...86_400), help: "Seconds an idle connection is kept; 0 forever.") {
            $0.server.connectionTimeout = $1.integer
        },
        Setting(key: "connectionMemoryLimit", environment: "PAGERD_CONNECTION_MEMORY_LIMIT",
                flag: "connection-memory-limit", kind: .integer(4096...16_777_216),
                help: "Bytes per connection for the request line and headers.") {
            $0.server.connectionMemoryLimit = $1.integer
        },
        Setting(key: "strictForClient", environment: "PAGERD_STRICT_FOR_CLIENT", flag: "strict-for-client",
                kind: .boolean, help: "Refuse requests that break HTTP/1.1 rules.") {
            $0.server.strictForClient = $1.boolean
        },
        Setting(key: "maxBodyBytes", environment: "PAGERD_MAX_BODY_BYTES", flag: "max-body-bytes",
                kind: .integer(1...67_108_864), help: "Largest request body in bytes.") {
            $0.server.maxBodyBytes = $1.integer
        },
        Setting(key: "maxPages", environment: "PAGERD_MAX_PAGES", flag: "max-pages", kind: .integer(1...1_000_000),
                help: "Pages per session.") { $0.maxPages = $1.integer },
        Setting(key: "maxStackDepth", environment: "PAGERD_MAX_STACK_DEPTH", flag: "max-stack-depth",
                kind: .integer(0...10_000), help: "Screens pushed on one page's stack.") { $0.maxStackDepth = $1.integer },
        Setting(key: "maxContentBytes", environment: "PAGERD_MAX_CONTENT_BYTES", flag: "max-content-bytes",
                kind: .integer(2...16_777_216), help: "Bytes of JSON content per page or screen.") {
            $0.maxContentBytes = $1.integer
        },
        Setting(key: "maxSessions", environment: "PAGERD_MAX_SESSIONS", flag: "max-sessions",
                kind: .integer(1...100_000_000), help: "Live sessions.") { $0.maxSessions = $1.integer },
        Setting(key: "idleTTL", environment: "PAGERD_IDLE_TTL", flag: "idle-ttl", kind: .integer(1...31_536_000),
                help: "Seconds after which an idle session is evicted.") { $0.idleTTL = $1.integer },
        Setting(key: "authToken", environment: "PAGERD_AUTH_TOKEN", flag: "auth-token", kind: .text(allowEmpty: true),
                help: "Bearer token required on /v1 routes; empty for none.") {
            $0.authToken = $1.text.isEmpty ? nil : $1.text
        },
        Setting(key: "corsOrigins", environment: "PAGERD_CORS_ORIGINS", flag: "cors-origins", kind: .list,
                help: "Origins allowed by CORS, comma-separated; * for any.") { $0.corsOrigins = $1.list },
        Setting(key: "templates", environment: "PAGERD_TEMPLATES", flag: "templates", kind: .text(allowEmpty: false),
                help: "Folder of template files.") { $0.templatesPath = $1.text },
        Setting(key: "webRoot", environment: "PAGERD_WEB_ROOT", flag: "web-root", kind: .text(allowEmpty: false),
                help: "Folder of the demo web client served at /.") { $0.webRoot = $1.text },
        Setting(key: "logLevel", environment: "PAGERD_LOG_LEVEL", flag: "log-level",
                kind: .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]),
                help: "Lowest log level written.") { $0.logLevel = $1.text },
        Setting(key: "logFormat", environment: "PAGERD_LOG_FORMAT", flag: "log-format",
                kind: .choice(LogFormat.allCases.map(\.rawValue)), help: "text or json (one object per line).") {
            $0.logFormat = LogFormat(rawValue: $1.text) ?? .text
        },
        Setting(key: "shutdownGrace", environment: "PAGERD_SHUTDOWN_GRACE", flag: "shutdown-grace",
                kind: .integer(0...600), help: "Seconds requests in flight get to finish when stopping.") {
            $0.shutdownGrace = $1.integer
        },
        Setting(key: "eventHeartbeat", environment: "PAGERD_EVENT_HEARTBEAT", flag: "event-heartbeat",
                kind: .integer(1...3600), help: "Seconds between heartbeats on event streams.") {
            $0.eventHeartbeat = $1.integer
        },
        Setting(key: "maxSubscribers", environment: "PAGERD_MAX_SUBSCRIBERS", flag: "max-subscribers",
                kind: .integer(0...1_000_000), help: "Event-stream subscribers at once.") {
            $0.maxSubscribers = $1.integer
        },
        Setting(key: "maxSubscribersPerSession", environment: "PAGERD_MAX_SUBSCRIBERS_PER_SESSION",
                flag: "max-subscribers-per-session", kind: .integer(1...1_000_000),
                help: "Event-stream subscribers of one session at once.") {
            $0.maxSubscribersPerSession = $1.integer
        },
        Setting(key: "maxSubscribersPerAddress", environment: "PAGERD_MAX_SUBSCRIBERS_PER_ADDRESS",
                flag: "max-subscribers-per-address", kind: .integer(1...1_000_000),
                help: "Event-stream subscribers from one client address at once.") {
            $0.maxSubscribersPerAddress = $1.integer
        },
        Setting(key: "memoryBudgetBytes", environment: "PAGERD_MEMORY_BUDGET_BYTES", flag: "memory-budget-bytes",
                kind: .integer(65_536...(1 << 50)), help: "Bytes of session data all sessions together may hold.") {
            $0.memoryBudgetBytes = $1.integer
        },
        Setting(key: "sessionBudgetBytes", environment: "PAGERD_SESSION_BUDGET_BYTES", flag: "session-budget-bytes",
                kind: .integer(4096...(1 << 50)), help: "Bytes of session data one session may hold.") {
            $0.sessionBudgetBytes = $1.integer
        },
    ]
}

extension Setting.Value {
    var integer: Int { if case .integer(let value) = self { value } else { 0 } }
    var boolean: Bool { if case .boolean(let value) = self { value } else { false } }
    var text: String { if case .text(let value) = self { value } else { "" } }
    var list: [String] { if case .list(let value) = self { value } else { [] } }
}
