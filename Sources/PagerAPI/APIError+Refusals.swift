import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerSessions

extension APIError {
    /// The API error for a pager refusal.
    init(pagerError error: PagerError) {
        let (status, code): (HTTPResponse.Status, String) =
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
            case .swipeLocked: (409, "swipe_locked")
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
                status: 503, code: "at_capacity", detail: "\(whose) its limit of \(limit) event streams.",
                headers: [(.retryAfter, "5")])
        case .memoryBudgetExceeded(let limit):
            self.init(
                status: 503, code: "memory_budget_exceeded",
                detail:
                    "The server holds its budget of \(limit) bytes of session data; nothing was changed. Retry later.",
                headers: [(.retryAfter, "30")])
        case .versionMismatch(let current):
            self.init(
                status: 412, code: "version_mismatch",
                detail: "If-Match does not match the current version \(current); nothing was changed.",
                headers: [(.eTag, ETag.header(for: current))])
        case .pager(let pagerError):
            self.init(pagerError: pagerError)
        case .storageUnavailable:
            // The reason (a file name, an errno) is for the operator's log, not for clients.
            self.init(
                status: 503, code: "storage_unavailable",
                detail: "The change could not be stored, so it was not made. Retry later.",
                headers: [(.retryAfter, "1")])
        case .staleCopy:
            // Routes retry a stale copy themselves; this is what is left after every retry lost.
            self.init(
                status: 503, code: "storage_unavailable",
                detail: "Other changes to this session kept winning; nothing was changed. Retry later.",
                headers: [(.retryAfter, "1")])
        }
    }
}
