import PagerModel

// The settings as records of format 1 (and heads of format 2) held them: an array read by
// position, its later members absent from older records. Only read: today's records hold the
// settings document. This reader never changes; a setting added since reads as its default.

extension StoredRecord {
    static func readPositionalSettings(_ fields: Fields) throws(RecordError) -> PagerSettings {
        var fields = fields
        var settings = PagerSettings()
        settings.mode = try fields.enumeration()
        settings.viewportWidth = try fields.number()
        var bar = try fields.array()
        settings.tabBar.layout = try bar.enumeration()
        settings.tabBar.spacing = try bar.number()
        settings.tabBar.inset = try bar.number()
        settings.tabBar.minTabWidth = try bar.number()
        settings.tabBar.tabPadding = try bar.number()
        settings.tabBar.charWidth = try bar.number()
        settings.tabBar.indicatorStyle = try bar.enumeration()
        settings.tabBar.indicatorHeight = try bar.number()
        settings.preload = try fields.int()
        settings.trailingAction = try fields.optionalArray(readAction)
        settings.emptyState = try fields.optionalArray { empty throws(RecordError) -> EmptyState in
            EmptyState(title: try empty.string(), action: try empty.optionalArray(readAction))
        }
        guard !fields.isAtEnd else { return settings }
        settings.viewportHeight = try fields.number()
        settings.layoutDirection = try fields.enumeration()
        settings.orientation = try fields.enumeration()
        settings.swipe = try fields.enumeration()
        guard !fields.isAtEnd else { return settings }
        settings.rubberBand.style = try fields.enumeration()
        settings.rubberBand.ratio = try fields.number()
        settings.tabBar.indicatorOverscroll = try fields.enumeration()
        settings.tabBar.indicatorTracking = try fields.enumeration()
        guard !fields.isAtEnd else { return settings }
        settings.tabBar.indicatorProgressive = try fields.bool()
        settings.tabBar.title = try fields.optionalArray { title throws(RecordError) -> TitleStyle in
            var style = TitleStyle()
            style.color = try title.color()
            style.selectedColor = try title.color()
            style.scale = try title.number()
            style.selectedScale = try title.number()
            return style
        }
        guard !fields.isAtEnd else { return settings }
        settings.accessibilityText.tabValueFormat = try fields.string()
        settings.accessibilityText.pageValueFormat = try fields.string()
        settings.accessibilityText.firstPageMessage = try fields.string()
        settings.accessibilityText.lastPageMessage = try fields.string()
        guard !fields.isAtEnd else { return settings }
        settings.autoAdvance.enabled = try fields.bool()
        settings.autoAdvance.interval = try fields.int()
        settings.autoAdvance.direction = try fields.enumeration()
        settings.autoAdvance.atEnd = try fields.enumeration()
        settings.autoAdvance.onInteraction = try fields.enumeration()
        guard !fields.isAtEnd else { return settings }
        settings.tabBar.alignment = try fields.enumeration()
        settings.tabBar.selectedScrollPosition = try fields.enumeration()
        var inset = try fields.array()
        settings.tabBar.indicatorInset.leading = try inset.number()
        settings.tabBar.indicatorInset.trailing = try inset.number()
        settings.tabBar.indicatorInset.firstLeading = try inset.number()
        settings.tabBar.indicatorInset.lastTrailing = try inset.number()
        settings.tabBar.maxTabWidth = try fields.optional { fields throws(RecordError) in try fields.number() }
        settings.tabBar.selectedTabWidth = try fields.optional { fields throws(RecordError) in try fields.number() }
        settings.pagesPerView = try fields.number()
        settings.pageSpacing = try fields.number()
        settings.pagesCentered = try fields.bool()
        guard !fields.isAtEnd else { return settings }
        settings.release.flickVelocity = try fields.number()
        settings.dragTimeout = try fields.int()
        return settings
    }

    private static func readAction(_ fields: inout Fields) throws(RecordError) -> PagerAction {
        PagerAction(id: try fields.string(), title: try fields.string())
    }
}
