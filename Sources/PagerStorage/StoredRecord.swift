import JSON
import PagerModel
import PagerWire

/// The stored form of a pager, in two parts so that a move writes only the small one: the
/// document (pages, catalog, settings) and the position (index and transition); the version is
/// a column of its own. PostgreSQL rows keep the document whole; the SQLite file keeps it cut
/// into ``StoredParts`` (and kept it whole before its schema 2).
///
/// Both are compact JSON arrays whose members are read by position; the settings in them are the
/// settings document, written and read by the settings' one codec (PagerWire), so a new setting
/// needs nothing here: a record written before it reads as its default. Records of format 1 held
/// the settings by position too; they are still read (StoredRecord+FormatOne.swift), never
/// written. Nothing here is for clients.
enum StoredRecord {
    /// The record format written; a file with a newer one is refused. Format 1 held the settings
    /// by position.
    static let formatVersion = 2

    /// The oldest record format read.
    static let oldestFormat = 1

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
            pager.settings.encode(into: &w)
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

    // MARK: - Reading

    /// Rebuilds a pager from its stored parts, validating it as at creation.
    static func pager(document: [UInt8], position: [UInt8], version: Int) throws(RecordError) -> Pager {
        var doc = try Fields(parsing: document, what: "document")
        let format = try doc.int()
        guard (oldestFormat...formatVersion).contains(format) else {
            throw RecordError(
                "record format \(format) is not one this pagerd reads (\(oldestFormat) to \(formatVersion))")
        }
        let pages = try readPages(doc.array())
        let catalog = try readPages(doc.array())
        let settings = try readSettings(&doc, positional: format == 1)
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

    /// The settings member of a record: the settings document, or (`positional`) the array a
    /// record of format 1 held.
    static func readSettings(_ fields: inout Fields, positional: Bool) throws(RecordError) -> PagerSettings {
        if positional { return try readPositionalSettings(fields.array()) }
        let document = try fields.object()
        do { return try PagerSettings(json: document) } catch {
            throw RecordError("the stored settings are not readable: \(error)")
        }
    }
}
