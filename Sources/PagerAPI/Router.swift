public import MicroHTTP

/// The values a route handler receives: the request and the path parameters it matched.
public struct RouteContext: Sendable {
    /// The request.
    public var request: HTTPRequest
    /// The path parameters by name, for example `id`.
    public var parameters: [String: String]

    /// The parameter `name`; the router guarantees every parameter of the matched pattern.
    public func parameter(_ name: String) -> String { parameters[name] ?? "" }
}

/// A route's handler.
public typealias RouteHandler = @Sendable (RouteContext) async throws(APIError) -> HTTPResponse

/// Maps a method and a path pattern such as `/v1/sessions/{id}` to a handler.
public struct Router: Sendable {
    /// One registered route.
    public struct Route: Sendable {
        /// The method, upper case.
        public var method: String
        /// The pattern, for example `/v1/sessions/{id}/next`.
        public var pattern: String
        let segments: [Segment]
        let handler: RouteHandler
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
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping RouteHandler) {
        let segments = Self.split(pattern).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(Array(part.utf8))
        }
        precondition(
            !routes.contains { $0.method == method && $0.segments == segments }, "route \(method) \(pattern) registered twice")
        routes.append(Route(method: method, pattern: pattern, segments: segments, handler: handler))
    }

    /// The outcome of looking a request up.
    public enum Match {
        /// A route and its parameters.
        case found(Route, [String: String])
        /// The path exists but not for this method; the methods it allows.
        case methodNotAllowed(allowed: [String], pattern: String)
        /// No route has this path.
        case notFound
    }

    /// Finds the route for `method` and `path`.
    public func match(method: String, path: String) -> Match {
        // Bytes rather than Characters: splitting by Character runs grapheme breaking.
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        var allowed: [String] = []
        var pattern = ""
        for route in routes {
            guard let parameters = Self.bind(route.segments, to: parts) else { continue }
            if route.method == method { return .found(route, parameters) }
            allowed.append(route.method)
            pattern = route.pattern
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed, pattern: pattern)
    }

    /// The patterns served, each with its methods, in registration order.
    public var patterns: [(pattern: String, methods: [String])] {
        var result: [(pattern: String, methods: [String])] = []
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

    private static func bind(_ segments: [Segment], to parts: ArraySlice<Substring.UTF8View>) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        // Literals first, so a mismatch costs no dictionary.
        for (segment, part) in zip(segments, parts) {
            if case .literal(let literal) = segment, !literal.elementsEqual(part) { return nil }
        }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            if case .parameter(let name) = segment {
                guard !part.isEmpty else { return nil }
                parameters[name] = String(Substring(part))
            }
        }
        return parameters
    }
}
