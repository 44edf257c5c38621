public import JSON

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
    /// The tab's icon and badge, if any (docs/api.md, «Tab icons and badges»).
    public var tab: TabDecoration?
    /// What a screen reader calls the page; its title (or id) when empty or nil (docs/api.md, «Accessibility»).
    public var accessibilityLabel: String?
    /// What a screen reader adds about the page, if anything.
    public var accessibilityHint: String?

    /// Creates a page.
    public init(
        id: String, title: String, tabWidth: Double? = nil, content: JSONObject = JSONObject(), stack: [Screen] = [],
        tab: TabDecoration? = nil, accessibilityLabel: String? = nil, accessibilityHint: String? = nil
    ) {
        self.accessibilityLabel = accessibilityLabel
        self.accessibilityHint = accessibilityHint
        self.id = id
        self.title = title
        self.tabWidth = tabWidth
        self.storedContent = content
        self.contentMeasure = ContentMeasure(content)
        self.stack = stack
        self.tab = tab
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
        lhs.id == rhs.id && lhs.title == rhs.title && lhs.tabWidth == rhs.tabWidth && lhs.tab == rhs.tab
            && lhs.accessibilityLabel == rhs.accessibilityLabel && lhs.accessibilityHint == rhs.accessibilityHint
            && lhs.contentMeasure == rhs.contentMeasure && lhs.stack == rhs.stack
            && lhs.storedContent.isIdentical(to: rhs.storedContent)
    }
}
