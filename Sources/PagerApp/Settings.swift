import JSON
import MicroHTTP
import PagerAccess

/// One setting, declared once: its file key, from which the `PAGERD_*` variable and the flag are
/// derived; its kind; its help; how a value is stored into a `Configuration`; and how the value
/// a configuration holds is written, so that the default shown by `--help` is read from
/// `Configuration()`, whose fields take their defaults from the library types.
struct Setting: Sendable {
    /// What values a setting takes.
    enum Kind: Sendable {
        case integer(ClosedRange<Int>)
        case boolean
        case text(allowEmpty: Bool)
        /// An address to listen on, checked as it is read so that a bad one names its source.
        case host
        case list
        case choice([String])
        /// A JSON value: as it is in the file, as JSON text elsewhere.
        case json
    }

    /// A parsed value.
    enum Value {
        case integer(Int)
        case boolean(Bool)
        case text(String)
        case list([String])
        case json(JSONValue)
    }

    /// The key in the configuration file, for example `perIPConnectionLimit`.
    let key: String
    /// What values it takes.
    let kind: Kind
    /// One line for `--help`.
    let help: String
    /// Stores a parsed value.
    let apply: @Sendable (inout Configuration, Value) -> Void
    /// The value a configuration holds, as it would be written in the environment.
    let render: @Sendable (Configuration) -> String
    /// Whether it has a command-line flag. A secret has none: a process's arguments are visible
    /// to every user of the machine (`ps`), its environment and files are not.
    var hasFlag = true

    /// The same setting without a command-line flag.
    func withoutFlag() -> Setting {
        var setting = self
        setting.hasFlag = false
        return setting
    }

    /// The environment variable: `PAGERD_` and the key's words in upper case, `PAGERD_PER_IP_CONNECTION_LIMIT`.
    var environment: String { "PAGERD_" + Self.words(of: key).map { $0.uppercased() }.joined(separator: "_") }

    /// The command-line flag without its dashes: the key's words in lower case, `per-ip-connection-limit`.
    var flag: String { Self.words(of: key).map { $0.lowercased() }.joined(separator: "-") }

    /// The default value, as written in the environment.
    var defaultText: String { render(Configuration()) }

    /// Splits a camel-case key into words, keeping acronyms whole: `perIPConnectionLimit` →
    /// per, IP, Connection, Limit; `idleTTL` → idle, TTL.
    static func words(of key: String) -> [String] {
        let characters = Array(key)
        var words: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord =
                character.isUppercase
                && (previous?.isLowercase == true || (previous?.isUppercase == true && next?.isLowercase == true))
            if startsWord, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    // MARK: - Parsing

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
        case .host:
            guard HTTPServerConfiguration.isListenable(host: value) else {
                throw fail(source, "'\(raw)' is not an IPv4 or IPv6 address or 'localhost'")
            }
            return .text(value)
        case .list:
            let items = value.split(separator: ",").map { String($0).trimmed(" \t") }.filter { !$0.isEmpty }
            return .list(items)
        case .choice(let choices):
            guard choices.contains(value) else {
                throw fail(source, "'\(raw)' is not one of \(choices.joined(separator: ", "))")
            }
            return .text(value)
        case .json:
            // An empty value means none; the parser's message gives an offset, never the text.
            guard !value.isEmpty else { return .json(.null) }
            do { return .json(try JSONParser.parse(value)) } catch {
                throw fail(source, "not valid JSON: \(error)")
            }
        }
    }

    /// Parses a value from the configuration file.
    func parse(json: JSONValue, source: String) throws(ConfigurationError) -> Value {
        switch (kind, json) {
        case (.integer, .number):
            guard let number = json.intValue else { throw fail(source, "\(json.numberValue ?? 0) is not an integer") }
            return try parse(text: String(number), source: source)
        case (.boolean, .bool(let flag)): return .boolean(flag)
        case (.text, .string(let text)), (.host, .string(let text)), (.choice, .string(let text)):
            return try parse(text: text, source: source)
        case (.text(allowEmpty: true), .null): return .text("")
        case (.list, .array(let items)):
            var strings: [String] = []
            for item in items {
                guard let string = item.stringValue else { throw fail(source, "every item must be a string") }
                strings.append(string)
            }
            return .list(strings)
        case (.list, .string(let text)): return try parse(text: text, source: source)
        case (.json, _): return .json(json)
        default:
            throw fail(source, "expected \(expectedKind), found \(json.kindName)")
        }
    }

    private var expectedKind: String {
        switch kind {
        case .integer: "an integer"
        case .boolean: "a boolean"
        case .text, .host, .choice: "a string"
        case .list: "an array of strings"
        case .json: "JSON"
        }
    }

    private func fail(_ source: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(setting: key, source: source, reason: reason)
    }
}

// MARK: - Declaring settings

extension Setting {
    /// An integer setting in `range`.
    static func integer(
        _ key: String, _ path: any WritableKeyPath<Configuration, Int> & Sendable, _ range: ClosedRange<Int>,
        _ help: String
    ) -> Setting {
        Setting(
            key: key, kind: .integer(range), help: help,
            apply: { configuration, value in
                if case .integer(let number) = value { configuration[keyPath: path] = number }
            },
            render: { String($0[keyPath: path]) })
    }

    /// A true/false setting.
    static func boolean(
        _ key: String, _ path: any WritableKeyPath<Configuration, Bool> & Sendable, _ help: String
    ) -> Setting {
        Setting(
            key: key, kind: .boolean, help: help,
            apply: { configuration, value in
                if case .boolean(let flag) = value { configuration[keyPath: path] = flag }
            },
            render: { String($0[keyPath: path]) })
    }

    /// A non-empty text setting (`kind` `.host` for an address to listen on).
    static func text(
        _ key: String, _ path: any WritableKeyPath<Configuration, String> & Sendable, _ help: String,
        kind: Kind = .text(allowEmpty: false)
    ) -> Setting {
        Setting(
            key: key, kind: kind, help: help,
            apply: { configuration, value in
                if case .text(let text) = value { configuration[keyPath: path] = text }
            },
            render: { $0[keyPath: path] })
    }

    /// A text setting that may be absent: an empty value (or `null` in the file) means none.
    static func optionalText(
        _ key: String, _ path: any WritableKeyPath<Configuration, String?> & Sendable, _ help: String
    ) -> Setting {
        Setting(
            key: key, kind: .text(allowEmpty: true), help: help,
            apply: { configuration, value in
                if case .text(let text) = value { configuration[keyPath: path] = text.isEmpty ? nil : text }
            },
            render: { $0[keyPath: path] ?? "" })
    }

    /// A list of strings: an array in the file, comma-separated elsewhere.
    static func list(
        _ key: String, _ path: any WritableKeyPath<Configuration, [String]> & Sendable, _ help: String
    ) -> Setting {
        Setting(
            key: key, kind: .list, help: help,
            apply: { configuration, value in
                if case .list(let items) = value { configuration[keyPath: path] = items }
            },
            render: { $0[keyPath: path].joined(separator: ",") })
    }

    /// A JSON value that may be absent (null, or empty text, for none). Its value is not shown
    /// by `--help` beyond "none": it may hold secrets.
    static func json(
        _ key: String, _ path: any WritableKeyPath<Configuration, JSONValue?> & Sendable, _ help: String
    ) -> Setting {
        Setting(
            key: key, kind: .json, help: help,
            apply: { configuration, value in
                if case .json(let json) = value { configuration[keyPath: path] = json.isNull ? nil : json }
            },
            render: { $0[keyPath: path] == nil ? "" : "(set)" })
    }

    /// One of an enumeration's cases, by raw value.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ path: any WritableKeyPath<Configuration, Choice> & Sendable, _ help: String
    ) -> Setting where Choice.RawValue == String {
        Setting(
            key: key, kind: .choice(Choice.allCases.map(\.rawValue)), help: help,
            apply: { configuration, value in
                if case .text(let text) = value, let choice = Choice(rawValue: text) {
                    configuration[keyPath: path] = choice
                }
            },
            render: { $0[keyPath: path].rawValue })
    }

    /// Every setting, in the order the README and `--help` list them.
    static let all: [Setting] = [
        .text("host", \.server.host, "Address to listen on: an IPv4 or IPv6 literal, or localhost.", kind: .host),
        .integer("port", \.server.port, 0...65535, "Port to listen on; 0 picks a free one."),
        .choice("threading", \.server.threading, "libmicrohttpd's event loop; both run threadPoolSize threads."),
        .integer(
            "threadPoolSize", \.server.threadPoolSize, 1...256,
            "Server threads, which also answer the requests (at least 2 for epoll-pool)."),
        .integer("connectionLimit", \.server.connectionLimit, 1...1_000_000, "Connections served at once."),
        .integer(
            "perIPConnectionLimit", \.server.perIPConnectionLimit, 0...1_000_000,
            "Connections from one IP address at once; 0 for none (behind a proxy)."),
        .integer(
            "connectionTimeout", \.server.connectionTimeout, 0...86_400,
            "Seconds an idle connection is kept; 0 forever."),
        .integer(
            "connectionMemoryLimit", \.server.connectionMemoryLimit, 4096...16_777_216,
            "Bytes per connection for the request line and headers."),
        .boolean(
            "strictForClient", \.server.strictForClient,
            "Refuse requests that break HTTP/1.1, such as one without Host."),
        .integer("maxBodyBytes", \.server.maxBodyBytes, 1...67_108_864, "Largest request body in bytes."),
        .integer(
            "answerBudgetBytes", \.server.answerBudgetBytes, 65_536...(1 << 50),
            "Bytes of answers (event streams' included) not yet read by their clients past which new requests are refused (503)."
        ),
        .integer("maxPages", \.maxPages, 1...1_000_000, "Pages per session."),
        .integer("maxStackDepth", \.maxStackDepth, 0...10_000, "Screens pushed on one page's stack."),
        .integer("maxContentBytes", \.maxContentBytes, 2...16_777_216, "Bytes of JSON content per page or screen."),
        .integer("maxSessions", \.maxSessions, 1...100_000_000, "Live sessions."),
        .integer("idleTTL", \.idleTTL, 1...31_536_000, "Seconds after which an idle session is evicted."),
        .optionalText(
            "authToken", \.authToken,
            "Bearer token required on /v1 routes; empty for none. No flag: set it in the file, in PAGERD_AUTH_TOKEN or in a file named by PAGERD_AUTH_TOKEN_FILE."
        ).withoutFlag(),
        .json(
            "accessKeys", \.accessKeys,
            "Keys that verify access tokens (and sign them: a secret or a private key), a JSON array of {kid, alg, secret | publicKey | privateKey}. No flag: set it in the file, in PAGERD_ACCESS_KEYS or in a file named by PAGERD_ACCESS_KEYS_FILE."
        ).withoutFlag(),
        .text("accessAudience", \.accessAudience, "The aud every access token must name."),
        .integer(
            "accessTokenMaxLifetime", \.accessTokenMaxLifetime, AccessVerifier.lifetimeRange,
            "Seconds an access token may live, at most."),
        .list("corsOrigins", \.corsOrigins, "Origins allowed by CORS, comma-separated; * for any."),
        .text("templates", \.templatesPath, "Folder of template files."),
        .text("webRoot", \.webRoot, "Folder of the demo web client served at /."),
        .choice("logLevel", \.logLevel, "Lowest log level written."),
        .choice("logFormat", \.logFormat, "text, or json (one object per line)."),
        .integer(
            "shutdownGrace", \.shutdownGrace, 0...600,
            "Seconds requests in flight get to finish when stopping (then up to 2 s to hand answers over)."),
        .integer("eventHeartbeat", \.eventHeartbeat, 1...3600, "Seconds between heartbeat comments on event streams."),
        .integer("maxSubscribers", \.maxSubscribers, 0...1_000_000, "Event-stream subscribers at once."),
        .integer(
            "maxSubscribersPerSession", \.maxSubscribersPerSession, 1...1_000_000,
            "Event-stream subscribers of one session at once."),
        .integer(
            "maxSubscribersPerAddress", \.maxSubscribersPerAddress, 1...1_000_000,
            "Event-stream subscribers from one client address at once."),
        .integer(
            "memoryBudgetBytes", \.memoryBudgetBytes, 65_536...(1 << 50),
            "Bytes of session data all sessions together may hold."),
        .integer(
            "engineShards", \.engineShards, 0...1024,
            "Engine shards the sessions are spread over (each with its own lock); 0 for four per server thread."),
        .integer(
            "sessionBudgetBytes", \.sessionBudgetBytes, 4096...(1 << 50), "Bytes of session data one session may hold."),
        .choice(
            "storage", \.storage,
            "Where sessions are kept: memory (lost on restart), sqlite (the file at dataPath) or postgres."),
        .text("dataPath", \.dataPath, "The SQLite file of sqlite storage; its folder is created if missing."),
        .choice(
            "sqliteSynchronous", \.sqliteSynchronous,
            "full: each commit survives power loss; normal: it survives a crash of pagerd only."),
        .integer(
            "sqliteCheckpointBytes", \.sqliteCheckpointBytes, 65_536...(1 << 40),
            "Journal bytes after which sqlite storage folds its journal into its tables; twice this plus 4 MiB of disk is kept free for deletions."
        ),
        .optionalText(
            "postgresURL", \.postgresURL,
            "The database of postgres storage, postgres://user@host:port/db (sslmode in the query); the password goes in PAGERD_POSTGRES_PASSWORD."
        ),
    ]

    /// The variable that holds the access keys as JSON text.
    static let accessKeysVariable = "PAGERD_ACCESS_KEYS"

    /// The setting whose file key is `key`.
    static func named(_ key: String) -> Setting? { all.first { $0.key == key } }
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
