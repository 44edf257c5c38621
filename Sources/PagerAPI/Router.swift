public import HTTPTypes
public import MicroHTTP
import PagerSessions

/// The values a route handler receives: the request and the path parameters it matched.
public struct RouteContext: Sendable {
    /// The request.
    public var request: Request
    /// The path parameters by name, for example `id`.
    public var parameters: RouteParameters
    /// What authorised the request (`authToken`, an access token, or nothing asked for).
    public var authorization: Authorization = .open

    /// The `id` parameter as a session id (any text: one that names no session is answered 404).
    func sessionID() throws(APIError) -> SessionID { SessionID(try parameter("id")) }

    /// The parameter `name` of the matched pattern. Asking for one the pattern does not have is
    /// a programming error, answered as a 500 rather than read as an empty string.
    public func parameter(_ name: String) throws(APIError) -> String {
        guard let value = parameters[name] else {
            throw APIError(status: 500, code: .internalError, detail: "The route has no parameter '\(name)'.")
        }
        return value
    }
}

/// A route's answer: a response now, or work that must wait (for a commit, or to load a
/// session from a shared store). It is the HTTP layer's ``Reply`` with the API's errors.
public enum RouteAnswer: Sendable {
    /// The response, made on the server thread.
    case now(Response)
    /// Work that waits; nothing has been changed before it runs (the server may refuse the
    /// request instead, when it is stopping).
    case later(@Sendable () async throws(APIError) -> Response)
}

/// A route's handler: called on the server thread that read the request, it answers now or
/// returns the work that waits. It may enter an engine shard (``PagerEngine/withLock(_:)``) or
/// take one of the short locks docs/architecture.md lists for server threads («Threads and
/// locks»: `/readyz` and `/metrics` read the store's and the metrics' state), and must wait for
/// nothing else.
public typealias RouteHandler = @Sendable (RouteContext) throws(APIError) -> RouteAnswer

/// Maps a method and a path pattern such as `/v1/sessions/{id}` to a handler.
public struct Router: Sendable {
    /// One registered route.
    /// A class, so a match hands out one reference: every server thread matches the same
    /// routes, and copying a route's pattern, segments and handlers retained four objects they
    /// all share.
    public final class Route: Sendable {
        /// The method.
        public let method: HTTPRequest.Method
        /// The pattern, for example `/v1/sessions/{id}/next`.
        public let pattern: String
        let segments: [Segment]
        let handler: RouteHandler

        init(method: HTTPRequest.Method, pattern: String, segments: [Segment], handler: @escaping RouteHandler) {
            self.method = method
            self.pattern = pattern
            self.segments = segments
            self.handler = handler
        }
    }

    enum Segment: Sendable, Equatable {
        /// A literal segment, as UTF-8.
        case literal([UInt8])
        case parameter(String)
    }

    /// The routes in registration order.
    public private(set) var routes: [Route] = []

    /// Creates an empty router.
    public init() {}

    /// Registers `handler` for `method` on `pattern`.
    public mutating func add(_ method: HTTPRequest.Method, _ pattern: String, _ handler: @escaping RouteHandler) {
        let segments = Self.split(pattern).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}")
                ? .parameter(String(part.dropFirst().dropLast())) : .literal(Array(part.utf8))
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments },
            "route \(method) \(pattern) registered twice")
        routes.append(Route(method: method, pattern: pattern, segments: segments, handler: handler))
    }

    /// The outcome of looking a request up.
    public enum Match {
        /// A route and its parameters.
        case found(Route, RouteParameters)
        /// The path exists but not for this method; the methods it allows.
        case methodNotAllowed(allowed: [HTTPRequest.Method], pattern: String)
        /// No route has this path.
        case notFound
    }

    /// Finds the route for `method` and `path`.
    public func match(method: HTTPRequest.Method?, path: String) -> Match {
        var path = path
        return path.withUTF8 { bytes in
            // The routes of the method first: most requests end there, having compared the path
            // with a third of the patterns.
            for index in routes.indices where routes[index].method == method {
                if Self.matches(routes[index].segments, bytes) {
                    return .found(routes[index], Self.parameters(routes[index].segments, bytes))
                }
            }
            var allowed: [HTTPRequest.Method] = []
            var pattern = ""
            for index in routes.indices where Self.matches(routes[index].segments, bytes) {
                allowed.append(routes[index].method)
                pattern = routes[index].pattern
            }
            return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed, pattern: pattern)
        }
    }

    /// The patterns served, each with its methods, in registration order.
    public var patterns: [(pattern: String, methods: [HTTPRequest.Method])] {
        var result: [(pattern: String, methods: [HTTPRequest.Method])] = []
        for route in routes {
            if let index = result.firstIndex(where: { $0.pattern == route.pattern }) {
                result[index].methods.append(route.method)
            } else {
                result.append((route.pattern, [route.method]))
            }
        }
        return result
    }

    private static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    }

    /// Calls `body` with each segment of `path` (the bytes between slashes after the leading
    /// one) and its pattern segment while they line up; false when the counts differ or `body`
    /// refuses one. Works on the bytes: no Substrings, no Characters, no allocation.
    private static func walk(
        _ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>,
        _ body: (Segment, Range<Int>) -> Bool
    ) -> Bool {
        guard path.first == UInt8(ascii: "/") else { return false }
        var start = 1
        for (position, segment) in segments.enumerated() {
            var end = start
            while end < path.count, path[end] != UInt8(ascii: "/") { end += 1 }
            let isLast = position == segments.count - 1
            // The last segment must end the path; the others must be followed by a slash.
            if isLast ? end != path.count : end == path.count { return false }
            guard body(segment, start..<end) else { return false }
            start = end + 1
        }
        return !segments.isEmpty
    }

    private static func matches(_ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        walk(segments, path) { segment, range in
            switch segment {
            case .literal(let literal): literal.elementsEqual(path[range])
            case .parameter: !range.isEmpty
            }
        }
    }

    private static func parameters(_ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>) -> RouteParameters {
        var parameters = RouteParameters()
        _ = walk(segments, path) { segment, range in
            if case .parameter(let name) = segment {
                parameters.append(name, String(decoding: UnsafeBufferPointer(rebasing: path[range]), as: UTF8.self))
            }
            return true
        }
        return parameters
    }
}
