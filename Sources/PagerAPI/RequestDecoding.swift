import JSON
import MicroHTTP
import PagerModel
import PagerSessions

extension HTTPRequest {
    /// The JSON object body, or nil when there is no body. A body must be labelled
    /// `application/json` (or a `+json` type), parse, and be an object.
    func jsonObject() throws(APIError) -> JSONObject? {
        guard !body.isEmpty else { return nil }
        let contentType = headers["Content-Type"] ?? ""
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
        guard let header = headers["If-Match"] else { return nil }
        return ETag.precondition(from: header)
    }
}

/// Entity tags: pagerd's are the version in quotes, `"7"`.
enum ETag {
    static func header(for version: Int) -> String { "\"\(version)\"" }

    /// Parses `If-Match`/`If-None-Match`: `*`, or a list of tags; weak tags compare by their value
    /// and tags that are not ours match nothing.
    static func precondition(from header: String) -> VersionPrecondition {
        let trimmed = header.trimmingSpaces()
        if trimmed == "*" { return .any }
        var versions: [Int] = []
        for part in trimmed.split(separator: ",") {
            var tag = String(part).trimmingSpaces()
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            guard tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\""),
                let version = Int(tag.dropFirst().dropLast())
            else { continue }
            versions.append(version)
        }
        return .oneOf(versions)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}

extension JSONReader {
    /// Runs `body`, turning pager errors into API errors.
    func read<T>(_ body: (JSONReader) throws(PagerError) -> T) throws(APIError) -> T {
        do { return try body(self) } catch { throw APIError(pagerError: error) }
    }
}

extension APIError {
    /// The API error for a pager refusal.
    init(pagerError error: PagerError) {
        let (status, code): (Int, String) =
            switch error.kind {
            case .invalid: (400, "invalid_request")
            case .emptyPager: (409, "empty_pager")
            case .notANeighbor: (422, "not_a_neighbor")
            case .indexOutOfRange: (422, "index_out_of_range")
            case .pageNotFound: (404, "page_not_found")
            case .duplicatePageId: (409, "duplicate_page_id")
            case .stackRoot: (409, "stack_root")
            case .limitExceeded: (422, "limit_exceeded")
            case .budgetExceeded: (507, "session_budget_exceeded")
            }
        self.init(status: status, code: code, detail: error.detail, field: error.field)
    }

    /// The API error for an engine refusal.
    init(engineError error: EngineError) {
        switch error {
        case .sessionNotFound:
            self.init(status: 404, code: "session_not_found", detail: "No live session has this id.")
        case .templateNotFound(let name):
            self.init(
                status: 404, code: "template_not_found", detail: "No template is called '\(name)'.", field: "template")
        case .atCapacity(let limit):
            self.init(
                status: 503, code: "at_capacity",
                detail: "The server holds its limit of \(limit) sessions; retry later.",
                headers: [("Retry-After", "30")])
        case .tooManySubscribers(let limit, let scope):
            let whose =
                switch scope {
                case .server: "The server serves"
                case .session: "This session has"
                case .address: "Your address has"
                }
            self.init(
                status: 503, code: "at_capacity", detail: "\(whose) its limit of \(limit) event streams.",
                headers: [("Retry-After", "5")])
        case .memoryBudgetExceeded(let limit):
            self.init(
                status: 503, code: "memory_budget_exceeded",
                detail:
                    "The server holds its budget of \(limit) bytes of session data; nothing was changed. Retry later.",
                headers: [("Retry-After", "30")])
        case .versionMismatch(let current):
            self.init(
                status: 412, code: "version_mismatch",
                detail: "If-Match does not match the current version \(current); nothing was changed.",
                headers: [("ETag", ETag.header(for: current))])
        case .pager(let pagerError):
            self.init(pagerError: pagerError)
        }
    }
}
