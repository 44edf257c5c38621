import Foundation
import Logging
import MicroHTTP
import PagerAPI
import PagerAccess
import PagerModel
import PagerSessions
import PagerStorage
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The pagerd process: configuration, wiring, signals and a graceful stop.
public enum Pagerd {
    /// Runs pagerd with `arguments` (without the program name) and returns the exit status.
    public static func main(arguments: [String], environment: [String: String]) async -> Int32 {
        let flags: [String: String]
        let configFlag: String?
        switch PagerdCommand.outcome(for: arguments) {
        case .exit(let code, let message):
            printError(message, toStandardError: code != 0)
            return code
        case .run(let parsed, let config):
            flags = parsed
            configFlag = config
        }
        let configuration: Configuration
        do {
            configuration = try ConfigurationLoader(environment: environment, flags: flags, configFlag: configFlag)
                .load()
        } catch {
            printError("pagerd: \(error)", toStandardError: true)
            return 2
        }
        let templates: [Template]
        do {
            templates = try TemplateLoader.load(from: configuration.templatesPath, limits: configuration.pagerLimits)
        } catch {
            printError("pagerd: \(error)", toStandardError: true)
            return 2
        }
        LogSetup.bootstrap(format: configuration.logFormat, level: configuration.logLevel)
        let logger = Logger(label: "pagerd")
        return await run(configuration, templates: templates, logger: logger)
    }

    private static func run(_ configuration: Configuration, templates: [Template], logger: Logger) async -> Int32 {
        raiseFileLimit(toServe: configuration.server.connectionLimit, logger: logger)
        // A file-size limit (RLIMIT_FSIZE) then fails a write with EFBIG, which the store
        // handles like a full disk, instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        let store: (any SessionStore)?
        let closeStore: () -> Void
        let listen: (PagerEngines) -> Void
        switch openStore(configuration, logger: logger) {
        case .success(let opened, let close, let startListening):
            store = opened
            closeStore = close
            listen = startListening
        case .failure(let message):
            printError("pagerd: \(message)", toStandardError: true)
            return 2
        }
        defer { closeStore() }
        let readiness = Readiness()
        let engines = PagerEngines(count: configuration.shardCount, limits: configuration.engineLimits, store: store)
        listen(engines)
        if store != nil {
            let started = Date()
            do {
                let recovery = try engines.restore()
                logger.info(
                    "sessions recovered",
                    metadata: [
                        "storage": "\(configuration.storage.rawValue)", "restored": "\(recovery.restored)",
                        "expired": "\(recovery.expired)",
                        "seconds": "\((Date().timeIntervalSince(started) * 1000).rounded() / 1000)",
                    ])
            } catch {
                printError("pagerd: cannot recover sessions: \(error)", toStandardError: true)
                return 2
            }
        }
        let webFiles = WebLoader.load(from: configuration.webRoot)
        if webFiles == nil {
            logger.warning(
                "no demo web client: the folder cannot be read", metadata: ["webRoot": "\(configuration.webRoot)"])
        }
        let verifier: AccessVerifier?
        switch await accessVerifier(configuration) {
        case .success(let made): verifier = made
        case .failure(let error):
            printError("pagerd: \(error)", toStandardError: true)
            return 2
        }
        let statistics = HTTPServerStatistics()
        let options = APIOptions(
            authToken: configuration.authToken, accessVerifier: verifier, corsOrigins: configuration.corsOrigins,
            eventHeartbeat: .seconds(configuration.eventHeartbeat),
            serverStatistics: statistics, webFiles: webFiles ?? [:])
        let responder = APIResponder(engines: engines, templates: templates, readiness: readiness, options: options)
        let httpLogger = Logger(label: "pagerd.http")
        let server = HTTPServer(configuration: configuration.server, responder: responder, statistics: statistics) {
            message in
            httpLogger.log(level: LibraryLog.level(of: message), "libmicrohttpd: \(LibraryLog.redacted(message))")
        }
        // Started in this order and, on SIGTERM, SIGINT or SIGHUP (a closed terminal; pagerd has
        // nothing to reload), shut down gracefully in reverse: the server first (it finishes
        // requests and ends streams), then the stream expiry, the heartbeat and the sweeper.
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: EvictionService(engines: engines, idleTTL: configuration.idleTTL, logger: logger)),
                    .init(service: HeartbeatService(heartbeat: responder.heartbeat)),
                    .init(service: EventExpiryService(expiry: responder.expiry)),
                    .init(
                        service: HTTPServerService(
                            server: server, readiness: readiness, gracePeriod: .seconds(configuration.shutdownGrace),
                            templates: templates.map(\.name).sorted(), logger: logger)),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint, .sighup],
                logger: logger))
        do {
            try await services.run()
        } catch {
            logger.critical("cannot start: \(error)")
            return 1
        }
        return 0
    }

    /// The verifier of access tokens, when `accessKeys` holds keys (checked already by the
    /// loader; jwt-kit prepares them here). No key reaches a log line.
    private static func accessVerifier(
        _ configuration: Configuration
    ) async -> Result<AccessVerifier?, ConfigurationError> {
        guard let value = configuration.accessKeys else { return .success(nil) }
        do throws(AccessKeyError) {
            let definitions = try AccessKeyDefinition.parse(value)
            guard !definitions.isEmpty else { return .success(nil) }
            let keys = try await AccessKeys.make(definitions)
            return .success(
                AccessVerifier(
                    keys: keys, audience: configuration.accessAudience,
                    maxLifetime: configuration.accessTokenMaxLifetime))
        } catch {
            return .failure(ConfigurationError(setting: "accessKeys", source: "configuration", reason: error.reason))
        }
    }

    private enum StoreOpening {
        /// The store (none for memory), what closes it when pagerd stops, and what makes the
        /// engines follow the changes other processes make to a shared store.
        case success((any SessionStore)?, close: () -> Void, listen: (PagerEngines) -> Void = { _ in })
        case failure(String)
    }

    /// The store `configuration.storage` asks for: none for memory; the SQLite file, locked
    /// against a second process, for sqlite; the database, its schema created or migrated under
    /// an advisory lock, for postgres (several instances share it). Any failure to open is a
    /// message for exit status 2.
    private static func openStore(_ configuration: Configuration, logger: Logger) -> StoreOpening {
        switch configuration.storage {
        case .memory:
            return .success(nil, close: {})
        case .postgres:
            let storeLogger = Logger(label: "pagerd.storage")
            let options = PostgresSessionStore.Options(
                url: configuration.postgresURL ?? "", password: configuration.postgresPassword,
                maxSessions: configuration.maxSessions, memoryBudgetBytes: configuration.memoryBudgetBytes,
                log: { message in storeLogger.error("\(message)") },
                warn: { message in storeLogger.warning("\(message)") })
            do {
                let store = try PostgresSessionStore(options: options)
                return .success(
                    store, close: store.close,
                    listen: { engines in
                        store.listen(
                            onChange: { change in engines.absorb(change) },
                            onResynchronize: { engines.resynchronize() })
                    })
            } catch {
                return .failure("cannot use PostgreSQL: \(error.reason)")
            }
        case .sqlite:
            let storeLogger = Logger(label: "pagerd.storage")
            let options = SQLiteSessionStore.Options(
                path: configuration.dataPath, synchronous: configuration.sqliteSynchronous,
                checkpointBytes: configuration.sqliteCheckpointBytes,
                log: { message in storeLogger.error("\(message)") },
                warn: { message in storeLogger.warning("\(message)") })
            do {
                let store = try SQLiteSessionStore(options: options)
                return .success(store, close: store.close)
            } catch {
                switch error.kind {
                case .inUse:
                    return .failure("\(configuration.dataPath) is in use by another pagerd process (\(error.reason))")
                case .corrupt, .unusable:
                    return .failure("cannot use \(configuration.dataPath): \(error.reason)")
                }
            }
        }
    }

    /// Makes sure the process may hold as many sockets as it is configured to serve.
    private static func raiseFileLimit(toServe connections: Int, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(connections + 64)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        if limit.rlim_cur < wanted {
            logger.warning(
                "the open-file limit is below the connection limit",
                metadata: ["nofile": "\(limit.rlim_cur)", "connectionLimit": "\(connections)"])
        }
    }

    private static func printError(_ message: String, toStandardError: Bool) {
        let line = Data((message.hasSuffix("\n") ? message : message + "\n").utf8)
        (toStandardError ? FileHandle.standardError : FileHandle.standardOutput).write(line)
    }
}
