import JSON
import PagerModel
import Testing

@testable import PagerStorage

@Suite("StoredRecord: a pager written to disk reads back as the same value")
struct StoredRecordTests {
    /// A pager that uses every stored field: non-default settings, actions, an empty state, a
    /// catalog, stacks with and without content, explicit tab widths and a transition in flight.
    static func richPager() throws -> Pager {
        var settings = PagerSettings()
        settings.mode = .loop
        settings.viewportWidth = 412.5
        settings.tabBar.layout = .scrollable
        settings.tabBar.spacing = 4.25
        settings.tabBar.inset = 12
        settings.tabBar.minTabWidth = 40
        settings.tabBar.tabPadding = 10
        settings.tabBar.charWidth = 7.5
        settings.tabBar.indicatorStyle = .elastic
        settings.tabBar.indicatorHeight = 3
        settings.preload = 2
        settings.trailingAction = PagerAction(id: "add", title: "Add a page")
        settings.emptyState = EmptyState(title: "Nothing yet", action: PagerAction(id: "new", title: "New"))
        let content: JSONObject = [
            "emoji": "🛍️", "n": 1.5, "nested": ["list": [1, "two", nil, true]], "unicode": "상품 \u{1F600}",
        ]
        let pages = [
            Page(
                id: "a", title: "최근 본 상품", tabWidth: 120.5, content: content,
                stack: [Screen(id: "detail", title: "Detail", content: ["x": 1]), Screen(id: "bare")]),
            Page(id: "b", title: "B"),
            Page(id: "c", title: "C", content: ["k": "v"]),
        ]
        var pager = try Pager(
            pages: pages, initialPage: .index(1), settings: settings, catalog: [Page(id: "extra", title: "Extra")])
        pager = try pager.applying(.scroll(.progress(-0.375))).pager
        pager = try pager.applying(.next).pager
        pager = try pager.applying(.scroll(.progress(0.25))).pager
        return pager
    }

    @Test("every field, the version and the transition round-trip exactly")
    func roundTrip() throws {
        let pager = try Self.richPager()
        #expect(pager.version == 4)
        #expect(pager.transition == Transition(from: 2, to: 0, progress: 0.25, direction: .forward))
        let read = try StoredRecord.pager(
            document: StoredRecord.document(of: pager), position: StoredRecord.position(of: pager),
            version: pager.version)
        #expect(read == pager)
        #expect(read.storedBytes == pager.storedBytes)
        #expect(read.tabs == pager.tabs)
    }

    @Test("Presentation settings and an overscroll round-trip; a record written before them reads with the defaults")
    func presentationSettings() throws {
        var settings = PagerSettings()
        settings.layoutDirection = .rtl
        settings.orientation = .vertical
        settings.viewportHeight = 600
        settings.swipe = .forward
        settings.rubberBand.style = .resistance
        settings.rubberBand.ratio = 0.7
        settings.tabBar.indicatorOverscroll = .compress
        settings.tabBar.indicatorTracking = .halfway
        settings.tabBar.indicatorProgressive = true
        var title = TitleStyle()
        title.color = RGBA(red: 1, green: 2, blue: 3, alpha: 4)
        title.selectedScale = 1.25
        settings.tabBar.title = title
        let pages = [
            Page(id: "a", title: "A", tab: TabDecoration(icon: "tray", badge: .count(12))),
            Page(id: "b", title: "B", tab: TabDecoration(badge: .text("new"))),
        ]
        let pager = try Pager(pages: pages, settings: settings)
            .applying(.next).pager.applying(.scroll(.progress(0.4))).pager
        #expect(pager.overscroll == Overscroll(edge: .end, progress: 0.4))
        let read = try StoredRecord.pager(
            document: StoredRecord.document(of: pager), position: StoredRecord.position(of: pager),
            version: pager.version)
        #expect(read == pager && read.pageOffset == pager.pageOffset)
        let before = #"[1,[["a","A",null,{},[]]],[],["loop",390,["fixed",0,0,48,16,8,"linear",2],1,null,null]]"#
        let old = try StoredRecord.pager(document: Array(before.utf8), position: Array("[0,null]".utf8), version: 4)
        #expect(old.settings.layoutDirection == .ltr && old.settings.viewportHeight == 844)
        #expect(old.settings.rubberBand == RubberBand() && old.overscroll == nil && old.settings.mode == .loop)
    }

    @Test("the layout settings round-trip; a record written before them reads with the defaults")
    func layouts() throws {
        var settings = PagerSettings()
        settings.pagesPerView = 1.25
        settings.pageSpacing = 10
        settings.pagesCentered = true
        settings.tabBar.layout = .auto
        settings.tabBar.alignment = .trailing
        settings.tabBar.selectedScrollPosition = .leading
        settings.tabBar.maxTabWidth = 90
        settings.tabBar.selectedTabWidth = 120
        settings.tabBar.indicatorInset.leading = 1
        settings.tabBar.indicatorInset.trailing = 2
        settings.tabBar.indicatorInset.firstLeading = 3
        settings.tabBar.indicatorInset.lastTrailing = 4.5
        let pager = try Pager(pages: [Page(id: "a", title: "A"), Page(id: "b", title: "B")], settings: settings)
            .applying(.scroll(.progress(0.25))).pager
        let read = try StoredRecord.pager(
            document: StoredRecord.document(of: pager), position: StoredRecord.position(of: pager),
            version: pager.version)
        #expect(read == pager && read.settings == settings)
        #expect(read.tabs == pager.tabs && read.pageOffset == pager.pageOffset && read.visible == pager.visible)
        // Written with the auto-advance settings last, as before the layout settings existed.
        let before =
            #"[1,[["a","A",null,{},[],null,null,null]],[],["bounded",390,["scrollable",0,0,48,16,8,"linear",2],1,null,null,844,"ltr","horizontal","both","none",0.85,"none","continuous",false,null,"Tab {position} of {count}","Page {position} of {count}","This is the first page","This is the last page",false,5000,"forward","rewind","pause"]]"#
        let old = try StoredRecord.pager(document: Array(before.utf8), position: Array("[0,null]".utf8), version: 2)
        var defaults = PagerSettings()
        defaults.tabBar.layout = .scrollable
        #expect(old.settings == defaults)
        #expect(old.settings.tabBar.maxTabWidth == nil && old.settings.pagesPerView == 1)
    }

    @Test("the auto-advance setting and each timer state round-trip; a damaged timer is refused")
    func autoAdvance() throws {
        var settings = PagerSettings()
        settings.autoAdvance.enabled = true
        settings.autoAdvance.interval = 1234
        settings.autoAdvance.direction = .reverse
        settings.autoAdvance.atEnd = .stop
        settings.autoAdvance.onInteraction = .stop
        let t0: Int64 = 1_700_000_000_000
        let due = try Pager(pages: [Page(id: "a", title: "A"), Page(id: "b", title: "B")], settings: settings, now: t0)
        let paused = try due.applying(.autoAdvance(.pause), now: t0 + 34).pager
        var pausing = settings
        pausing.autoAdvance.onInteraction = .pause
        let swiping = try Pager(pages: due.pages, settings: pausing, now: t0).applying(.scroll(.progress(0.5))).pager
        #expect(due.timer == .due(at: t0 + 1234) && paused.timer == .paused(by: .control, remaining: 1200))
        #expect(swiping.timer == .paused(by: .interaction, remaining: 1234))
        for pager in [due, paused, swiping] {
            let read = try StoredRecord.pager(
                document: StoredRecord.document(of: pager), position: StoredRecord.position(of: pager),
                version: pager.version)
            #expect(read == pager && read.timer == pager.timer)
        }
        // A timer that does not fit: due while the setting is off.
        let off = Array(StoredRecord.document(of: try Pager(pages: due.pages)))
        #expect(throws: RecordError.self) {
            try StoredRecord.pager(document: off, position: Array("[0,null,null,[\"due\",5]]".utf8), version: 2)
        }
    }

    @Test("an empty pager round-trips with no index")
    func emptyPager() throws {
        let pager = try Pager(pages: [])
        let read = try StoredRecord.pager(
            document: StoredRecord.document(of: pager), position: StoredRecord.position(of: pager), version: 7)
        #expect(read.index == nil && read.isEmpty && read.version == 7)
    }

    @Test("the position alone is small: index, transition and the drag deadline, whatever the pages hold")
    func positionIsSmall() throws {
        let pager = try Self.richPager()
        // No overscroll or timer; settings version 1; the swipe given up 15 s after it was set.
        #expect(
            String(decoding: StoredRecord.position(of: pager), as: UTF8.self)
                == #"[2,[2,0,0.25,"forward"],null,null,1,15000]"#)
        let resting = try pager.applying(.endTransition(completed: false)).pager
        #expect(String(decoding: StoredRecord.position(of: resting), as: UTF8.self) == "[2,null]")
    }

    @Test(
        "damaged records are refused with a reason, never served",
        arguments: [
            (#"[1,[],[],"#, "[0,null]", "not readable"),
            (#"[3,[],[],{}]"#, "[null,null]", "format 3"),
            (#"[2,[],[],["bounded",390,["fixed",0,0,48,16,8,"linear",2],1,null,null]]"#, "[null,null]", "object"),
            (#"[2,[["a","A",null,{},[]]],[],{"mode":"sideways"}]"#, "[0,null]", "sideways"),
            (#"[2,[["a","A",null,{},[]]],[],{"tabBar":{"colour":1}}]"#, "[0,null]", "tabBar.colour"),
            (
                #"[1,[["a","A",null,{},[]]],[],["bounded",390,["fixed",0,0,48,16,8,"linear",2],1,null,null]]"#,
                "[5,null]", "not valid"
            ),
            (
                #"[1,[["a","A",null,{},[]]],[],["sideways",390,["fixed",0,0,48,16,8,"linear",2],1,null,null]]"#,
                "[0,null]", "sideways"
            ),
            (
                #"[1,[["a","A",null,{},[]]],[],["bounded",390,["fixed",0,0,48,16,8,"linear"],1,null,null]]"#,
                "[0,null]", "ends"
            ),
            (
                #"[1,[["a","A",null,{},[]],["b","B",null,{},[]]],[],["bounded",390,["fixed",0,0,48,16,8,"linear",2],1,null,null]]"#,
                #"[0,[0,1,1.5,"forward"]]"#, "transition"
            ),
        ])
    func damaged(document: String, position: String, reason: String) {
        do {
            _ = try StoredRecord.pager(document: Array(document.utf8), position: Array(position.utf8), version: 3)
            Issue.record("a damaged record was read")
        } catch {
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    @Test("content nested to the request parser's limit in a pushed screen still reads back")
    func deepContent() throws {
        var value: JSONValue = 1
        for _ in 0..<(JSONParser.maxDepth - 3) { value = .object(["d": value]) }
        guard case .object(let deep) = value else { return }
        let pager = try Pager(pages: [Page(id: "a", title: "A", stack: [Screen(id: "s", content: deep)])])
        let read = try StoredRecord.pager(
            document: StoredRecord.document(of: pager), position: StoredRecord.position(of: pager), version: 1)
        #expect(read == pager)
    }
}
