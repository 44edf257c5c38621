public import JSON
public import PagerModel
import PagerWire

// Decoding of the pager's definition and pages from JSON request bodies and template files. Every
// field is checked and an error names its path; unknown members are refused. The settings are
// read by PagerWire's `PagerSettings(json:)`, the one reader of the settings document.

extension PagerDefinition {
    /// The members a definition may have, besides those the caller allows (such as `template`).
    public static let members = PagerSettings.members.union(["pages", "initialPage"])

    /// Decodes a definition; `pages` is required unless `requirePages` is false.
    public init(
        json object: JSONObject, catalog: [Page] = [], extraMembers: Set<String> = [], requirePages: Bool = true
    )
        throws(PagerError)
    {
        let reader = try JSONReader(.object(object))
        try reader.allowOnly(Self.members.union(extraMembers))
        guard let pageValues = try reader.array("pages") else {
            if requirePages { throw .invalid(field: "pages", "This member is required without a template.") }
            self.init(pages: [], initialPage: nil, settings: try PagerSettings(json: object), catalog: catalog)
            return
        }
        var pages: [Page] = []
        pages.reserveCapacity(pageValues.count)
        for (position, value) in pageValues.enumerated() {
            pages.append(try Page(json: value, field: "pages[\(position)]"))
        }
        var initialPage: Pager.InitialPage?
        if let value = reader.value("initialPage") {
            switch value {
            case .string(let id): initialPage = .id(id)
            case .number:
                guard let index = value.intValue else {
                    throw reader.mismatch("initialPage", "an index or a page id", value)
                }
                initialPage = .index(index)
            default: throw reader.mismatch("initialPage", "an index or a page id", value)
            }
        }
        self.init(pages: pages, initialPage: initialPage, settings: try PagerSettings(json: object), catalog: catalog)
    }

}

extension Page {
    /// Decodes `{id, title, tabWidth?, content?, stack?}`.
    public init(json value: JSONValue, field: String) throws(PagerError) {
        let reader = try JSONReader(value, path: field)
        try reader.allowOnly([
            "id", "title", "tabWidth", "content", "stack", "tab", "accessibilityLabel", "accessibilityHint",
        ])
        var stack: [Screen] = []
        for (position, screen) in (try reader.array("stack") ?? []).enumerated() {
            stack.append(try Screen(json: screen, field: "\(field).stack[\(position)]"))
        }
        var tab: TabDecoration?
        if let decoration = try reader.object("tab") {
            try decoration.allowOnly(["icon", "badge"])
            let made = TabDecoration(icon: try decoration.string("icon"), badge: try decoration.badge("badge"))
            tab = made.icon == nil && made.badge == nil ? nil : made
        }
        self.init(
            id: try reader.requiredString("id"), title: try reader.requiredString("title"),
            tabWidth: try reader.number("tabWidth"), content: try reader.rawObject("content") ?? JSONObject(),
            stack: stack, tab: tab, accessibilityLabel: try reader.string("accessibilityLabel"),
            accessibilityHint: try reader.string("accessibilityHint"))
    }
}

extension Screen {
    /// Decodes `{id, title?, content?}`.
    public init(json value: JSONValue, field: String) throws(PagerError) {
        let reader = try JSONReader(value, path: field)
        try reader.allowOnly(["id", "title", "content"])
        self.init(
            id: try reader.requiredString("id"), title: try reader.string("title"),
            content: try reader.rawObject("content"))
    }
}
