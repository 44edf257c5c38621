public import JSON

/// A screen pushed on a page's navigation stack.
public struct Screen: Sendable {
    /// The screen's id (same rules as a page id; need not be unique).
    public var id: String
    /// An optional title.
    public var title: String?
    /// Opaque content for the client, if any; setting it measures it.
    public var content: JSONObject? {
        get { storedContent }
        set {
            storedContent = newValue
            contentMeasure = newValue.map(ContentMeasure.init)
        }
    }
    private var storedContent: JSONObject?
    /// The content's sizes, measured when it was set.
    public private(set) var contentMeasure: ContentMeasure?

    /// Creates a screen.
    public init(id: String, title: String? = nil, content: JSONObject? = nil) {
        self.id = id
        self.title = title
        self.storedContent = content
        self.contentMeasure = content.map(ContentMeasure.init)
    }
}

extension Screen: Equatable {
    /// Equal when id, title and content are the same, the content's members in the same order.
    public static func == (lhs: Screen, rhs: Screen) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title && lhs.contentMeasure == rhs.contentMeasure
            && sameContent(lhs.storedContent, rhs.storedContent)
    }

    private static func sameContent(_ a: JSONObject?, _ b: JSONObject?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.isIdentical(to: b)
        default: false
        }
    }
}

/// One page of a pager.
public struct Page: Sendable {
    /// Unique within its pager: 1–64 characters of `[A-Za-z0-9._-]`.
    public var id: String
    /// The tab's title, at most 200 characters.
    public var title: String
    /// The tab's width in a scrollable tab bar; estimated from the title when nil.
    public var tabWidth: Double?
    /// Opaque content for the client; `{}` when none was given. Setting it measures it.
    public var content: JSONObject {
        get { storedContent }
        set {
            storedContent = newValue
            contentMeasure = ContentMeasure(newValue)
        }
    }
    private var storedContent: JSONObject
    /// The content's sizes, measured when it was set.
    public private(set) var contentMeasure: ContentMeasure
    /// Screens pushed above the page's root, bottom first.
    public var stack: [Screen]

    /// Creates a page.
    public init(
        id: String, title: String, tabWidth: Double? = nil, content: JSONObject = JSONObject(), stack: [Screen] = []
    ) {
        self.id = id
        self.title = title
        self.tabWidth = tabWidth
        self.storedContent = content
        self.contentMeasure = ContentMeasure(content)
        self.stack = stack
    }

    /// Replaces the content with one measured already, so nothing walks it again.
    mutating func setContent(_ content: JSONObject, measured measure: ContentMeasure) {
        storedContent = content
        contentMeasure = measure
    }
}

extension Page: Equatable {
    /// Equal when every field is the same, the content's members in the same order (as it would
    /// be written). Contents that differ are almost always told apart by their measures alone.
    public static func == (lhs: Page, rhs: Page) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title && lhs.tabWidth == rhs.tabWidth
            && lhs.contentMeasure == rhs.contentMeasure && lhs.stack == rhs.stack
            && lhs.storedContent.isIdentical(to: rhs.storedContent)
    }
}

/// An action a client can offer, such as "add a page".
public struct PagerAction: Sendable, Equatable {
    /// A stable id the client acts on.
    public var id: String
    /// The label to show.
    public var title: String

    /// Creates an action.
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// What to show when a pager has no pages.
public struct EmptyState: Sendable, Equatable {
    /// The message.
    public var title: String
    /// The action offered, if any.
    public var action: PagerAction?

    /// Creates an empty state.
    public init(title: String, action: PagerAction? = nil) {
        self.title = title
        self.action = action
    }
}

/// Limits a pager is held to; the defaults are the spec's.
public struct PagerLimits: Sendable, Equatable {
    /// Pages in one pager.
    public var maxPages: Int
    /// Screens pushed on one page's stack.
    public var maxStackDepth: Int
    /// Bytes of compact JSON in one page's or screen's content.
    public var maxContentBytes: Int
    /// The most bytes of session data one pager may hold, as ``Pager/storedBytes`` counts them.
    public var sessionBudgetBytes: Int

    /// The default ``sessionBudgetBytes``: 1 MiB.
    public static let defaultSessionBudgetBytes = 1 << 20

    /// Creates limits.
    public init(
        maxPages: Int = 1000, maxStackDepth: Int = 32, maxContentBytes: Int = 16 * 1024,
        sessionBudgetBytes: Int = PagerLimits.defaultSessionBudgetBytes
    ) {
        self.maxPages = maxPages
        self.maxStackDepth = maxStackDepth
        self.maxContentBytes = maxContentBytes
        self.sessionBudgetBytes = sessionBudgetBytes
    }
}

extension Page {
    /// The most characters a title may have.
    public static let maxTitleLength = 200

    /// Whether `id` is 1–64 characters of `[A-Za-z0-9._-]`.
    public static func isValidID(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard (1...64).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default: false
            }
        }
    }

    /// Checks every rule a page must meet by itself; `field` prefixes the names in errors.
    public func validate(field: String, limits: PagerLimits) throws(PagerError) {
        try Self.validateID(id, field: "\(field).id")
        try Self.validateTitle(title, field: "\(field).title")
        if let tabWidth { try Self.validatePositive(tabWidth, field: "\(field).tabWidth") }
        try Self.validateContent(contentMeasure, field: "\(field).content", limits: limits)
        guard stack.count <= limits.maxStackDepth else {
            throw .limitExceeded(field: "\(field).stack", "A stack holds at most \(limits.maxStackDepth) screens.")
        }
        for (position, screen) in stack.enumerated() {
            try screen.validate(field: "\(field).stack[\(position)]", limits: limits)
        }
    }

    static func validateID(_ id: String, field: String) throws(PagerError) {
        guard isValidID(id) else {
            throw .invalid(field: field, "An id is 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-'.")
        }
    }

    static func validateTitle(_ title: String, field: String) throws(PagerError) {
        guard title.count <= maxTitleLength else {
            throw .invalid(field: field, "A title has at most \(maxTitleLength) characters.")
        }
    }

    /// The largest length in points any width, spacing or inset may have, so that every derived
    /// position (a thousand tabs, offsets one period away) stays finite.
    public static let maxLength = 1e9

    static func validatePositive(_ value: Double, field: String) throws(PagerError) {
        guard value.isFinite, value > 0, value <= maxLength else {
            throw .invalid(field: field, "Must be a number greater than 0 and at most \(Int(maxLength)).")
        }
    }

    static func validateNonNegative(_ value: Double, field: String) throws(PagerError) {
        guard value.isFinite, value >= 0, value <= maxLength else {
            throw .invalid(field: field, "Must be a number from 0 to \(Int(maxLength)).")
        }
    }

    static func validateContent(_ measure: ContentMeasure, field: String, limits: PagerLimits) throws(PagerError) {
        let size = measure.jsonBytes
        guard measure == .empty || size <= limits.maxContentBytes else {
            throw .limitExceeded(
                field: field, "Content is \(size) bytes of JSON; at most \(limits.maxContentBytes) are allowed.")
        }
    }
}

extension Screen {
    /// Checks the screen's id, title and content.
    public func validate(field: String, limits: PagerLimits) throws(PagerError) {
        try Page.validateID(id, field: "\(field).id")
        if let title { try Page.validateTitle(title, field: "\(field).title") }
        if let contentMeasure { try Page.validateContent(contentMeasure, field: "\(field).content", limits: limits) }
    }
}

// MARK: - Stored bytes

extension Page {
    /// Bytes counted for a page besides its strings and content: the page's slot in the pager,
    /// its tab frame and its stack's buffer.
    static let overheadBytes = 256

    /// The session data this page holds, as budgets count it: a fixed overhead, its id and
    /// title, its content's estimated memory and its stack's screens. O(stack depth).
    public var storedBytes: Int {
        Self.overheadBytes + id.utf8.count + title.utf8.count + contentMeasure.memoryBytes
            + stack.reduce(0) { $0 + $1.storedBytes }
    }
}

extension Screen {
    /// Bytes counted for a screen besides its strings and content.
    static let overheadBytes = 96

    /// The session data this screen holds, as budgets count it.
    public var storedBytes: Int {
        Self.overheadBytes + id.utf8.count + (title?.utf8.count ?? 0) + (contentMeasure?.memoryBytes ?? 0)
    }
}
