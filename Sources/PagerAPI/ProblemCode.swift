/// The stable `code` of every problem document pagerd answers with, and the one list of them:
/// openapi.json's `ProblemCode` schema lists the same codes (`ContractTests` checks it).
public enum ProblemCode: String, Sendable, CaseIterable {
    /// 400: The body is not JSON pagerd accepts (it does not parse, repeats a member, or is too wide or deep).
    case invalidJSON = "invalid_json"
    /// 400: A member is missing, unknown or out of range (`field` names it), or the message's framing is ambiguous.
    case invalidRequest = "invalid_request"
    /// 401: No valid credential: the bearer token pagerd is configured with, or an access token
    /// it accepts, was missing or wrong (`WWW-Authenticate` says which).
    case unauthorized = "unauthorized"
    /// 403: The access token does not cover the request (its scope or its session), or a change
    /// came from a web page whose origin `corsOrigins` does not list.
    case forbidden = "forbidden"
    /// 404: No resource at the path.
    case notFound = "not_found"
    /// 404: No live session has the id.
    case sessionNotFound = "session_not_found"
    /// 404: No page (or catalog page) has the id.
    case pageNotFound = "page_not_found"
    /// 404: No template has the name.
    case templateNotFound = "template_not_found"
    /// 405: The path exists with other methods (listed in `Allow`).
    case methodNotAllowed = "method_not_allowed"
    /// 409: The pager has no pages to move through.
    case emptyPager = "empty_pager"
    /// 409: The page's stack is at its root: nothing to pop.
    case stackRoot = "stack_root"
    /// 409: A page with the id is already in the pager.
    case duplicatePageId = "duplicate_page_id"
    /// 409: A transition was begun a way the `swipe` setting locks.
    case swipeLocked = "swipe_locked"
    /// 409: pagerd cannot mint tokens: no access key has a secret or a private key.
    case signingUnavailable = "signing_unavailable"
    /// 411: A chunked body: pagerd needs a Content-Length.
    case lengthRequired = "length_required"
    /// 412: If-Match does not name the current version; nothing changed.
    case versionMismatch = "version_mismatch"
    /// 413: The body is larger than `maxBodyBytes`.
    case bodyTooLarge = "body_too_large"
    /// 415: A body whose Content-Type is not JSON (application/json or a +json type).
    case unsupportedMediaType = "unsupported_media_type"
    /// 422: An index is outside the pages.
    case indexOutOfRange = "index_out_of_range"
    /// 422: A transition was begun toward a page that is not a neighbour.
    case notANeighbor = "not_a_neighbor"
    /// 422: Pages, stack depth or content size would pass a configured limit.
    case limitExceeded = "limit_exceeded"
    /// 503: The server holds as many sessions or event streams as it may.
    case atCapacity = "at_capacity"
    /// 503: The service is starting or stopping.
    case notReady = "not_ready"
    /// 503: The server is stopping.
    case shuttingDown = "shutting_down"
    /// 503: All sessions together would hold more data than `memoryBudgetBytes`, or answers not
    /// yet read by their clients hold more than `answerBudgetBytes` (then nothing was done).
    case memoryBudgetExceeded = "memory_budget_exceeded"
    /// 503: The change could not be stored, so it was not made.
    case storageUnavailable = "storage_unavailable"
    /// 507: The session would hold more data than `sessionBudgetBytes`.
    case sessionBudgetExceeded = "session_budget_exceeded"
    /// 500: A defect of pagerd; never expected.
    case internalError = "internal_error"
}
