public import HTTPTypes
import JSON
public import MicroHTTP
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
    /// The bearer token `/v1` routes require; nil for none.
    public var authToken: String?
    /// Origins allowed by CORS; `*` allows any.
    public var corsOrigins: [String]
    /// Time between comment heartbeats on event streams.
    public var eventHeartbeat: Duration
    /// Requests between their first header and completion, for `/metrics`.
    public var liveRequests: @Sendable () -> Int
    /// The demo web client's files by name (`index.html`, `app.js`, …); empty serves 404s.
    public var webFiles: [String: WebFile]

    /// Creates options.
    public init(
        authToken: String? = nil, corsOrigins: [String] = ["*"], eventHeartbeat: Duration = .seconds(15),
        liveRequests: @escaping @Sendable () -> Int = { 0 }, webFiles: [String: WebFile] = [:]
    ) {
        self.webFiles = webFiles
        self.authToken = authToken
        self.corsOrigins = corsOrigins
        self.eventHeartbeat = eventHeartbeat
        self.liveRequests = liveRequests
    }
}

/// The HTTP face of pagerd: routes each request to its handler and turns errors into problems;
/// applies authentication, CORS and metrics around every route.
public struct APIResponder: HTTPResponder {
    let router: Router
    let options: APIOptions
    let metrics: APIMetrics
    let cors: CORSPolicy
    /// The heartbeat of the event streams; the application runs it (``EventHeartbeat/run()``).
    public let heartbeat: EventHeartbeat

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
        var router = Router()
        Self.addOperationalRoutes(
            to: &router, readiness: readiness, engines: engines, metrics: metrics, options: options)
        TemplateRoutes(templates: templates).register(in: &router)
        SessionRoutes(engines: engines, templates: templates).register(in: &router)
        EventRoutes(engines: engines, heartbeat: heartbeat).register(in: &router)
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
        let (answer, route) = self.route(request)
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

    /// The answer to a request for a `/v1` pattern without the token it needs; nil when allowed.
    private func authorizationRefusal(for pattern: String, _ request: Request) -> Response? {
        guard pattern.hasPrefix("/v1/") else { return nil }
        return authorizationFailure(request)?.response
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

    /// The matched route's answer (or the refusal that stands for it) and the pattern the
    /// metrics count it under.
    private func route(_ request: Request) -> (RouteAnswer, String) {
        let method = Self.routed(request.method)
        if method == .options {
            return (.now(cors.preflight(for: request, allowed: allowedMethods(for: request.path))), "OPTIONS")
        }
        switch router.match(method: method, path: request.path) {
        case .found(let route, let parameters):
            if let refusal = authorizationRefusal(for: route.pattern, request) ?? originRefusal(request) {
                return (.now(refusal), route.pattern)
            }
            do {
                return (try route.handler(RouteContext(request: request, parameters: parameters)), route.pattern)
            } catch {
                return (.now(error.response), route.pattern)
            }
        case .methodNotAllowed(let allowed, let pattern):
            // Without the token, a /v1 path tells nothing, not even which methods it has.
            if let refusal = authorizationRefusal(for: pattern, request) { return (.now(refusal), pattern) }
            let allow = Self.allowHeader(allowed)
            let error = APIError(
                status: 405, code: .methodNotAllowed,
                detail: "\(request.method.rawValue) is not allowed on '\(request.path)'; allowed: \(allow).",
                headers: [(.allow, allow)])
            return (.now(error.response), pattern)
        case .notFound:
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

    /// 401 when a token is configured and the request does not carry it.
    private func authorizationFailure(_ request: Request) -> APIError? {
        guard let token = options.authToken else { return nil }
        let header = request.headers.value(of: .authorization) ?? ""
        let prefix = "bearer "
        let presented =
            header.lowercased().hasPrefix(prefix) ? String(header.dropFirst(prefix.count)).trimmingASCIISpaces() : ""
        if ConstantTime.equal(Array(presented.utf8), Array(token.utf8)) { return nil }
        return APIError(
            status: 401, code: .unauthorized,
            detail: header.isEmpty
                ? "This route needs 'Authorization: Bearer <token>'." : "The bearer token is not valid.",
            headers: [
                (
                    .wwwAuthenticate,
                    header.isEmpty ? #"Bearer realm="pagerd""# : #"Bearer realm="pagerd", error="invalid_token""#
                )
            ])
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
                evictions: evictions, liveRequests: options.liveRequests(),
                subscribers: subscribers,
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
