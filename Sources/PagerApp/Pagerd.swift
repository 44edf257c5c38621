import Dispatch
import Foundation
import Logging
import MicroHTTP
import PagerAPI
import PagerModel
import PagerSessions
import Synchronization

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
        let signals = SignalWaiter()
        let readiness = Readiness()
        let engine = PagerEngine(templates: templates, limits: configuration.engineLimits)
        let serverSlot = Locked<HTTPServer?>(nil)
        let webFiles = WebLoader.load(from: configuration.webRoot)
        if webFiles == nil {
            logger.warning(
                "no demo web client: the folder cannot be read", metadata: ["webRoot": "\(configuration.webRoot)"])
        }
        let options = APIOptions(
            authToken: configuration.authToken, corsOrigins: configuration.corsOrigins,
            eventHeartbeat: .seconds(configuration.eventHeartbeat),
            liveRequests: { serverSlot.withLock { $0?.liveRequestCount ?? 0 } }, webFiles: webFiles ?? [:])
        let responder = APIResponder(engine: engine, readiness: readiness, options: options)
        let httpLogger = Logger(label: "pagerd.http")
        let server = HTTPServer(configuration: configuration.server, responder: responder) { message in
            httpLogger.notice("libmicrohttpd: \(message)")
        }
        serverSlot.withLock { $0 = server }
        do {
            try server.start()
        } catch {
            logger.critical("cannot start: \(error)")
            return 1
        }
        readiness.set(true)
        let sweeper = Task {
            let interval = Duration.seconds(max(1, min(60, configuration.idleTTL / 10)))
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                // In batches, each a separate turn on the engine, so requests interleave with a
                // mass expiry instead of waiting for all of it.
                var evicted = 0
                while !Task.isCancelled {
                    let batch = await engine.evictExpired(limit: PagerEngine.evictionBatch)
                    evicted += batch
                    if batch < PagerEngine.evictionBatch { break }
                }
                if evicted > 0 { logger.debug("evicted idle sessions", metadata: ["count": "\(evicted)"]) }
            }
        }
        logger.info(
            "pagerd listening",
            metadata: [
                "host": "\(configuration.server.host)", "port": "\(server.port)",
                "threading": "\(configuration.server.threading.rawValue)",
                "templates": "\(templates.map(\.name).sorted().joined(separator: ","))",
            ])
        let signal = await signals.waitForTermination()
        logger.info("stopping", metadata: ["signal": "\(signal)"])
        readiness.set(false)
        sweeper.cancel()
        await server.stop(gracePeriod: .seconds(configuration.shutdownGrace))
        serverSlot.withLock { $0 = nil }
        logger.info("stopped")
        return 0
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

/// Turns SIGTERM and SIGINT into an awaitable event. Create it before the server starts, so a
/// signal that arrives early is not handled by the default action (termination).
final class SignalWaiter {
    private let queue = DispatchQueue(label: "pagerd.signals")
    private let stream: AsyncStream<String>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        self.stream = stream
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(name) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// Waits for the first SIGTERM or SIGINT and returns its name.
    func waitForTermination() async -> String {
        for await name in stream { return name }
        return "end"
    }
}
