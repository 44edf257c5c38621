import JSON
import PagerModel
import PagerSessions

/// Writes the state document of SPEC §3 straight into bytes, member by member, in the order of
/// the spec's example.
enum StateDocument {
    /// The state of `snapshot`, plus what a command reported when `outcome` is given.
    static func encode(_ snapshot: SessionSnapshot, outcome: PagerOutcome? = nil) -> [UInt8] {
        let pager = snapshot.pager
        var w = JSONWriter(capacity: 1024 + pager.count * 96)
        w.beginObject()
        w.key("id"); w.string(snapshot.id)
        w.key("version"); w.int(pager.version)
        w.key("mode"); w.string(pager.settings.mode.rawValue)
        w.key("pageCount"); w.int(pager.count)
        w.key("index"); optionalInt(pager.index, &w)
        w.key("empty"); w.bool(pager.isEmpty)
        w.key("page")
        if let page = pager.currentPage { write(page, &w) } else { w.null() }
        w.key("canGoPrevious"); w.bool(pager.canGoPrevious)
        w.key("canGoNext"); w.bool(pager.canGoNext)
        w.key("previous"); summary(pager.previousSummary, &w)
        w.key("next"); summary(pager.nextSummary, &w)
        w.key("preload")
        w.beginArray()
        for position in pager.preloadIndices {
            let page = pager.pages[position]
            w.beginObject()
            w.key("index"); w.int(position)
            w.key("id"); w.string(page.id)
            w.key("title"); w.string(page.title)
            w.key("content"); w.value(.object(page.content))
            w.endObject()
        }
        w.endArray()
        w.key("trailingAction"); action(pager.reportedTrailingAction, &w)
        w.key("emptyState")
        if let empty = pager.reportedEmptyState {
            w.beginObject()
            w.key("title"); w.string(empty.title)
            w.key("action"); action(empty.action, &w)
            w.endObject()
        } else {
            w.null()
        }
        w.key("viewport"); w.beginObject(); w.key("width"); w.number(pager.settings.viewportWidth); w.endObject()
        w.key("pageOffset"); w.number(pager.pageOffset)
        w.key("tabs")
        w.beginArray()
        for tab in pager.tabs {
            w.beginObject()
            w.key("index"); w.int(tab.index)
            w.key("id"); w.string(tab.id)
            w.key("title"); w.string(tab.title)
            w.key("x"); w.number(tab.frame.x)
            w.key("width"); w.number(tab.frame.width)
            w.endObject()
        }
        w.endArray()
        w.key("indicator"); indicator(pager.indicator, &w)
        let bar = pager.tabBar
        w.key("tabBar")
        w.beginObject()
        w.key("layout"); w.string(bar.layout.rawValue)
        w.key("contentWidth"); w.number(bar.contentWidth)
        w.key("offset"); w.number(bar.offset)
        w.endObject()
        w.key("transition")
        if let transition = pager.transition {
            w.beginObject()
            w.key("from"); w.int(transition.from)
            w.key("to"); w.int(transition.to)
            w.key("progress"); w.number(transition.progress)
            w.key("direction"); w.string(transition.direction.rawValue)
            w.endObject()
        } else {
            w.null()
        }
        if let outcome {
            if let moved = outcome.moved { w.key("moved"); w.bool(moved) }
            if let edge = outcome.edge { w.key("edge"); w.string(edge.rawValue) }
            if let direction = outcome.direction { w.key("direction"); w.string(direction.rawValue) }
            if let keyframes = outcome.keyframes {
                w.key("keyframes")
                w.beginArray()
                for frame in keyframes {
                    w.beginObject()
                    w.key("index"); w.int(frame.index)
                    w.key("pageOffset"); w.number(frame.pageOffset)
                    w.key("indicator"); indicator(frame.indicator, &w)
                    w.key("tabBarOffset"); w.number(frame.tabBarOffset)
                    w.endObject()
                }
                w.endArray()
            }
        }
        w.endObject()
        return w.bytes
    }

    /// `{"pages": [...]}`, each page as it would be sent to replace the list.
    static func pages(_ pager: Pager) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + pager.count * 128)
        w.beginObject()
        w.key("pages")
        w.beginArray()
        for page in pager.pages { write(page, &w) }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    /// `{"previous": summary or null, "next": summary or null}`.
    static func neighbors(_ pager: Pager) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("previous"); summary(pager.previousSummary, &w)
        w.key("next"); summary(pager.nextSummary, &w)
        w.endObject()
        return w.bytes
    }

    static func write(_ page: Page, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(page.id)
        w.key("title"); w.string(page.title)
        if let width = page.tabWidth { w.key("tabWidth"); w.number(width) }
        w.key("content"); w.value(.object(page.content))
        w.key("stack")
        w.beginArray()
        for screen in page.stack {
            w.beginObject()
            w.key("id"); w.string(screen.id)
            if let title = screen.title { w.key("title"); w.string(title) }
            if let content = screen.content { w.key("content"); w.value(.object(content)) }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    private static func optionalInt(_ value: Int?, _ w: inout JSONWriter) {
        if let value { w.int(value) } else { w.null() }
    }

    private static func summary(_ summary: PageSummary?, _ w: inout JSONWriter) {
        guard let summary else { return w.null() }
        w.beginObject()
        w.key("index"); w.int(summary.index)
        w.key("id"); w.string(summary.id)
        w.key("title"); w.string(summary.title)
        w.endObject()
    }

    private static func action(_ action: PagerAction?, _ w: inout JSONWriter) {
        guard let action else { return w.null() }
        w.beginObject()
        w.key("id"); w.string(action.id)
        w.key("title"); w.string(action.title)
        w.endObject()
    }

    private static func indicator(_ indicator: Indicator?, _ w: inout JSONWriter) {
        guard let indicator else { return w.null() }
        w.beginObject()
        w.key("x"); w.number(indicator.x)
        w.key("width"); w.number(indicator.width)
        w.key("height"); w.number(indicator.height)
        w.key("segments")
        w.beginArray()
        for segment in indicator.segments {
            w.beginObject()
            w.key("x"); w.number(segment.x)
            w.key("width"); w.number(segment.width)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}
