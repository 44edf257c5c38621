import JSON
import PagerModel

/// The stored form of a pager, in two parts so that a move writes only the small one: the
/// document (pages, catalog, settings) and the position (index and transition); the version is
/// a column of its own. PostgreSQL rows keep the document whole; the SQLite file keeps it cut
/// into ``StoredParts`` (and kept it whole before its schema 2).
///
/// Both are compact JSON arrays whose members are read by position, not the API's documents:
/// the API may change its wire format, the disk keeps this one (``formatVersion``). Nothing here
/// is for clients.
enum StoredRecord {
    /// The record format written; a file with a newer one is refused.
    static let formatVersion = 1

    /// Nesting allowed when reading a record: content is limited to the parser's default depth
    /// when a request carries it, and a record wraps it in at most six more levels.
    static let maxDepth = JSONParser.maxDepth + 6

    // MARK: - Writing

    /// The pages, catalog and settings.
    static func document(of pager: Pager) -> [UInt8] {
        JSONWriter.bytes(capacity: 256 + pager.count * 128) { w in
            w.beginArray()
            w.int(formatVersion)
            pages(pager.pages, &w)
            pages(pager.catalog, &w)
            settings(pager.settings, &w)
            w.endArray()
        }
    }

    /// The index, the transition, the overscroll, the auto-advance timer, the settings version and
    /// the drag deadline; the members after the transition were added later and are left out from
    /// the end while they hold nothing (no overscroll, an idle timer, settings version 1, no
    /// deadline).
    static func position(of pager: Pager) -> [UInt8] {
        JSONWriter.bytes(capacity: 64) { w in writePosition(of: pager, &w) }
    }

    private static func writePosition(of pager: Pager, _ w: inout JSONWriter) {
        w.beginArray()
        if let index = pager.index { w.int(index) } else { w.null() }
        if let transition = pager.transition {
            w.beginArray()
            w.int(transition.from)
            w.int(transition.to)
            w.number(transition.progress)
            w.string(transition.direction.rawValue)
            w.endArray()
        } else {
            w.null()
        }
        let extras = pager.settingsVersion != 1 || pager.dragDeadline != nil
        if let overscroll = pager.overscroll {
            w.beginArray()
            w.string(overscroll.edge.rawValue)
            w.number(overscroll.progress)
            w.endArray()
        } else if pager.timer != .idle || extras {
            w.null()
        }
        switch pager.timer {
        case .idle: if extras { w.null() }
        case .due(let at):
            w.beginArray()
            w.string("due")
            w.int(Int(at))
            w.endArray()
        case .paused(let by, let remaining):
            w.beginArray()
            w.string(by.rawValue)
            w.int(remaining)
            w.endArray()
        }
        if extras {
            w.int(pager.settingsVersion)
            if let deadline = pager.dragDeadline { w.int(Int(deadline)) } else { w.null() }
        }
        w.endArray()
    }

    private static func pages(_ pages: [Page], _ w: inout JSONWriter) {
        w.beginArray()
        for item in pages { page(item, includingContent: true, &w) }
        w.endArray()
    }

    /// One page as an array: id, title, tab width, the content (unless left out, for a page
    /// whose content is stored apart), the stack, then the members added later.
    static func page(_ page: Page, includingContent: Bool, _ w: inout JSONWriter) {
        w.beginArray()
        w.string(page.id)
        w.string(page.title)
        if let width = page.tabWidth { w.number(width) } else { w.null() }
        if includingContent { w.value(.object(page.content)) }
        w.beginArray()
        for screen in page.stack {
            w.beginArray()
            w.string(screen.id)
            if let title = screen.title { w.string(title) } else { w.null() }
            if let content = screen.content { w.value(.object(content)) } else { w.null() }
            w.endArray()
        }
        w.endArray()
        // Added after the first records: tab, then the accessibility label and hint.
        if let tab = page.tab {
            w.beginArray()
            if let icon = tab.icon { w.string(icon) } else { w.null() }
            switch tab.badge {
            case .text(let text): w.string(text)
            case .count(let count): w.int(count)
            case nil: w.null()
            }
            w.endArray()
        } else {
            w.null()
        }
        if let label = page.accessibilityLabel { w.string(label) } else { w.null() }
        if let hint = page.accessibilityHint { w.string(hint) } else { w.null() }
        w.endArray()
    }

    static func settings(_ settings: PagerSettings, _ w: inout JSONWriter) {
        let bar = settings.tabBar
        w.beginArray()
        w.string(settings.mode.rawValue)
        w.number(settings.viewportWidth)
        w.beginArray()
        w.string(bar.layout.rawValue)
        for value in [bar.spacing, bar.inset, bar.minTabWidth, bar.tabPadding, bar.charWidth] { w.number(value) }
        w.string(bar.indicatorStyle.rawValue)
        w.number(bar.indicatorHeight)
        w.endArray()
        w.int(settings.preload)
        action(settings.trailingAction, &w)
        if let empty = settings.emptyState {
            w.beginArray()
            w.string(empty.title)
            action(empty.action, &w)
            w.endArray()
        } else {
            w.null()
        }
        // Added after the first records were written: a reader takes the defaults when a record
        // ends before them.
        w.number(settings.viewportHeight)
        w.string(settings.layoutDirection.rawValue)
        w.string(settings.orientation.rawValue)
        w.string(settings.swipe.rawValue)
        w.string(settings.rubberBand.style.rawValue)
        w.number(settings.rubberBand.ratio)
        w.string(bar.indicatorOverscroll.rawValue)
        w.string(bar.indicatorTracking.rawValue)
        w.bool(bar.indicatorProgressive)
        if let title = bar.title {
            w.beginArray()
            w.string(title.color.hex)
            w.string(title.selectedColor.hex)
            w.number(title.scale)
            w.number(title.selectedScale)
            w.endArray()
        } else {
            w.null()
        }
        let texts = settings.accessibilityText
        for text in [texts.tabValueFormat, texts.pageValueFormat, texts.firstPageMessage, texts.lastPageMessage] {
            w.string(text)
        }
        let auto = settings.autoAdvance
        w.bool(auto.enabled)
        w.int(auto.interval)
        w.string(auto.direction.rawValue)
        w.string(auto.atEnd.rawValue)
        w.string(auto.onInteraction.rawValue)
        // The layout settings: tab alignment, scroll position, indicator inset, bounded and
        // selected tab widths, pages per view.
        w.string(bar.alignment.rawValue)
        w.string(bar.selectedScrollPosition.rawValue)
        let inset = bar.indicatorInset
        w.beginArray()
        for value in [inset.leading, inset.trailing, inset.firstLeading, inset.lastTrailing] { w.number(value) }
        w.endArray()
        if let width = bar.maxTabWidth { w.number(width) } else { w.null() }
        if let width = bar.selectedTabWidth { w.number(width) } else { w.null() }
        w.number(settings.pagesPerView)
        w.number(settings.pageSpacing)
        w.bool(settings.pagesCentered)
        // Release by velocity and the drag timeout.
        w.number(settings.release.flickVelocity)
        w.int(settings.dragTimeout)
        w.endArray()
    }

    private static func action(_ action: PagerAction?, _ w: inout JSONWriter) {
        guard let action else { return w.null() }
        w.beginArray()
        w.string(action.id)
        w.string(action.title)
        w.endArray()
    }

    // MARK: - Reading

    /// Rebuilds a pager from its stored parts, validating it as at creation.
    static func pager(document: [UInt8], position: [UInt8], version: Int) throws(RecordError) -> Pager {
        var doc = try Fields(parsing: document, what: "document")
        let format = try doc.int()
        guard format == formatVersion else {
            throw RecordError("record format \(format) is not the one this pagerd reads (\(formatVersion))")
        }
        let pages = try readPages(doc.array())
        let catalog = try readPages(doc.array())
        let settings = try readSettings(doc.array())
        return try pager(pages: pages, catalog: catalog, settings: settings, position: position, version: version)
    }

    /// A pager from its read document and its stored position, validated as at creation.
    static func pager(
        pages: [Page], catalog: [Page], settings: PagerSettings, position: [UInt8], version: Int
    ) throws(RecordError) -> Pager {
        let place = try StoredPosition(parsing: position)
        return try valid { () throws(PagerError) in
            try Pager(
                restoring: pages, index: place.index, transition: place.transition, overscroll: place.overscroll,
                settings: settings, catalog: catalog, version: version, timer: place.timer,
                settingsVersion: place.settingsVersion, dragDeadline: place.dragDeadline)
        }
    }

    /// `held` with a stored position laid on it (the document is `held`'s), at `version`. The
    /// pages and settings stay `held`'s own, shared: so the session keeps what the wire layer
    /// derived from them (its tab forms) across a move made elsewhere.
    static func pager(laying position: [UInt8], on held: Pager, version: Int) throws(RecordError) -> Pager {
        let place = try StoredPosition(parsing: position)
        return try valid { () throws(PagerError) in
            try held.restoring(
                index: place.index, transition: place.transition, overscroll: place.overscroll, version: version,
                timer: place.timer, settingsVersion: place.settingsVersion, dragDeadline: place.dragDeadline)
        }
    }

    /// The pager `make` rebuilds; the model's refusal becomes the record's error.
    private static func valid(_ make: () throws(PagerError) -> Pager) throws(RecordError) -> Pager {
        do { return try make() } catch { throw RecordError("the stored pager is not valid: \(error)") }
    }

    /// A stored position, read from its record.
    private struct StoredPosition {
        var index: Int?
        var transition: Transition?
        var overscroll: Overscroll?
        var timer: AutoAdvanceTimer
        var settingsVersion = 1
        var dragDeadline: Int64?

        init(parsing position: [UInt8]) throws(RecordError) {
            var place = try Fields(parsing: position, what: "position")
            index = try place.optional { fields throws(RecordError) in try fields.int() }
            transition = try place.optionalArray { fields throws(RecordError) -> Transition in
                let from = try fields.int(), to = try fields.int(), progress = try fields.number()
                return Transition(from: from, to: to, progress: progress, direction: try fields.enumeration())
            }
            overscroll = try place.trailing { fields throws(RecordError) -> Overscroll in
                var inner = try fields.array()
                return Overscroll(edge: try inner.enumeration(), progress: try inner.number())
            }
            timer =
                try place.trailing { fields throws(RecordError) -> AutoAdvanceTimer in
                    var inner = try fields.array()
                    let kind = try inner.string(), value = try inner.int()
                    if kind == "due" { return .due(at: Int64(value)) }
                    guard let by = AutoAdvancePause(rawValue: kind) else {
                        throw RecordError("'\(kind)' is not a known timer state")
                    }
                    return .paused(by: by, remaining: value)
                } ?? .idle
            if !place.isAtEnd {
                settingsVersion = try place.int()
                dragDeadline = try place.optional { fields throws(RecordError) in Int64(try fields.int()) }
            }
        }
    }

    private static func readPages(_ items: Fields) throws(RecordError) -> [Page] {
        var items = items
        var pages: [Page] = []
        while !items.isAtEnd {
            var page = try items.array()
            pages.append(try readPage(&page, content: nil))
        }
        return pages
    }

    /// A page written by ``page(_:includingContent:_:)``; `content` is the page's content when
    /// it was left out of the array, nil when the array holds it.
    static func readPage(_ page: inout Fields, content given: JSONObject?) throws(RecordError) -> Page {
        let id = try page.string(), title = try page.string()
        let tabWidth = try page.optional { fields throws(RecordError) in try fields.number() }
        let content: JSONObject
        if let given { content = given } else { content = try page.object() }
        var stack: [Screen] = []
        var screens = try page.array()
        while !screens.isAtEnd {
            var screen = try screens.array()
            let screenID = try screen.string()
            let screenTitle = try screen.optional { fields throws(RecordError) in try fields.string() }
            let screenContent = try screen.optional { fields throws(RecordError) in try fields.object() }
            stack.append(Screen(id: screenID, title: screenTitle, content: screenContent))
        }
        let tab = try page.trailing { fields throws(RecordError) -> TabDecoration in
            var inner = try fields.array()
            let icon = try inner.optional { fields throws(RecordError) in try fields.string() }
            let badge = try inner.optional { fields throws(RecordError) in try fields.badge() }
            return TabDecoration(icon: icon, badge: badge)
        }
        let label = try page.trailing { fields throws(RecordError) in try fields.string() }
        let hint = try page.trailing { fields throws(RecordError) in try fields.string() }
        return Page(
            id: id, title: title, tabWidth: tabWidth, content: content, stack: stack, tab: tab,
            accessibilityLabel: label, accessibilityHint: hint)
    }

    static func readSettings(_ fields: Fields) throws(RecordError) -> PagerSettings {
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
