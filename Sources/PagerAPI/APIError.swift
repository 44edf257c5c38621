public import HTTPTypes

/// An error the API answers with an RFC 9457 problem document.
public struct APIError: Error, Sendable, Equatable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The stable machine-readable code, for example `session_not_found`.
    public var code: ProblemCode
    /// A sentence for people about this occurrence.
    public var detail: String
    /// The request field at fault, for example `pages[3].id`.
    public var field: String?
    /// Extra response headers, such as `Allow` or `Retry-After`.
    public var headers: [(HTTPField.Name, String)] = []

    /// Creates an error.
    public init(
        status: HTTPResponse.Status, code: ProblemCode, detail: String, field: String? = nil,
        headers: [(HTTPField.Name, String)] = []
    ) {
        self.status = status
        self.code = code
        self.detail = detail
        self.field = field
        self.headers = headers
    }

    public static func == (lhs: APIError, rhs: APIError) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.detail == rhs.detail && lhs.field == rhs.field
    }

    /// The problem's `title`: with `type` left as `about:blank`, RFC 9457 asks for the status phrase.
    public var title: String {
        Self.reasonPhrases[status.code] ?? "Error"
    }

    static let reasonPhrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        409: "Conflict", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        415: "Unsupported Media Type", 422: "Unprocessable Content", 500: "Internal Server Error",
        503: "Service Unavailable", 507: "Insufficient Storage",
    ]
}

extension APIError {
    static func notFound(_ path: String) -> APIError {
        APIError(status: 404, code: .notFound, detail: "No resource at '\(path)'.")
    }

    static func invalidRequest(_ detail: String, field: String? = nil) -> APIError {
        APIError(status: 400, code: .invalidRequest, detail: detail, field: field)
    }
}
