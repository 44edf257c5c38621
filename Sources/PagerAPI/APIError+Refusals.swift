import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerSessions

extension APIError {
    /// The API error for a pager refusal.
    init(pagerError error: PagerError) {
        let (status, code): (HTTPResponse.Status, ProblemCode) =
            switch error.kind {
            case .invalid: (400, .invalidRequest)
            case .emptyPager: (409, .emptyPager)
            case .notANeighbor: (422, .notANeighbor)
            case .indexOutOfRange: (422, .indexOutOfRange)
            case .pageNotFound: (404, .pageNotFound)
            case .duplicatePageId: (409, .duplicatePageId)
            case .stackRoot: (409, .stackRoot)
            case .limitExceeded: (422, .limitExceeded)
            case .budgetExceeded: (507, .sessionBudgetExceeded)
            case .swipeLocked: (409, .swipeLocked)
            }
        self.init(status: status, code: code, detail: error.detail, field: error.field)
    }

    /// The 404 for a template name no template has: in a create's `template` member (`field`),
    /// or in a template's URL.
    static func templateNotFound(_ name: String, field: String? = nil) -> APIError {
        APIError(status: 404, code: .templateNotFound, detail: "No template is called '\(name)'.", field: field)
    }

    /// The API error for an engine refusal.
    init(engineError error: EngineError) {
        switch error {
        case .sessionNotFound:
            self.init(status: 404, code: .sessionNotFound, detail: "No live session has this id.")
        case .atCapacity(let limit):
            self.init(
                status: 503, code: .atCapacity,
                detail: "The server holds its limit of \(limit) sessions; retry later.",
                headers: [(.retryAfter, "30")])
        case .tooManySubscribers(let limit, let scope):
            let whose =
                switch scope {
                case .server: "The server serves"
                case .session: "This session has"
                case .address: "Your address has"
                case .addressInSession: "Your address has this session's share:"
                }
            self.init(
                status: 503, code: .atCapacity, detail: "\(whose) its limit of \(limit) event streams.",
                headers: [(.retryAfter, "5")])
        case .memoryBudgetExceeded(let limit):
            self.init(
                status: 503, code: .memoryBudgetExceeded,
                detail:
                    "The server holds its budget of \(limit) bytes of session data; nothing was changed. Retry later.",
                headers: [(.retryAfter, "30")])
        case .versionMismatch(let current):
            self.init(
                status: 412, code: .versionMismatch,
                detail: "If-Match does not match the current version \(current); nothing was changed.",
                headers: [(.eTag, ETag.header(for: current))])
        case .pager(let pagerError):
            self.init(pagerError: pagerError)
        case .storageUnavailable:
            // The reason (a file name, an errno) is for the operator's log, not for clients.
            self.init(
                status: 503, code: .storageUnavailable,
                detail: "The change could not be stored, so it was not made. Retry later.",
                headers: [(.retryAfter, "1")])
        case .staleCopy, .changeInFlight:
            // Routes retry a stale copy themselves; this is what is left after every retry lost.
            self.init(
                status: 503, code: .storageUnavailable,
                detail: "Other changes to this session kept winning; nothing was changed. Retry later.",
                headers: [(.retryAfter, "1")])
        }
    }
}
