public import HTTPTypes
import JSON
public import MicroHTTP
public import PagerAccess
public import PagerSessions
import Synchronization

/// Whether the service should receive traffic; `/readyz` reports it.
public final class Readiness: Sendable {
    private let ready = Atomic<Bool>(false)

    /// Creates a flag that starts not ready.
    public init() {}

    /// Whether the service is ready.
    public var isReady: Bool { ready.load(ordering: .relaxed) }

    /// Sets readiness.
    public func set(_ value: Bool) { ready.store(value, ordering: .relaxed) }
}

/// Options of the HTTP face that come from configuration.
public struct APIOptions: Sendable {
    /// The bearer token `/v1` routes require; nil for none. It allows everything.
    public var authToken: String?
    /// The verifier of access tokens; nil when no keys are configured (then `authToken` alone
    /// is asked for, or nothing).
    public var accessVerifier: AccessVerifier?
    /// The wall clock tokens are checked and minted with, and their event streams ended by.
    public var accessClock: any AccessClock
    /// Origins allowed by CORS; `*` allows any.
    public var corsOrigins: [String]
    /// Time between comment heartbeats on event streams.
    public var eventHeartbeat: Duration
    /// The HTTP server's counters (live requests, answers not yet sent), for `/metrics`.
    public var serverStatistics: HTTPServerStatistics
    /// The demo web client's files by name (`index.html`, `app.js`, …); empty serves 404s.
    public var webFiles: [String: WebFile]

    /// Creates options.
    public init(
        authToken: String? = nil, accessVerifier: AccessVerifier? = nil,
        accessClock: any AccessClock = SystemAccessClock(), corsOrigins: [String] = ["*"],
        eventHeartbeat: Duration = .seconds(15), serverStatistics: HTTPServerStatistics = HTTPServerStatistics(),
        webFiles: [String: WebFile] = [:]
    ) {
        self.webFiles = webFiles
        self.authToken = authToken
        self.accessVerifier = accessVerifier
        self.accessClock = accessClock
        self.corsOrigins = corsOrigins
        self.eventHeartbeat = eventHeartbeat
        self.serverStatistics = serverStatistics
    }
}

/// The HTTP face of pagerd: routes each request to its handler and turns errors into problems;
/// applies authentication, CORS and metrics around every route.
public struct APIResponder: HTTPResponder {
    let router: Router
    let options: APIOptions
    let metrics: APIMetrics
    let cors: CORSPolicy
    let gate: AccessGate
    /// The heartbeat of the event streams; the application runs it (``EventHeartbeat/run()``).
    public let heartbeat: EventHeartbeat
    /// Ends event streams whose access token stopped being accepted; the application runs it
    /// (``EventExpiry/run()``).
    public let expiry: EventExpiry

    /// Creates the responder with every route registered.
    public init(
        engines: PagerEngines, templates: [Template] = [], readiness: Readiness, options: APIOptions = APIOptions(),
        metrics: APIMetrics = APIMetrics()
    ) {
        let templates = Dictionary(templates.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.options = options
        self.metrics = metrics
        self.cors = CORSPolicy(origins: options.corsOrigins)
        let heartbeat = EventHeartbeat(interval: options.eventHeartbeat)
        self.heartbeat = heartbeat
        let gate = AccessGate(
            authToken: options.authToken, verifier: options.accessVerifier, clock: options.accessClock,
            metrics: metrics)
        self.gate = gate
        let expiry = EventExpiry(clock: options.accessClock)
        self.expiry = expiry
        let tokens = SessionTokens(gate: gate)
        var router = Router()
        Self.addOperationalRoutes(
            to: &router, readiness: readiness, engines: engines, metrics: metrics, options: options)
        TemplateRoutes(templates: templates).register(in: &router)
        SessionRoutes(engines: engines, templates: templates, tokens: tokens).register(in: &router)
        EventRoutes(engines: engines, heartbeat: heartbeat, expiry: expiry).register(in: &router)
        TokenRoutes(engines: engines, tokens: tokens).register(in: &router)
        StaticRoutes(files: options.webFiles).register(in: &router)
        let document = OpenAPIDocument.bytes
        router.add(.get, "/openapi.json") { _ in
            .now(Response(status: 200, headers: [.contentType: "application/json; charset=utf-8"], body: document))
        }
        self.router = router
    }

    /// The route patterns served, with their methods.
    public var routes: [(pattern: String, methods: [HTTPRequest.Method])] { router.patterns }

    public func respond(to request: Request) -> Reply {
        let started = ContinuousClock.now
        let (answer, route) = self.answer(to: request)
        switch answer {
        case .now(let response):
            return .now(finish(response, route: route, for: request, started: started))
        case .later(let work):
            return .later {
                let response: Response
                do throws(APIError) { response = try await work() } catch { response = error.response }
                return finish(response, route: route, for: request, started: started)
            }
        }
    }

    /// What every answer gets on its way out: CORS headers and a count in the metrics.
    private func finish(
        _ response: Response, route: String, for request: Request, started: ContinuousClock.Instant
    )
        -> Response
    {
        var response = response
        cors.decorate(&response, for: request)
        metrics.record(
            route: route, method: request.method.rawValue, status: response.status.code,
            duration: ContinuousClock.now - started)
        return response
    }

    /// The answer to a change asked by a page whose origin is not allowed: browsers send a form's
    /// POST across sites without asking first (no preflight), so a request that changes state
    /// and names its `Origin` must name an allowed one. Requests without `Origin` (not from a
    /// browser's page, or same-origin GETs) are not affected.
    private func originRefusal(_ request: Request) -> Response? {
        guard request.method != .get, request.method != .head, let origin = request.headers.value(of: .origin),
            cors.allowOrigin(for: origin) == nil
        else { return nil }
        return APIError(
            status: 403, code: .forbidden,
            detail: "A page from '\(origin)' may not change sessions: that origin is not in corsOrigins."
        ).response
    }

    /// The method a request is routed by: HEAD as GET.
    private static func routed(_ method: HTTPRequest.Method) -> HTTPRequest.Method { method == .head ? .get : method }

    /// The answer to `request`: its route found, the credentials checked (401, 403), the origin
    /// checked and the route's handler run; or the refusal that stands for it. With the pattern
    /// the metrics count it under.
    private func answer(to request: Request) -> (RouteAnswer, String) {
        let method = Self.routed(request.method)
        if method == .options {
            return (.now(cors.preflight(for: request, allowed: allowedMethods(for: request.path))), "OPTIONS")
        }
        switch router.match(method: method, path: request.path) {
        case .found(let route, let parameters):
            let requirement = AccessRequirement.of(method: route.method, pattern: route.pattern)
            var authorization = Authorization.open
            if requirement != .none {
                // Who sent it (401), then whether that allows this request (403): before the
                // origin, the handler, If-Match, the session lookup and the body.
                let readsQuery = route.pattern == EventRoutes.pattern && method == .get
                switch gate.authenticate(request, readsQuery: readsQuery) {
                case .failure(let refusal): return (.now(refusal.response), route.pattern)
                case .success(let found): authorization = found
                }
                if let refusal = gate.authorize(authorization, requirement, session: parameters["id"]) {
                    return (.now(refusal.response), route.pattern)
                }
            }
            if let refusal = originRefusal(request) { return (.now(refusal), route.pattern) }
            let context = RouteContext(request: request, parameters: parameters, authorization: authorization)
            do {
                return (try route.handler(context), route.pattern)
            } catch {
                return (.now(error.response), route.pattern)
            }
        case .methodNotAllowed(let allowed, let pattern):
            // Without a valid credential, a /v1 path tells nothing, not even which methods it has.
            if pattern.hasPrefix("/v1/"), case .failure(let refusal) = gate.authenticate(request, readsQuery: false) {
                return (.now(refusal.response), pattern)
            }
            let allow = Self.allowHeader(allowed)
            let error = APIError(
                status: 405, code: .methodNotAllowed,
                detail: "\(request.method.rawValue) is not allowed on '\(request.path)'; allowed: \(allow).",
                headers: [(.allow, allow)])
            return (.now(error.response), pattern)
        case .notFound:
            // With access tokens, a /v1 path that names no route answers 404 only to a valid
            // credential (without them, as before: 404 to anyone).
            if gate.usesTokens, request.path == "/v1" || request.path.hasPrefix("/v1/"),
                case .failure(let refusal) = gate.authenticate(request, readsQuery: false)
            {
                return (.now(refusal.response), "unmatched")
            }
            return (.now(APIError.notFound(request.path).response), "unmatched")
        }
    }

    public func response(for refusal: HTTPRefusal) -> Response {
        refusal.apiError.response
    }

    private func allowedMethods(for path: String) -> [HTTPRequest.Method]? {
        switch router.match(method: nil, path: path) {
        case .methodNotAllowed(let allowed, _): allowed
        default: nil
        }
    }

    static func allowHeader(_ methods: [HTTPRequest.Method]) -> String {
        var all = methods
        if all.contains(.get) { all.append(.head) }
        all.append(.options)
        return all.map(\.rawValue).joined(separator: ", ")
    }

    private static func addOperationalRoutes(
        to router: inout Router, readiness: Readiness, engines: PagerEngines, metrics: APIMetrics, options: APIOptions
    ) {
        router.add(.get, "/healthz") { _ in
            .now(jsonResponse(["status": "ok"]))
        }
        // Not ready, either, while the store refuses changes (every write would answer 503). The
        // store answers from what it knows (a lock; while its disk is short of room, at most one
        // measure of the room every 0.1 s), so polling stays cheap.
        router.add(.get, "/readyz") { _ throws(APIError) in
            guard readiness.isReady else {
                throw APIError(
                    status: 503, code: .notReady, detail: "The service is not ready.", headers: [(.retryAfter, "1")]
                )
            }
            if let store = engines.store, !store.isAcceptingChanges {
                throw APIError(
                    status: 503, code: .notReady,
                    detail: "Sessions cannot be changed now: the store refuses changes. Reads are served.",
                    headers: [(.retryAfter, "1")])
            }
            return .now(jsonResponse(["status": "ready"]))
        }
        router.add(.get, "/metrics") { _ in
            let (sessions, evictions, subscribers) = (engines.sessionCount, engines.evictions, engines.subscriberTotal)
            let text = metrics.render(
                sessions: sessions, sessionBytes: engines.storedBytes, readCacheBytes: engines.readCacheBytes,
                evictions: evictions, openConnections: options.serverStatistics.openConnections,
                liveRequests: options.serverStatistics.liveRequests,
                answerBytes: options.serverStatistics.answerBytes,
                subscribers: subscribers, skippedEvents: engines.skippedEvents,
                storage: engines.store?.statistics)
            return .now(
                Response(status: 200, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: text))
        }
    }
}

/// A 200 (or `status`) response with a JSON body.
func jsonResponse(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
    Response(
        status: status, headers: [.contentType: "application/json; charset=utf-8"], body: JSONWriter.encode(value))
}

/// Comparison whose time does not depend on where the inputs differ.
enum ConstantTime {
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        let length = max(a.count, b.count)
        for i in 0..<length {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0 && a.count == b.count
    }
}
