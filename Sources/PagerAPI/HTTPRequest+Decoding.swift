import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerSessions

extension Request {
    /// The JSON object body, or nil when there is no body. A body must be labelled
    /// `application/json` (or a `+json` type), parse, and be an object.
    func jsonObject() throws(APIError) -> JSONObject? {
        guard !body.isEmpty else { return nil }
        let contentType = headers[.contentType] ?? ""
        let mediaType = contentType.split(separator: ";").first.map { String($0).lowercased().trimmingSpaces() } ?? ""
        guard mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
        else {
            throw APIError(
                status: 415, code: "unsupported_media_type",
                detail: contentType.isEmpty
                    ? "A request body needs 'Content-Type: application/json'."
                    : "Content-Type '\(contentType)' is not accepted; send application/json.")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw APIError(status: 400, code: "invalid_json", detail: "The body is not valid JSON: \(error).")
        }
        guard let object = value.objectValue else {
            throw APIError.invalidRequest("The body must be a JSON object, not \(value.kindName).")
        }
        return object
    }

    /// The JSON object body; an empty body counts as `{}`.
    func jsonObjectOrEmpty() throws(APIError) -> JSONObject {
        try jsonObject() ?? JSONObject()
    }

    /// The body's reader, refusing members other than `allowed`.
    func reader(allowing allowed: Set<String>) throws(APIError) -> JSONReader {
        let object = try jsonObjectOrEmpty()
        do {
            let reader = try JSONReader(.object(object))
            try reader.allowOnly(allowed)
            return reader
        } catch {
            throw APIError(pagerError: error)
        }
    }

    /// The `If-Match` precondition, if the header was sent.
    var versionPrecondition: VersionPrecondition? {
        guard let header = headers[.ifMatch] else { return nil }
        return ETag.precondition(from: header)
    }
}

extension JSONReader {
    /// Runs `body`, turning pager errors into API errors.
    func read<T>(_ body: (JSONReader) throws(PagerError) -> T) throws(APIError) -> T {
        do { return try body(self) } catch { throw APIError(pagerError: error) }
    }
}
