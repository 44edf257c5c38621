/// Why the pager refused a definition or a command. Nothing changes when one is thrown.
public struct PagerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of refusal; the API maps each to a status and a stable code.
    public enum Kind: String, Sendable {
        /// A value breaks a rule (bad id, width, missing member…).
        case invalid
        /// The pager has no pages, so there is nothing to move to.
        case emptyPager
        /// A transition was asked toward a page that is not a neighbour.
        case notANeighbor
        /// An index is outside the pages.
        case indexOutOfRange
        /// No page has the given id.
        case pageNotFound
        /// A page id is already used in this pager.
        case duplicatePageId
        /// The page's stack is already at its root.
        case stackRoot
        /// A configured limit would be exceeded.
        case limitExceeded
        /// The session would hold more data than its budget allows.
        case budgetExceeded
        /// A transition was begun toward a direction `swipe` locks.
        case swipeLocked
    }

    /// The kind.
    public var kind: Kind
    /// The request field at fault, such as `pages[2].id`.
    public var field: String?
    /// A sentence for people.
    public var detail: String

    public var description: String { field.map { "\($0): \(detail)" } ?? detail }

    /// Creates an error.
    public init(kind: Kind, field: String?, detail: String) {
        self.kind = kind
        self.field = field
        self.detail = detail
    }

    /// A value that breaks a rule, naming the field.
    public static func invalid(field: String?, _ detail: String) -> PagerError {
        PagerError(kind: .invalid, field: field, detail: detail)
    }

    static func limitExceeded(field: String?, _ detail: String) -> PagerError {
        PagerError(kind: .limitExceeded, field: field, detail: detail)
    }

    static func indexOutOfRange(field: String?, _ index: Int, _ range: String) -> PagerError {
        PagerError(kind: .indexOutOfRange, field: field, detail: "Index \(index) is outside \(range).")
    }

    static func pageNotFound(_ id: String, field: String? = nil) -> PagerError {
        PagerError(kind: .pageNotFound, field: field, detail: "No page has the id '\(id)'.")
    }

    static let empty = PagerError(kind: .emptyPager, field: nil, detail: "The pager has no pages.")
}
