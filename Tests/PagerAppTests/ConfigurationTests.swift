import Foundation
import Logging
import MicroHTTP
import Testing

@testable import PagerApp

@Suite("Configuration: file, then environment, then flags")
struct ConfigurationTests {
    private func writeFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pagerd-\(UUID().uuidString).json")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("defaults match the README's table when no file exists")
    func defaults() throws {
        let configuration = try ConfigurationLoader(environment: [:], configFlag: nil).load()
        #expect(configuration.maxPages == 1000)
        #expect(configuration.maxStackDepth == 32)
        #expect(configuration.maxContentBytes == 16384)
        #expect(configuration.maxSessions == 100_000)
        #expect(configuration.idleTTL == 1800)
        #expect(configuration.server.maxBodyBytes == 65536)
        #expect(configuration.server.perIPConnectionLimit == 64)
        #expect(configuration.server.threading == .poll)
        #expect(configuration.corsOrigins == ["*"])
        #expect(configuration.authToken == nil)
    }

    @Test("engineShards 0 means four shards per server thread the server runs (epoll-pool runs at least 2)")
    func shardCount() throws {
        func shards(_ environment: [String: String]) throws -> Int {
            try ConfigurationLoader(environment: environment, configFlag: nil).load().shardCount
        }
        #expect(try shards([:]) == 8)
        #expect(try shards(["PAGERD_THREAD_POOL_SIZE": "1"]) == 4)
        #expect(try shards(["PAGERD_THREAD_POOL_SIZE": "1", "PAGERD_THREADING": "epoll-pool"]) == 8)
        #expect(try shards(["PAGERD_THREAD_POOL_SIZE": "3", "PAGERD_THREADING": "epoll-pool"]) == 12)
        #expect(try shards(["PAGERD_THREAD_POOL_SIZE": "1", "PAGERD_ENGINE_SHARDS": "5"]) == 5)
    }

    @Test("the environment overrides the file and flags override both")
    func precedence() throws {
        let path = try writeFile(#"{"port": 9000, "maxPages": 10, "host": "0.0.0.0", "logFormat": "json"}"#)
        let fileOnly = try ConfigurationLoader(environment: ["PAGERD_CONFIG": path]).load()
        #expect(fileOnly.server.port == 9000)
        #expect(fileOnly.server.host == "0.0.0.0")
        #expect(fileOnly.maxPages == 10)
        #expect(fileOnly.logFormat == .json)

        let environment = [
            "PAGERD_CONFIG": path, "PAGERD_PORT": "9001", "PAGERD_MAX_PAGES": "20",
            "PAGERD_CORS_ORIGINS": "https://a.example, https://b.example",
        ]
        let withEnvironment = try ConfigurationLoader(environment: environment).load()
        #expect(withEnvironment.server.port == 9001)
        #expect(withEnvironment.maxPages == 20)
        #expect(withEnvironment.corsOrigins == ["https://a.example", "https://b.example"])

        let withFlags = try ConfigurationLoader(environment: environment, flags: ["port": "9002"]).load()
        #expect(withFlags.server.port == 9002)
        #expect(withFlags.maxPages == 20)
        #expect(withFlags.server.host == "0.0.0.0")
    }

    @Test("host takes IPv4 and IPv6 literals, bracketed or not, and localhost")
    func hosts() throws {
        for host in ["127.0.0.1", "0.0.0.0", "::", "::1", "[::1]", "localhost"] {
            #expect(try ConfigurationLoader(environment: ["PAGERD_HOST": host]).load().server.host == host)
        }
        let path = try writeFile(#"{"host": "example.com"}"#)
        #expect(
            throws: ConfigurationError(
                setting: "host", source: path, reason: "'example.com' is not an IPv4 or IPv6 address or 'localhost'")
        ) {
            try ConfigurationLoader(environment: ["PAGERD_CONFIG": path]).load()
        }
    }

    @Test("--config takes precedence over PAGERD_CONFIG")
    func configFlag() throws {
        let a = try writeFile(#"{"port": 1111}"#)
        let b = try writeFile(#"{"port": 2222}"#)
        let configuration = try ConfigurationLoader(environment: ["PAGERD_CONFIG": a], configFlag: b).load()
        #expect(configuration.server.port == 2222)
    }

    @Test(
        "bad values name the setting and where they came from",
        arguments: [
            (["PAGERD_PORT": "70000"], "port", "PAGERD_PORT"),
            (["PAGERD_PORT": "http"], "port", "PAGERD_PORT"),
            (["PAGERD_HOST": "pager.internal"], "host", "PAGERD_HOST"),
            (["PAGERD_HOST": "999.1.1.1"], "host", "PAGERD_HOST"),
            (["PAGERD_STRICT_FOR_CLIENT": "maybe"], "strictForClient", "PAGERD_STRICT_FOR_CLIENT"),
            (["PAGERD_THREADING": "epoll"], "threading", "PAGERD_THREADING"),
            (["PAGERD_MAX_PAGES": "0"], "maxPages", "PAGERD_MAX_PAGES"),
            (["PAGERD_LOG_LEVEL": "loud"], "logLevel", "PAGERD_LOG_LEVEL"),
            (["PAGERD_CORS_ORIGINS": "example.com"], "corsOrigins", "configuration"),
            (["PAGERD_AUTH_TOKEN": "two words"], "authToken", "configuration"),
            (["PAGERD_ACCESS_KEYS": "[{"], "accessKeys", "PAGERD_ACCESS_KEYS"),
            (
                ["PAGERD_ACCESS_KEYS": #"[{"kid": "a", "alg": "HS256", "secret": "c2hvcnQ"}]"#], "accessKeys",
                "PAGERD_ACCESS_KEYS"
            ),
            (["PAGERD_ACCESS_KEYS_FILE": "/nonexistent/keys.json"], "accessKeys", "/nonexistent/keys.json"),
            (["PAGERD_ACCESS_TOKEN_MAX_LIFETIME": "59"], "accessTokenMaxLifetime", "PAGERD_ACCESS_TOKEN_MAX_LIFETIME"),
            (
                ["PAGERD_ACCESS_TOKEN_MAX_LIFETIME": "2592001"], "accessTokenMaxLifetime",
                "PAGERD_ACCESS_TOKEN_MAX_LIFETIME"
            ),
            (["PAGERD_ACCESS_AUDIENCE": ""], "accessAudience", "PAGERD_ACCESS_AUDIENCE"),
            (["PAGERD_CONFIG": "/nonexistent/pagerd.json"], "config", "/nonexistent/pagerd.json"),
            (["PAGERD_STORAGE": "postgres"], "postgresURL", "configuration"),
            (["PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": "127.0.0.1:5432"], "postgresURL", "configuration"),
            (
                ["PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": "postgres://pagerd:hunter2@db/pagerd"],
                "postgresURL", "configuration"
            ),
            (
                ["PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": "postgres://pagerd@db/pagerd?password=hunter2"],
                "postgresURL", "configuration"
            ),
        ])
    func environmentErrors(environment: [String: String], setting: String, source: String) {
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader(environment: environment).load() }
        do {
            _ = try ConfigurationLoader(environment: environment).load()
        } catch {
            #expect(error.setting == setting)
            #expect(error.source == source)
        }
    }

    @Test(
        "a password in the PostgreSQL URL is refused however it is spelt: percent-encoded, in any case, as sslpassword",
        arguments: [
            "postgres://pagerd@db/pagerd?pass%77ord=hunter2",
            "postgres://pagerd@db/pagerd?%70%61%73%73%77%6F%72%64=hunter2",
            "postgres://pagerd@db/pagerd?sslmode=require&Pass%57ord=hunter2",
            "postgres://pagerd@db/pagerd?sslmode=require&sslpassword=hunter2",
            "postgresql://pagerd%3Ahunter2@db/pagerd",
            "postgres://pagerd:hunter2@db:5432/pagerd?sslmode=require",
        ])
    func encodedPasswords(url: String) {
        do {
            _ = try ConfigurationLoader(environment: ["PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": url]).load()
            Issue.record("a URL with a password was accepted: \(url)")
        } catch {
            #expect(error.setting == "postgresURL")
            #expect(error.reason == "must not hold a password; give it in PAGERD_POSTGRES_PASSWORD")
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test(
        "URLs without a password are taken as they are, percent-encoding included",
        arguments: [
            "postgres://pagerd@db/pagerd?sslmode=require&application_name=pager%20d",
            "postgres://pager%40d@db.internal:5433/pagerd?passfile=%2Fetc%2Fpgpass",
            "postgresql://pagerd@[::1]:5432/pagerd?connect_timeout=5&target_session_attrs=read-write%",
        ])
    func urlsWithoutPassword(url: String) throws {
        let configuration = try ConfigurationLoader(
            environment: ["PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": url]
        ).load()
        #expect(configuration.postgresURL == url)
    }

    @Test("postgres storage: the URL from any source, the password only from the environment, never in a message")
    func postgres() throws {
        let environment = [
            "PAGERD_STORAGE": "postgres",
            "PAGERD_POSTGRES_URL": "postgresql://pagerd@db.internal:5433/pagerd?sslmode=require",
            "PAGERD_POSTGRES_PASSWORD": "hunter2",
        ]
        let configuration = try ConfigurationLoader(environment: environment).load()
        #expect(configuration.storage == .postgres && configuration.postgresPassword == "hunter2")
        #expect(configuration.postgresURL == "postgresql://pagerd@db.internal:5433/pagerd?sslmode=require")
        let flagged = try ConfigurationLoader(
            environment: ["PAGERD_STORAGE": "postgres"], flags: ["postgresURL": "postgres://p@h/d"]
        ).load()
        #expect(flagged.postgresURL == "postgres://p@h/d" && flagged.postgresPassword == nil)
        do {
            _ = try ConfigurationLoader(
                environment: ["PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": "postgres://u:hunter2@h/d"]
            ).load()
            Issue.record("a URL with a password was accepted")
        } catch {
            #expect(!error.description.contains("hunter2") && error.description.contains("PAGERD_POSTGRES_PASSWORD"))
        }
    }

    @Test(
        "bad files name the setting",
        arguments: [
            (#"{"port": "8080"}"#, "port"),
            (#"{"port": 80.5}"#, "port"),
            (#"{"nonsense": 1}"#, "nonsense"),
            (#"{"corsOrigins": [1]}"#, "corsOrigins"),
            (#"[1]"#, "config"),
            (#"{"port": 1,}"#, "config"),
        ])
    func fileErrors(text: String, setting: String) throws {
        let path = try writeFile(text)
        do {
            _ = try ConfigurationLoader(environment: ["PAGERD_CONFIG": path]).load()
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.setting == setting)
            #expect(error.source == path)
        }
    }

    @Test("every setting has a distinct key, variable and flag")
    func settingsTableIsConsistent() {
        let keys = Setting.all.map(\.key), variables = Setting.all.map(\.environment), flags = Setting.all.map(\.flag)
        #expect(Set(keys).count == keys.count)
        #expect(Set(variables).count == variables.count)
        #expect(Set(flags).count == flags.count)
        #expect(variables.allSatisfy { $0.hasPrefix("PAGERD_") })
        // The command line offers a flag for every setting but the secrets.
        let flagged = Setting.all.filter(\.hasFlag)
        guard case .run(let parsed, _) = PagerdCommand.outcome(for: flagged.flatMap { ["--\($0.flag)", "1"] })
        else {
            Issue.record("every setting's flag should parse")
            return
        }
        #expect(parsed.keys.sorted() == flagged.map(\.key).sorted())
        #expect(Setting.all.filter { !$0.hasFlag }.map(\.key) == ["authToken", "accessKeys"])
    }

    @Test("the shipped config/pagerd.json loads: the defaults, on port 8080, with sessions in data/pagerd.db")
    func shippedFile() throws {
        let path = try #require(Self.repositoryFile("config/pagerd.json"))
        let configuration = try ConfigurationLoader(environment: ["PAGERD_CONFIG": path]).load()
        var expected = Configuration()
        expected.server.port = 8080
        expected.storage = .sqlite
        expected.dataPath = "data/pagerd.db"
        #expect(configuration == expected)
    }

    static func repositoryFile(_ relative: String) -> String? {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let path = url.appendingPathComponent(relative).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}

@Suite("The settings table: names, flags, help and the README")
struct SettingsTableTests {
    @Test(
        "variables and flags are derived from the keys, acronyms kept whole",
        arguments: [
            ("perIPConnectionLimit", "PAGERD_PER_IP_CONNECTION_LIMIT", "per-ip-connection-limit"),
            ("idleTTL", "PAGERD_IDLE_TTL", "idle-ttl"),
            ("memoryBudgetBytes", "PAGERD_MEMORY_BUDGET_BYTES", "memory-budget-bytes"),
            ("sessionBudgetBytes", "PAGERD_SESSION_BUDGET_BYTES", "session-budget-bytes"),
            ("maxSubscribersPerAddress", "PAGERD_MAX_SUBSCRIBERS_PER_ADDRESS", "max-subscribers-per-address"),
            ("templates", "PAGERD_TEMPLATES", "templates"),
        ])
    func derivedNames(key: String, variable: String, flag: String) throws {
        let setting = try #require(Setting.named(key))
        #expect(setting.environment == variable)
        #expect(setting.flag == flag)
    }

    @Test("flags take `--flag value` and `--flag=value`; the last one wins; errors exit 2")
    func commandLine() {
        #expect(
            PagerdCommand.outcome(for: ["--port", "-1", "--idle-ttl=60", "--config", "a.json", "--port=7"])
                == .run(flags: ["port": "7", "idleTTL": "60"], config: "a.json"))
        guard case .exit(2, let unknown) = PagerdCommand.outcome(for: ["--no-such-flag", "1"]) else {
            Issue.record("an unknown flag must exit 2")
            return
        }
        #expect(unknown.contains("'--no-such-flag'"))
        #expect(PagerdCommand.outcome(for: ["--port"]) == .exit(code: 2, message: "pagerd: --port needs a value"))
        #expect(
            PagerdCommand.outcome(for: ["serve"])
                == .exit(code: 2, message: "pagerd: unexpected argument 'serve' (see --help)"))
    }

    @Test("--help lists every setting with its variable and the default read from Configuration()")
    func help() {
        guard case .exit(0, let text) = PagerdCommand.outcome(for: ["--help"]) else {
            Issue.record("--help must exit 0")
            return
        }
        for setting in Setting.all where setting.hasFlag {
            #expect(text.contains("--\(setting.flag) (\(setting.environment), default "), "\(setting.key)")
        }
        #expect(text.contains("--max-pages (PAGERD_MAX_PAGES, default 1000)"))
        #expect(text.contains("--memory-budget-bytes (PAGERD_MEMORY_BUDGET_BYTES, default 536870912)"))
        // A secret has no flag, so that it never shows in a process listing.
        #expect(text.contains("PAGERD_AUTH_TOKEN (no flag; default none)") && !text.contains("--auth-token"))
        #expect(
            PagerdCommand.outcome(for: ["--auth-token", "x"])
                == .exit(code: 2, message: "pagerd: unknown option '--auth-token' (see --help)"))
    }

    @Test(
        "access keys come from PAGERD_ACCESS_KEYS or the file PAGERD_ACCESS_KEYS_FILE names; a bad key names the setting, never the secret"
    )
    func accessKeys() throws {
        let secret = "cGFnZXJkLXRlc3RzLXNlY3JldC0zMi1ieXRlcy1vayE"
        let keys = #"[{"kid": "k1", "alg": "HS256", "secret": "\#(secret)"}]"#
        let config = try #require(ConfigurationTests.repositoryFile("config/pagerd.json"))
        let fromVariable = try ConfigurationLoader(
            environment: ["PAGERD_CONFIG": config, "PAGERD_ACCESS_KEYS": keys, "PAGERD_ACCESS_AUDIENCE": "room"]
        ).load()
        #expect(fromVariable.accessKeys != nil && fromVariable.accessAudience == "room")
        #expect(fromVariable.accessTokenMaxLifetime == 86_400)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pagerd-keys-\(getpid())").path
        let duplicate =
            #"[{"kid": "k1", "alg": "HS256", "secret": "\#(secret)"}, {"kid": "k1", "alg": "HS256", "secret": "\#(secret)"}]"#
        try duplicate.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: ["PAGERD_CONFIG": config, "PAGERD_ACCESS_KEYS_FILE": path]).load()
        }
        #expect(error?.setting == "accessKeys" && error?.source == path)
        #expect(error?.reason == "[1] (kid 'k1'): the kid is used by an earlier key")
        #expect(error.map { !$0.description.contains(secret) } == true)
        try keys.write(toFile: path, atomically: true, encoding: .utf8)
        let fromFile = try ConfigurationLoader(environment: ["PAGERD_CONFIG": config, "PAGERD_ACCESS_KEYS_FILE": path])
            .load()
        #expect(fromFile.accessKeys == fromVariable.accessKeys)
        #expect(Setting.named("accessKeys")?.render(fromFile) == "(set)")
    }

    @Test(
        "a secrets file that holds nothing (or no keys) is refused, never taken as no authentication",
        arguments: [
            ("PAGERD_AUTH_TOKEN_FILE", "authToken", " \n\t"), ("PAGERD_ACCESS_KEYS_FILE", "accessKeys", " \n\t"),
            ("PAGERD_ACCESS_KEYS_FILE", "accessKeys", "[]"), ("PAGERD_ACCESS_KEYS_FILE", "accessKeys", " null\n"),
        ])
    func emptySecretsFiles(variable: String, setting: String, contents: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pagerd-empty-\(UUID().uuidString)")
            .path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let keys = #"[{"kid": "a", "alg": "HS256", "secret": "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA"}]"#
        let environment = [variable: path, "PAGERD_AUTH_TOKEN": "other", "PAGERD_ACCESS_KEYS": keys]
        do {
            _ = try ConfigurationLoader(environment: environment).load()
            Issue.record("\(variable) holding \(contents.debugDescription) was accepted")
        } catch {
            #expect(error.setting == setting)
            #expect(error.source == path)
            if setting == "accessKeys" { #expect(error.reason == "the file holds no keys") }
        }
    }

    @Test("the bearer token comes from PAGERD_AUTH_TOKEN_FILE, trimmed; an unreadable file exits 2")
    func tokenFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pagerd-token-\(getpid())").path
        try "s3cret-token\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try #require(ConfigurationTests.repositoryFile("config/pagerd.json"))
        let loaded = try ConfigurationLoader(
            environment: ["PAGERD_CONFIG": config, "PAGERD_AUTH_TOKEN": "other", "PAGERD_AUTH_TOKEN_FILE": path]
        ).load()
        #expect(loaded.authToken == "s3cret-token")
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(
                environment: ["PAGERD_CONFIG": config, "PAGERD_AUTH_TOKEN_FILE": path + ".missing"]
            ).load()
        }
    }

    @Test("the README's configuration table lists exactly the settings, with their names and defaults")
    func readmeTable() throws {
        let path = try #require(ConfigurationTests.repositoryFile("README.md"))
        let readme = try String(contentsOfFile: path, encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains("`PAGERD_") }
        var documented: [String: [String]] = [:]
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            documented[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells
        }
        #expect(documented.keys.sorted() == Setting.all.map(\.key).sorted())
        for setting in Setting.all {
            guard let cells = documented[setting.key] else { continue }
            #expect(cells[1] == "`\(setting.environment)`", "\(setting.key)")
            #expect(cells[2] == (setting.hasFlag ? "`--\(setting.flag)`" : "none"), "\(setting.key)")
            let shown = setting.defaultText.isEmpty ? "none" : "`\(setting.defaultText)`"
            #expect(cells[3].hasPrefix(shown), "\(setting.key): README says \(cells[3]), the code \(shown)")
        }
    }
}

@Suite("libmicrohttpd's messages in pagerd's log")
struct LibraryLogTests {
    @Test(
        "session ids and queries are cut from request targets",
        arguments: [
            (
                "Failed to send the response body for the request for `/v1/sessions/AbC-123_x/events?access_token=eyJ.x.y'. Error: Broken pipe",
                "Failed to send the response body for the request for `/v1/sessions/{id}/events?…'. Error: Broken pipe"
            ),
            (
                "Failed to send data in request for /v1/sessions/s3cr3t.",
                "Failed to send data in request for /v1/sessions/{id}."
            ),
            (
                "Error processing request (HTTP response code is 400 ('Bad Request')). Closing connection.",
                "Error processing request (HTTP response code is 400 ('Bad Request')). Closing connection."
            ),
        ])
    func redaction(_ message: String, _ logged: String) {
        #expect(LibraryLog.redacted(message) == logged)
    }

    @Test("a client that left or came past a limit is routine (debug); other messages are notices")
    func levels() {
        #expect(
            LibraryLog.level(
                of: "Connection socket is closed when reading request due to the error: Connection reset by peer")
                == .debug)
        #expect(LibraryLog.level(of: "Failed to send data in request for /v1/sessions/{id}.") == .debug)
        #expect(LibraryLog.level(of: "Socket has been disconnected when reading request.") == .debug)
        #expect(LibraryLog.level(of: "Connection was closed by remote side with incomplete request.") == .debug)
        #expect(LibraryLog.level(of: "Server reached connection limit. Closing inbound connection.") == .debug)
        // What libmicrohttpd 0.9.75 logs for a request it refuses itself (no Host, a head too
        // large, a malformed line), each caused by a client at will.
        for refusal in [
            #"Error processing request (HTTP response code is 400 ('<html><head><title>&quot;Host:&quot; header required</title></head>')). Closing connection."#,
            #"Error processing request (HTTP response code is 414 ('<html><head><title>Request too big</title></head>')). Closing connection."#,
            #"Error processing request (HTTP response code is 400 ('<html><head><title>Request malformed</title></head>')). Closing connection."#,
            "Received HTTP/1.1 request without `Host' header.",
            "Too large value of 'Content-Length' header. Closing connection.",
            "Failed to parse `Content-Length' header. Closing connection.",
            "Not enough memory in pool to allocate header record!",
        ] {
            #expect(LibraryLog.level(of: refusal) == .debug)
        }
        #expect(LibraryLog.level(of: "Failed to create a thread: Resource temporarily unavailable") == .notice)
    }
}
