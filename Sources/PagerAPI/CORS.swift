import HTTPTypes
import MicroHTTP

/// Cross-origin rules for web clients.
struct CORSPolicy: Sendable {
    let origins: [String]

    static let allowedHeaders = "Content-Type, If-Match, If-None-Match, Authorization, Last-Event-ID"
    static let exposedHeaders = "ETag, Location, Retry-After, WWW-Authenticate"

    /// The value of Access-Control-Allow-Origin for `origin`, or nil when it is not allowed.
    func allowOrigin(for origin: String) -> String? {
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    /// Whether responses depend on the request's Origin: they do whenever the origins are a list.
    var variesByOrigin: Bool { !origins.contains("*") }

    /// Adds the CORS headers an actual (non-preflight) response needs. With a list of origins,
    /// every response says `Vary: Origin`, so that a cache never hands one origin's answer (with
    /// or without the allow header) to another.
    func decorate(_ response: inout Response, for request: Request) {
        if variesByOrigin { response.headers.add(.vary, "Origin") }
        guard let origin = request.headers.value(of: .origin), let allowed = allowOrigin(for: origin) else { return }
        response.headers.set(.accessControlAllowOrigin, allowed)
        response.headers.set(.accessControlExposeHeaders, Self.exposedHeaders)
    }

    /// Answers an OPTIONS request: a preflight gets the methods the path allows and the headers
    /// clients send; an unknown path is 404.
    func preflight(for request: Request, allowed methods: [HTTPRequest.Method]?) -> Response {
        guard let methods else { return APIError.notFound(request.path).response }
        let allow = APIResponder.allowHeader(methods)
        var response = Response(status: 204, headers: [.allow: allow])
        guard let origin = request.headers.value(of: .origin), request.headers.contains(.accessControlRequestMethod)
        else {
            return response
        }
        guard let allowedOrigin = allowOrigin(for: origin) else { return response }
        response.headers.set(.accessControlAllowOrigin, allowedOrigin)
        response.headers.set(.accessControlAllowMethods, allow)
        response.headers.set(.accessControlAllowHeaders, Self.allowedHeaders)
        response.headers.set(.accessControlMaxAge, "600")
        return response
    }
}
