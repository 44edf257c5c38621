import CoreMetrics
import HTTPTypes
import Locking
import MicroHTTP
import PagerSessions
import Prometheus

/// Request counts, latencies and gauges, exported in Prometheus text format at `/metrics`.
public final class APIMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Metric handles by route, method and status, made once: creating them looks labels up in
    /// the registry under its lock, which showed in profiles at tens of thousands of requests a second.
    private let handles = Locked<[HandleKey: Handle]>([:])

    private typealias Handle = (counter: CoreMetrics.Counter, timer: CoreMetrics.Timer)
    /// Refused credentials by reason, one counter per reason of the fixed set, made at start so
    /// every series is there from the first scrape.
    private let accessRefusals: [String: CoreMetrics.Counter]

    private struct HandleKey: Hashable {
        let route: String
        let method: String
        let status: Int

        /// Hashes the route's length and the status only: the keys are few, and equal keys
        /// compare their route strings, which share storage (each is a registered pattern), by
        /// pointer first. Hashing the texts was most of the cost of a count.
        func hash(into hasher: inout Hasher) {
            hasher.combine(route.utf8.count)
            hasher.combine(status)
        }
    }

    /// Creates an empty set of metrics with latency buckets from 100 µs to 1 s.
    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        self.factory = factory
        accessRefusals = Dictionary(
            uniqueKeysWithValues: AccessGate.refusalReasons.map { reason in
                (
                    reason,
                    CoreMetrics.Counter(
                        label: "pagerd_access_refusals_total", dimensions: [("reason", reason)], factory: factory)
                )
            })
    }

    /// Counts one refused credential; `reason` is one of ``AccessGate/refusalReasons``.
    func recordAccessRefusal(_ reason: String) {
        accessRefusals[reason]?.increment()
    }

    /// The methods counted under their own name; any other is counted as `other`, so a client
    /// cannot add series by inventing methods.
    static func isKnown(_ method: String) -> Bool {
        switch method {
        case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS": true
        default: false
        }
    }

    /// Counts one answered request and records its latency. Every label is drawn from a bounded
    /// set: `route` is a registered pattern or a fixed name chosen by the responder, `method` is
    /// mapped onto the known methods plus `other`, and `status` is a status the server sends.
    func record(route: String, method: String, status: Int, duration: Duration) {
        let method = Self.isKnown(method) ? method : "other"
        let key = HandleKey(route: route, method: method, status: status)
        let handle = handles.withLock { handles in
            if let handle = handles[key] { return handle }
            let made: Handle = (
                counter: CoreMetrics.Counter(
                    label: "pagerd_http_requests_total",
                    dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory),
                timer: CoreMetrics.Timer(
                    label: "pagerd_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            )
            handles[key] = made
            return made
        }
        handle.counter.increment()
        handle.timer.recordNanoseconds(
            Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// The text exposition, after setting the gauges to the given values; the store's counts
    /// only when sessions are kept in one.
    func render(
        sessions: Int, sessionBytes: Int, readCacheBytes: Int, evictions: Int, openConnections: Int, liveRequests: Int,
        answerBytes: Int, subscribers: Int, skippedEvents: Int, storage: StoreStatistics? = nil
    ) -> [UInt8] {
        Gauge(label: "pagerd_sessions", factory: factory).record(sessions)
        Gauge(label: "pagerd_session_bytes", factory: factory).record(sessionBytes)
        Gauge(label: "pagerd_read_cache_bytes", factory: factory).record(readCacheBytes)
        Gauge(label: "pagerd_session_evictions", factory: factory).record(evictions)
        Gauge(label: "pagerd_open_connections", factory: factory).record(openConnections)
        Gauge(label: "pagerd_live_requests", factory: factory).record(liveRequests)
        Gauge(label: "pagerd_answer_bytes", factory: factory).record(answerBytes)
        Gauge(label: "pagerd_event_subscribers", factory: factory).record(subscribers)
        Gauge(label: "pagerd_event_skips", factory: factory).record(skippedEvents)
        if let storage {
            Gauge(label: "pagerd_storage_commits", factory: factory).record(storage.commits)
            Gauge(label: "pagerd_storage_committed_changes", factory: factory).record(storage.changes)
            Gauge(label: "pagerd_storage_failed_commits", factory: factory).record(storage.failedCommits)
            Gauge(label: "pagerd_storage_folds", factory: factory).record(storage.folds)
            Gauge(label: "pagerd_storage_failed_folds", factory: factory).record(storage.failedFolds)
        }
        return registry.emitToBuffer()
    }
}
