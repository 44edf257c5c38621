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
