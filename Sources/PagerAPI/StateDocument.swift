import JSON
public import PagerModel
public import PagerSessions
import PagerWire

/// Writes the state document (docs/api.md, «Sessions and the state document») straight into bytes, member by
/// member, in the order of docs/api.md's example («Sessions and the state document»).
public enum StateDocument {
    /// The state of `snapshot`, plus what a command reported when `outcome` is given, or what a
    /// tick did when `move` is. An event's document also carries its `cause` (the first `state`
    /// event has none).
    public static func encode(
        _ snapshot: SessionSnapshot, outcome: PagerOutcome? = nil, move: MoveReport? = nil, settle: Settle? = nil,
        cause: String? = nil
    ) -> [UInt8] {
        let pager = snapshot.pager
        return JSONWriter.bytes(capacity: 1536 + pager.count * 384) { w in
            write(snapshot, pager, outcome: outcome, move: move, settle: settle, cause: cause, tabForms: nil, &w)
        }
    }

    /// The state of `snapshot` as ``encode(_:outcome:move:settle:cause:)`` writes it, copying the tabs
    /// at rest (all but one or two) from `tabForms` when they were written from this state's
    /// pages and settings. What the session should keep for the next document comes back as
    /// `made`: for the first document from new pages or settings, only a mark of them; for the
    /// second, the forms, written first (every tab is written twice then, once).
    public static func encode(
        _ snapshot: SessionSnapshot, outcome: PagerOutcome? = nil, tabForms: TabForms?
    ) -> (bytes: [UInt8], made: TabForms?) {
        let pager = snapshot.pager
        guard pager.hasTabBar, pager.count > 1, pager.hasTabsAtRest else {
            return (encode(snapshot, outcome: outcome), nil)
        }
        let key = pager.tabLayoutKey
        var made: TabForms?
        var forms: TabForms?
        if let tabForms, tabForms.key == key {
            if tabForms.isWritten {
                forms = tabForms
            } else {
                made = Self.tabForms(of: pager, key: key)
                forms = made
            }
        } else {
            made = TabForms(key: key)
        }
        let bytes = JSONWriter.bytes(capacity: 1536 + pager.count * 384) { w in
            write(snapshot, pager, outcome: outcome, move: nil, settle: nil, cause: nil, tabForms: forms, &w)
        }
        return (bytes, made)
    }

    /// Every tab of `pager` at rest, written one after another.
    static func tabForms(of pager: Pager, key: TabLayoutKey) -> TabForms {
        var ends: [Int] = []
        ends.reserveCapacity(pager.count)
        let bytes = JSONWriter.bytes(capacity: pager.count * 384) { w in
            for position in pager.pages.indices {
                let (tab, described) = pager.tabAtRest(position)
                w.startFreshValue()
                write(tab, described, &w)
                ends.append(w.writtenCount)
            }
        }
        return TabForms(key: key, bytes: bytes, ends: ends)
    }

    private static func write(
        _ snapshot: SessionSnapshot, _ pager: Pager, outcome: PagerOutcome?, move: MoveReport?, settle: Settle?,
        cause: String?, tabForms: TabForms?, _ w: inout JSONWriter
    ) {
        w.beginObject()
        w.field("id"); w.string(snapshot.id.rawValue)
        w.field("version"); w.int(pager.version)
        w.field("settingsVersion"); w.int(pager.settingsVersion)
        w.field("mode"); w.string(pager.settings.mode.rawValue)
        w.field("layoutDirection"); w.string(pager.settings.layoutDirection.rawValue)
        w.field("orientation"); w.string(pager.settings.orientation.rawValue)
        w.field("swipe"); w.string(pager.settings.swipe.rawValue)
        w.field("pageCount"); w.int(pager.count)
        w.field("index"); optionalInt(pager.index, &w)
        w.field("empty"); w.bool(pager.isEmpty)
        w.field("page")
        if let page = pager.currentPage { write(page, &w) } else { w.null() }
        w.field("canGoPrevious"); w.bool(pager.canGoPrevious)
        w.field("canGoNext"); w.bool(pager.canGoNext)
        w.field("previous"); summary(pager.previousSummary, &w)
        w.field("next"); summary(pager.nextSummary, &w)
        w.field("preload")
        w.beginArray()
        pager.forEachPreloadIndex { position in
            let page = pager.pages[position]
            w.beginObject()
            w.field("index"); w.int(position)
            w.field("id"); w.string(page.id)
            w.field("title"); w.string(page.title)
            w.field("content"); w.value(.object(page.content))
            w.endObject()
        }
        w.endArray()
        w.field("trailingAction"); pager.reportedTrailingAction.encode(into: &w)
        w.field("emptyState"); pager.reportedEmptyState.encode(into: &w)
        w.field("viewport")
        w.beginObject()
        let pageLayout = pager.settings.reportsPageLayout
        pager.settings.encodeViewportMembers(pageLayout: pageLayout, into: &w)
        if pageLayout { w.field("pageSize"); w.number(pager.pageSize) }
        w.endObject()
        w.field("pageOffset"); w.number(pager.pageOffset)
        w.field("visible")
        w.beginArray()
        pager.forEachVisible { page in
            w.beginObject()
            w.field("index"); w.int(page.index)
            w.field("id"); w.string(page.id)
            w.field("fraction"); w.number(page.fraction)
            w.endObject()
        }
        w.endArray()
        w.field("tabs")
        w.beginArray()
        // Tab by tab, building no list of them; a tab at rest is copied from its form if there is one.
        pager.forEachTab { position, describe in
            if let tabForms, pager.isTabAtRest(position) {
                tabForms.bytes.withUnsafeBufferPointer {
                    w.writtenValue(.init(rebasing: $0[tabForms.form(at: position)]))
                }
            } else {
                let (tab, described) = describe()
                write(tab, described, &w)
            }
        }
        w.endArray()
        let described = pager.pagerAccessibility
        w.field("accessibility")
        w.beginObject()
        w.field("pager")
        w.beginObject()
        w.field("value"); if let value = described.value { w.string(value) } else { w.null() }
        w.field("traits"); strings(described.traits, &w)
        w.field("actions"); strings(described.actions, &w)
        w.field("platformActions"); strings(described.platformActions, &w)
        w.endObject()
        w.field("liveRegion"); w.string(described.liveRegion)
        w.endObject()
        w.field("autoAdvance"); autoAdvance(pager, &w)
        let (current, bar) = pager.indicatorAndTabBar
        w.field("indicator"); indicator(current, &w)
        w.field("tabBar")
        w.beginObject()
        w.field("layout"); w.string(bar.layout.rawValue)
        if let effective = bar.effectiveLayout { w.field("effectiveLayout"); w.string(effective.rawValue) }
        w.field("contentWidth"); w.number(bar.contentWidth)
        w.field("offset"); w.number(bar.offset)
        w.endObject()
        w.field("overscroll")
        if let overscroll = pager.overscroll {
            w.beginObject()
            w.field("edge"); w.string(overscroll.edge.rawValue)
            w.field("progress"); w.number(overscroll.progress)
            w.endObject()
        } else {
            w.null()
        }
        w.field("transition")
        if let transition = pager.transition {
            w.beginObject()
            w.field("from"); w.int(transition.from)
            w.field("to"); w.int(transition.to)
            w.field("progress"); w.number(transition.progress)
            w.field("direction"); w.string(transition.direction.rawValue)
            w.endObject()
        } else {
            w.null()
        }
        if let move = outcome?.move ?? move {
            if let moved = move.moved { w.field("moved"); w.bool(moved) }
            if let edge = move.edge { w.field("edge"); w.string(edge.rawValue) }
            if let direction = move.direction { w.field("direction"); w.string(direction.rawValue) }
            if let blocked = outcome?.blocked { w.field("blocked"); w.string(blocked.rawValue) }
            if let requested = outcome?.actionRequested { w.field("actionRequested"); requested.encode(into: &w) }
            if let announcement = outcome?.announcement { w.field("announcement"); w.string(announcement) }
            if let keyframes = move.keyframes {
                w.field("keyframes")
                w.beginArray()
                for frame in keyframes {
                    w.beginObject()
                    w.field("index"); w.int(frame.index)
                    w.field("pageOffset"); w.number(frame.pageOffset)
                    w.field("indicator"); indicator(frame.indicator, &w)
                    w.field("tabBarOffset"); w.number(frame.tabBarOffset)
                    w.field("jump"); w.bool(frame.jump)
                    w.endObject()
                }
                w.endArray()
            }
        }
        if let settle = outcome?.settle ?? settle {
            w.field("settle")
            w.beginObject()
            w.field("completed"); w.bool(settle.completed)
            w.field("progress"); w.number(settle.progress)
            w.field("velocity"); w.number(settle.velocity)
            w.endObject()
        }
        if let cause { w.field("cause"); w.string(cause) }
        w.endObject()
    }

    /// One tab of the `tabs` member, with its descriptor.
    private static func write(_ tab: Tab, _ described: TabAccessibility, _ w: inout JSONWriter) {
        w.beginObject()
        w.field("index"); w.int(tab.index)
        w.field("id"); w.string(tab.id)
        w.field("title"); w.string(tab.title)
        w.field("x"); w.number(tab.frame.x)
        w.field("width"); w.number(tab.frame.width)
        if let base = tab.baseWidth { w.field("baseWidth"); w.number(base) }
        w.field("selection"); w.number(tab.selection)
        w.field("selected"); w.bool(tab.selected)
        if let color = tab.color { w.field("color"); w.string(color.hex) }
        if let scale = tab.scale { w.field("scale"); w.number(scale) }
        w.field("icon"); if let icon = tab.decoration?.icon { w.string(icon) } else { w.null() }
        w.field("badge"); badge(tab.decoration?.badge, &w)
        w.field("accessibility"); accessibility(described, &w)
        w.endObject()
    }

    /// The `autoAdvance` member: the setting, and where its timer is (docs/api.md, «Auto-advance»).
    private static func autoAdvance(_ pager: Pager, _ w: inout JSONWriter) {
        let timer = pager.timer
        w.beginObject()
        pager.settings.autoAdvance.encodeMembers(into: &w)
        w.field("running"); w.bool(pager.autoAdvanceRuns)
        w.field("paused"); w.bool(timer.pausedBy != nil)
        w.field("pausedBy"); if let by = timer.pausedBy { w.string(by.rawValue) } else { w.null() }
        w.field("dueAt"); if let due = timer.dueAt { w.int(Int(due)) } else { w.null() }
        w.field("remaining"); if let remaining = timer.remaining { w.int(remaining) } else { w.null() }
        w.endObject()
    }

    /// `{"pages": [...]}`, each page as it would be sent to replace the list.
    static func pages(_ pager: Pager) -> [UInt8] {
        JSONWriter.bytes(capacity: 256 + pager.count * 128) { w in
            w.beginObject()
            w.field("pages")
            w.beginArray()
            for page in pager.pages { write(page, &w) }
            w.endArray()
            w.endObject()
        }
    }

    /// `{"previous": summary or null, "next": summary or null}`.
    static func neighbors(_ pager: Pager) -> [UInt8] {
        JSONWriter.bytes(capacity: 256) { w in
            w.beginObject()
            w.field("previous"); summary(pager.previousSummary, &w)
            w.field("next"); summary(pager.nextSummary, &w)
            w.endObject()
        }
    }

    static func write(_ page: Page, _ w: inout JSONWriter) {
        w.beginObject()
        w.field("id"); w.string(page.id)
        w.field("title"); w.string(page.title)
        if let width = page.tabWidth { w.field("tabWidth"); w.number(width) }
        if let tab = page.tab {
            w.field("tab")
            w.beginObject()
            if let icon = tab.icon { w.field("icon"); w.string(icon) }
            if tab.badge != nil { w.field("badge"); badge(tab.badge, &w) }
            w.endObject()
        }
        if let label = page.accessibilityLabel { w.field("accessibilityLabel"); w.string(label) }
        if let hint = page.accessibilityHint { w.field("accessibilityHint"); w.string(hint) }
        w.field("content"); w.value(.object(page.content))
        w.field("stack")
        w.beginArray()
        for screen in page.stack {
            w.beginObject()
            w.field("id"); w.string(screen.id)
            if let title = screen.title { w.field("title"); w.string(title) }
            if let content = screen.content { w.field("content"); w.value(.object(content)) }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    private static func accessibility(_ tab: TabAccessibility, _ w: inout JSONWriter) {
        w.beginObject()
        w.field("label"); w.string(tab.label)
        w.field("hint"); if let hint = tab.hint { w.string(hint) } else { w.null() }
        w.field("value"); w.string(tab.value)
        w.field("selected"); w.bool(tab.selected)
        w.field("traits"); strings(tab.traits, &w)
        w.field("actions"); strings(tab.actions, &w)
        w.endObject()
    }

    private static func strings(_ values: [String], _ w: inout JSONWriter) {
        w.beginArray()
        for value in values { w.string(value) }
        w.endArray()
    }

    private static func badge(_ badge: Badge?, _ w: inout JSONWriter) {
        switch badge {
        case .text(let text): w.string(text)
        case .count(let count): w.int(count)
        case nil: w.null()
        }
    }

    private static func optionalInt(_ value: Int?, _ w: inout JSONWriter) {
        if let value { w.int(value) } else { w.null() }
    }

    private static func summary(_ summary: PageSummary?, _ w: inout JSONWriter) {
        guard let summary else { return w.null() }
        w.beginObject()
        w.field("index"); w.int(summary.index)
        w.field("id"); w.string(summary.id)
        w.field("title"); w.string(summary.title)
        w.endObject()
    }

    private static func indicator(_ indicator: Indicator?, _ w: inout JSONWriter) {
        guard let indicator else { return w.null() }
        w.beginObject()
        w.field("x"); w.number(indicator.x)
        w.field("width"); w.number(indicator.width)
        w.field("height"); w.number(indicator.height)
        w.field("alpha"); w.number(indicator.alpha)
        w.field("segments")
        w.beginArray()
        for segment in indicator.segments {
            w.beginObject()
            w.field("x"); w.number(segment.x)
            w.field("width"); w.number(segment.width)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}
