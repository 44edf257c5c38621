import HTTPTypes
import MicroHTTP

/// A file of the demo web client, loaded into memory at start-up.
public struct WebFile: Sendable {
    /// The media type sent as Content-Type.
    public var contentType: String
    /// The bytes.
    public var bytes: [UInt8]

    /// Creates a file; the media type follows the name's extension.
    public init(name: String, bytes: [UInt8]) {
        self.bytes = bytes
        let suffix = name.split(separator: ".").last.map { String($0).lowercased() } ?? ""
        contentType =
            switch suffix {
            case "html": "text/html; charset=utf-8"
            case "js": "text/javascript; charset=utf-8"
            case "css": "text/css; charset=utf-8"
            case "svg": "image/svg+xml"
            case "png": "image/png"
            case "json": "application/json; charset=utf-8"
            default: "application/octet-stream"
            }
    }
}

/// `GET /` (the demo page) and `GET /demo/{file}` (its scripts and styles).
struct StaticRoutes {
    let files: [String: WebFile]

    func register(in router: inout Router) {
        let files = self.files
        router.add(.get, "/") { _ throws(APIError) in
            .now(try Self.response(for: "index.html", in: files, path: "/"))
        }
        router.add(.get, "/demo/{file}") { context throws(APIError) in
            let name = try context.parameter("file")
            guard name != "index.html" else { throw APIError.notFound(context.request.path) }
            return .now(try Self.response(for: name, in: files, path: context.request.path))
        }
    }

    private static func response(
        for name: String, in files: [String: WebFile], path: String
    ) throws(APIError) -> Response {
        guard let file = files[name] else { throw APIError.notFound(path) }
        return Response(
            status: 200,
            headers: [
                .contentType: file.contentType, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff",
                .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:",
            ],
            body: file.bytes)
    }
}
