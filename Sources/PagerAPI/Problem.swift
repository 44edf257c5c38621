import HTTPTypes
import JSON
public import MicroHTTP

extension APIError {
    /// The problem+json response for this error.
    public var response: Response {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.field("type")
        writer.string("about:blank")
        writer.field("title")
        writer.string(title)
        writer.field("status")
        writer.int(status.code)
        writer.field("detail")
        writer.string(detail)
        writer.field("code")
        writer.string(code.rawValue)
        if let field {
            writer.field("field")
            writer.string(field)
        }
        writer.endObject()
        var headers: HTTPFields = [.contentType: "application/problem+json; charset=utf-8"]
        for (name, value) in self.headers { headers.add(name, value) }
        return Response(status: status, headers: headers, body: writer.bytes)
    }
}

extension HTTPRefusal {
    /// The API error a refusal by the HTTP layer is answered with.
    var apiError: APIError {
        switch self {
        case .bodyTooLarge(let limit):
            APIError(status: 413, code: .bodyTooLarge, detail: "The request body is larger than \(limit) bytes.")
        case .lengthRequired:
            APIError(
                status: 411, code: .lengthRequired,
                detail: "A chunked request body is not accepted; send the body with a Content-Length.")
        case .ambiguousFraming(let reason):
            APIError(status: 400, code: .invalidRequest, detail: "Ambiguous message framing: \(reason).")
        case .malformed(let reason):
            APIError(status: 400, code: .invalidRequest, detail: "Malformed request: \(reason).")
        case .shuttingDown:
            APIError(
                status: 503, code: .shuttingDown, detail: "The server is stopping; retry shortly.",
                headers: [(.retryAfter, "1"), (.connection, "close")])
        case .answerBudgetExceeded(let limit):
            APIError(
                status: 503, code: .memoryBudgetExceeded,
                detail: "Answers not yet read by their clients hold more than \(limit) bytes; nothing was done.",
                headers: [(.retryAfter, "1")])
        case .addressAnswerShareExceeded(let limit):
            APIError(
                status: 503, code: .memoryBudgetExceeded,
                detail:
                    "Answers not yet read by clients at this address hold more than \(limit) bytes; read them first. Nothing was done.",
                headers: [(.retryAfter, "1")])
        }
    }
}
