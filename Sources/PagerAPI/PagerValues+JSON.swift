public import JSON
public import PagerModel

// Decoding of the pager's values from JSON request bodies and template files. Every field is
// checked and an error names its path; unknown members are refused.

extension PagerDefinition {
    /// The members a definition may have, besides those the caller allows (such as `template`).
    public static let members: Set<String> = [
        "pages", "initialPage", "mode", "viewport", "tabBar", "preload", "trailingAction", "emptyState",
        "layoutDirection", "orientation", "swipe", "rubberBand", "accessibilityText", "autoAdvance", "release",
        "dragTimeout",
    ]

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

extension PagerAction {
    /// Decodes `{id, title}`.
    init(reader: JSONReader) throws(PagerError) {
        try reader.allowOnly(["id", "title"])
        self.init(id: try reader.requiredString("id"), title: try reader.requiredString("title"))
    }
}

extension PagerSettings {
    /// The settings members of a definition or a PATCH body; absent members take the defaults.
    public static let members: Set<String> = [
        "mode", "viewport", "tabBar", "preload", "trailingAction", "emptyState", "layoutDirection", "orientation",
        "swipe", "rubberBand", "accessibilityText", "autoAdvance", "release", "dragTimeout",
    ]

    /// Decodes the settings members of `object` (other members are the caller's to check).
    public init(json object: JSONObject) throws(PagerError) {
        let reader = try JSONReader(.object(object))
        self.init()
        if let mode = try reader.choice("mode", as: PagerMode.self) { self.mode = mode }
        if let viewport = try reader.object("viewport") {
            try viewport.allowOnly(["width", "height", "pagesPerView", "pageSpacing", "centered"])
            if let width = try viewport.number("width") { viewportWidth = width }
            if let height = try viewport.number("height") { viewportHeight = height }
            if let perView = try viewport.number("pagesPerView") { pagesPerView = perView }
            if let spacing = try viewport.number("pageSpacing") { pageSpacing = spacing }
            if let centered = try viewport.boolean("centered") { pagesCentered = centered }
        }
        if let direction = try reader.choice("layoutDirection", as: LayoutDirection.self) {
            layoutDirection = direction
        }
        if let orientation = try reader.choice("orientation", as: Orientation.self) { self.orientation = orientation }
        if let swipe = try reader.choice("swipe", as: SwipeLock.self) { self.swipe = swipe }
        if let texts = try reader.object("accessibilityText") {
            try texts.allowOnly(["tabValueFormat", "pageValueFormat", "firstPageMessage", "lastPageMessage"])
            if let text = try texts.string("tabValueFormat") { accessibilityText.tabValueFormat = text }
            if let text = try texts.string("pageValueFormat") { accessibilityText.pageValueFormat = text }
            if let text = try texts.string("firstPageMessage") { accessibilityText.firstPageMessage = text }
            if let text = try texts.string("lastPageMessage") { accessibilityText.lastPageMessage = text }
        }
        if let auto = try reader.object("autoAdvance") {
            try auto.allowOnly(["enabled", "interval", "direction", "atEnd", "onInteraction"])
            if let enabled = try auto.boolean("enabled") { autoAdvance.enabled = enabled }
            if let interval = try auto.integer("interval") { autoAdvance.interval = interval }
            if let direction = try auto.choice("direction", as: Direction.self) { autoAdvance.direction = direction }
            if let end = try auto.choice("atEnd", as: AutoAdvanceEnd.self) { autoAdvance.atEnd = end }
            if let reaction = try auto.choice("onInteraction", as: AutoAdvanceInteraction.self) {
                autoAdvance.onInteraction = reaction
            }
        }
        if let release = try reader.object("release") {
            try release.allowOnly(["flickVelocity"])
            if let velocity = try release.number("flickVelocity") { self.release.flickVelocity = velocity }
        }
        if let timeout = try reader.integer("dragTimeout") { dragTimeout = timeout }
        if let band = try reader.object("rubberBand") {
            try band.allowOnly(["style", "ratio"])
            if let style = try band.choice("style", as: RubberBandStyle.self) { rubberBand.style = style }
            if let ratio = try band.number("ratio") { rubberBand.ratio = ratio }
        }
        if let bar = try reader.object("tabBar") {
            try bar.allowOnly([
                "layout", "spacing", "inset", "minTabWidth", "tabPadding", "charWidth", "indicator", "title",
                "alignment", "selectedScrollPosition", "maxTabWidth", "selectedTabWidth",
            ])
            if let layout = try bar.choice("layout", as: TabLayout.self) { tabBar.layout = layout }
            if let value = try bar.number("spacing") { tabBar.spacing = value }
            if let value = try bar.number("inset") { tabBar.inset = value }
            if let value = try bar.number("minTabWidth") { tabBar.minTabWidth = value }
            if let value = try bar.number("tabPadding") { tabBar.tabPadding = value }
            if let value = try bar.number("charWidth") { tabBar.charWidth = value }
            if let alignment = try bar.choice("alignment", as: TabBarPosition.self) { tabBar.alignment = alignment }
            if let position = try bar.choice("selectedScrollPosition", as: TabBarPosition.self) {
                tabBar.selectedScrollPosition = position
            }
            tabBar.maxTabWidth = try bar.number("maxTabWidth")
            tabBar.selectedTabWidth = try bar.number("selectedTabWidth")
            if let indicator = try bar.object("indicator") {
                try indicator.allowOnly(["style", "height", "overscroll", "tracking", "progressive", "inset"])
                if let inset = try indicator.object("inset") {
                    try inset.allowOnly(["leading", "trailing", "firstLeading", "lastTrailing"])
                    if let value = try inset.number("leading") { tabBar.indicatorInset.leading = value }
                    if let value = try inset.number("trailing") { tabBar.indicatorInset.trailing = value }
                    if let value = try inset.number("firstLeading") { tabBar.indicatorInset.firstLeading = value }
                    if let value = try inset.number("lastTrailing") { tabBar.indicatorInset.lastTrailing = value }
                }
                if let progressive = try indicator.boolean("progressive") { tabBar.indicatorProgressive = progressive }
                if let style = try indicator.choice("style", as: IndicatorStyle.self) { tabBar.indicatorStyle = style }
                if let height = try indicator.number("height") { tabBar.indicatorHeight = height }
                if let overscroll = try indicator.choice("overscroll", as: IndicatorOverscroll.self) {
                    tabBar.indicatorOverscroll = overscroll
                }
                if let tracking = try indicator.choice("tracking", as: IndicatorTracking.self) {
                    tabBar.indicatorTracking = tracking
                }
            }
            if let title = try bar.object("title") {
                try title.allowOnly(["color", "selectedColor", "scale", "selectedScale"])
                var style = TitleStyle()
                if let color = try title.color("color") { style.color = color }
                if let color = try title.color("selectedColor") { style.selectedColor = color }
                if let scale = try title.number("scale") { style.scale = scale }
                if let scale = try title.number("selectedScale") { style.selectedScale = scale }
                tabBar.title = style
            }
        }
        if let preload = try reader.integer("preload") { self.preload = preload }
        if let action = try reader.object("trailingAction") { trailingAction = try PagerAction(reader: action) }
        if let empty = try reader.object("emptyState") {
            try empty.allowOnly(["title", "action"])
            emptyState = EmptyState(
                title: try empty.requiredString("title"),
                action: try empty.object("action").map(PagerAction.init(reader:)))
        }
    }

    /// The settings as JSON, in the shape they are decoded from; PATCH merges over this.
    public var json: JSONObject {
        var object: JSONObject = [
            "mode": .string(mode.rawValue),
            "viewport": [
                "width": .number(viewportWidth), "height": .number(viewportHeight),
                "pagesPerView": .number(pagesPerView), "pageSpacing": .number(pageSpacing),
                "centered": .bool(pagesCentered),
            ],
            "layoutDirection": .string(layoutDirection.rawValue),
            "orientation": .string(orientation.rawValue),
            "swipe": .string(swipe.rawValue),
            "rubberBand": ["style": .string(rubberBand.style.rawValue), "ratio": .number(rubberBand.ratio)],
            "autoAdvance": [
                "enabled": .bool(autoAdvance.enabled), "interval": .number(Double(autoAdvance.interval)),
                "direction": .string(autoAdvance.direction.rawValue), "atEnd": .string(autoAdvance.atEnd.rawValue),
                "onInteraction": .string(autoAdvance.onInteraction.rawValue),
            ],
            "accessibilityText": [
                "tabValueFormat": .string(accessibilityText.tabValueFormat),
                "pageValueFormat": .string(accessibilityText.pageValueFormat),
                "firstPageMessage": .string(accessibilityText.firstPageMessage),
                "lastPageMessage": .string(accessibilityText.lastPageMessage),
            ],
            "tabBar": [
                "layout": .string(tabBar.layout.rawValue), "spacing": .number(tabBar.spacing),
                "inset": .number(tabBar.inset), "minTabWidth": .number(tabBar.minTabWidth),
                "tabPadding": .number(tabBar.tabPadding), "charWidth": .number(tabBar.charWidth),
                "alignment": .string(tabBar.alignment.rawValue),
                "selectedScrollPosition": .string(tabBar.selectedScrollPosition.rawValue),
                "indicator": [
                    "style": .string(tabBar.indicatorStyle.rawValue), "height": .number(tabBar.indicatorHeight),
                    "overscroll": .string(tabBar.indicatorOverscroll.rawValue),
                    "tracking": .string(tabBar.indicatorTracking.rawValue),
                    "progressive": .bool(tabBar.indicatorProgressive),
                    "inset": [
                        "leading": .number(tabBar.indicatorInset.leading),
                        "trailing": .number(tabBar.indicatorInset.trailing),
                        "firstLeading": .number(tabBar.indicatorInset.firstLeading),
                        "lastTrailing": .number(tabBar.indicatorInset.lastTrailing),
                    ],
                ],
            ],
            "preload": .number(Double(preload)),
            "release": ["flickVelocity": .number(release.flickVelocity)],
            "dragTimeout": .number(Double(dragTimeout)),
        ]
        if case .object(var bar) = object["tabBar"] ?? .null {
            if let title = tabBar.title {
                bar["title"] = [
                    "color": .string(title.color.hex), "selectedColor": .string(title.selectedColor.hex),
                    "scale": .number(title.scale), "selectedScale": .number(title.selectedScale),
                ]
            }
            if let width = tabBar.maxTabWidth { bar["maxTabWidth"] = .number(width) }
            if let width = tabBar.selectedTabWidth { bar["selectedTabWidth"] = .number(width) }
            object["tabBar"] = .object(bar)
        }
        if let trailingAction { object["trailingAction"] = trailingAction.json }
        if let emptyState {
            var empty: JSONObject = ["title": .string(emptyState.title)]
            if let action = emptyState.action { empty["action"] = action.json }
            object["emptyState"] = .object(empty)
        }
        return object
    }

    /// The settings document of `GET /v1/sessions/{id}/settings`: ``json`` with every member
    /// present, the unset ones as null, so a client sees each setting's effective value. It
    /// round-trips: a create or a PATCH with it gives these settings (null reads as unset).
    public var document: JSONObject {
        var object = json
        if case .object(var bar) = object["tabBar"] ?? .null {
            for member in ["title", "maxTabWidth", "selectedTabWidth"] where bar[member] == nil { bar[member] = .null }
            object["tabBar"] = .object(bar)
        }
        if object["trailingAction"] == nil { object["trailingAction"] = .null }
        if object["emptyState"] == nil { object["emptyState"] = .null }
        if case .object(var empty) = object["emptyState"] ?? .null, empty["action"] == nil {
            empty["action"] = .null
            object["emptyState"] = .object(empty)
        }
        return object
    }

    /// Applies a PATCH body (RFC 7396 merge patch over `json`); only settings members are allowed.
    public func patched(with patch: JSONObject) throws(PagerError) -> PagerSettings {
        let reader = try JSONReader(.object(patch))
        try reader.allowOnly(Self.members)
        return try PagerSettings(json: json.merging(patch: patch))
    }
}

extension PagerAction {
    /// `{id, title}`.
    public var json: JSONValue { ["id": .string(id), "title": .string(title)] }
}
