import Logging
import MicroHTTP
import PagerAPI
import PagerSessions
import ServiceLifecycle

/// The HTTP server as a service: starts listening, serves until a graceful shutdown begins, then
/// stops as ``HTTPServer/stop(gracePeriod:drainPeriod:)`` does and returns.
struct HTTPServerService: Service {
    let server: HTTPServer
    let readiness: Readiness
    let gracePeriod: Duration
    let templates: [String]
    let logger: Logger

    func run() async throws {
        try server.start()
        readiness.set(true)
        logger.info(
            "pagerd listening",
            metadata: [
                "host": "\(server.configuration.host)", "port": "\(server.port)",
                "threading": "\(server.configuration.threading.rawValue)",
                "templates": "\(templates.joined(separator: ","))",
            ])
        // Returns when SIGTERM, SIGINT or SIGHUP starts the graceful shutdown, or throws if cancelled.
        try? await gracefulShutdown()
        logger.info("stopping")
        readiness.set(false)
        await server.stop(gracePeriod: gracePeriod)
        logger.info("stopped")
    }
}

/// Evicts idle sessions every tenth of the idle TTL (1 to 60 s), in batches of
/// ``PagerEngine/evictionBatch``, each a separate turn on the engine so requests interleave with
/// a mass expiry. Ends with the graceful shutdown.
struct EvictionService: Service {
    let engines: PagerEngines
    let idleTTL: Int
    let logger: Logger

    func run() async {
        let interval = Duration.seconds(max(1, min(60, idleTTL / 10)))
        await cancelWhenGracefulShutdown {
            while true {
                do { try await Task.sleep(for: interval) } catch { return }
                let evicted = await engines.evictExpired()
                if evicted > 0 { logger.debug("evicted idle sessions", metadata: ["count": "\(evicted)"]) }
                for shard in engines.shards { await shard.recordWatchedUse() }
                await engines.expireStored()
            }
        }
    }
}

/// The event streams' shared heartbeat (``EventHeartbeat``), until the graceful shutdown.
struct HeartbeatService: Service {
    let heartbeat: EventHeartbeat

    func run() async {
        await cancelWhenGracefulShutdown { await heartbeat.run() }
    }
}

/// Ends event streams whose access token expired (``EventExpiry``), until the graceful shutdown.
struct EventExpiryService: Service {
    let expiry: EventExpiry

    func run() async {
        await cancelWhenGracefulShutdown { await expiry.run() }
    }
}
