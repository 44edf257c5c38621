public import JSON
public import PagerModel

// The one reader of the settings: a create body's or a template's settings members, a PATCH merged
// over the settings document, a stored record's settings and (ignoring members it does not know)
// a settings document a client received. Every field is checked and an error names its path;
// absent and null members take the defaults. PagerSettings+Encoding.swift writes what it reads.

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
        try self.init(reading: try JSONReader(.object(object)))
    }

    /// Reads a settings document pagerd sent (`GET /v1/sessions/{id}/settings`): as
    /// ``init(json:)``, except that members this reader does not know (a newer server's) are
    /// ignored.
    public init(document: JSONValue) throws(PagerError) {
        try self.init(reading: try JSONReader(document, ignoringUnknownMembers: true))
    }

    private init(reading reader: JSONReader) throws(PagerError) {
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

    /// Applies a PATCH body (RFC 7396 merge patch over ``document``, whose nulls read as unset);
    /// only settings members are allowed.
    public func patched(with patch: JSONObject) throws(PagerError) -> PagerSettings {
        let reader = try JSONReader(.object(patch))
        try reader.allowOnly(Self.members)
        return try PagerSettings(json: document.merging(patch: patch))
    }
}
