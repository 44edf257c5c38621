public import MicroHTTP
import JSON
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

/// The HTTP face of pagerd: routes each request to its handler and turns errors into problems.
public struct APIResponder: HTTPResponder {
    let router: Router
    let readiness: Readiness

    /// Creates the responder with every route registered.
    public init(readiness: Readiness) {
        self.readiness = readiness
        var router = Router()
        Self.addHealthRoutes(to: &router, readiness: readiness)
        self.router = router
    }

    /// The route patterns served, with their methods.
    public var routes: [(pattern: String, methods: [String])] { router.patterns }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        let method = request.method == "HEAD" ? "GET" : request.method
        switch router.match(method: method, path: request.path) {
        case .found(let route, let parameters):
            do {
                return try await route.handler(RouteContext(request: request, parameters: parameters))
            } catch {
                return error.response
            }
        case .methodNotAllowed(let allowed, _):
            var methods = allowed
            if methods.contains("GET") { methods.append("HEAD") }
            let allow = methods.joined(separator: ", ")
            return APIError(
                status: 405, code: "method_not_allowed",
                detail: "\(request.method) is not allowed on '\(request.path)'; allowed: \(allow).",
                headers: [("Allow", allow)]
            ).response
        case .notFound:
            return APIError.notFound(request.path).response
        }
    }

    public func response(for refusal: HTTPRefusal) -> HTTPResponse {
        refusal.apiError.response
    }

    private static func addHealthRoutes(to router: inout Router, readiness: Readiness) {
        router.add("GET", "/healthz") { _ in
            jsonResponse(["status": "ok"])
        }
        router.add("GET", "/readyz") { _ throws(APIError) in
            guard readiness.isReady else {
                throw APIError(
                    status: 503, code: "not_ready", detail: "The service is not ready.", headers: [("Retry-After", "1")])
            }
            return jsonResponse(["status": "ready"])
        }
    }
}

/// A 200 (or `status`) response with a JSON body.
func jsonResponse(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
        status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: JSONWriter.encode(value))
}
