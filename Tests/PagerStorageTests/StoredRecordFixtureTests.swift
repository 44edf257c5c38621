import JSON
import PagerModel
import Testing

@testable import PagerStorage

// The stored record's formats, held byte for byte, for the pagers `RecordFixtures` builds: today's
// (record format 2, head format 3, the settings as the settings document), which the writer must
// write byte for byte, and format 1 (head format 2, the settings by position), written by the
// writer of November 2026 before the settings had one codec. Today's reader must give the same
// pager back from both, so records already on disk keep reading identically.

@Suite struct StoredRecordFixtureTests {
    @Test(arguments: RecordFixtures.recorded.map(\.name))
    func writesTheRecordedBytes(_ name: String) throws {
        let pager = try #require(try RecordFixtures.cases().first { $0.0 == name }?.1)
        let recorded = try #require(RecordFixtures.recorded.first { $0.name == name })
        #expect(String(decoding: StoredRecord.document(of: pager), as: UTF8.self) == recorded.document)
        #expect(String(decoding: StoredRecord.position(of: pager), as: UTF8.self) == recorded.position)
        let parts = StoredParts.all(of: pager, wholeLimit: 0).map {
            Part(key: $0.key, body: String(decoding: $0.body ?? [], as: UTF8.self))
        }
        #expect(parts == recorded.parts)
    }

    @Test(arguments: RecordFixtures.recorded.map(\.name), [false, true])
    func readsTheRecordedBytesBack(_ name: String, formatOne: Bool) throws {
        let pager = try #require(try RecordFixtures.cases().first { $0.0 == name }?.1)
        let records = formatOne ? RecordFixtures.formatOne : RecordFixtures.recorded
        let recorded = try #require(records.first { $0.name == name })
        let whole = try StoredRecord.pager(
            document: Array(recorded.document.utf8), position: Array(recorded.position.utf8), version: pager.version)
        #expect(whole == pager)
        var parts: [String: [UInt8]] = [:]
        for part in recorded.parts { parts[part.key] = Array(part.body.utf8) }
        let cut = try StoredParts.pager(parts: parts, position: Array(recorded.position.utf8), version: pager.version)
        #expect(cut == pager)
    }
}

/// One stored part: its key and its bytes as text.
struct Part: Equatable {
    var key: String
    var body: String
}

/// The records of one pager as the writer wrote them.
struct RecordedPager {
    var name: String
    var document: String
    var position: String
    var parts: [Part]
}

/// The pagers whose records are held, and the records.
enum RecordFixtures {
    /// Every setting away from its default.
    static func settings() -> PagerSettings {
        var s = PagerSettings()
        s.mode = .bounded
        s.viewportWidth = 412.5
        s.viewportHeight = 700
        s.pagesPerView = 1.25
        s.pageSpacing = 10
        s.pagesCentered = true
        s.layoutDirection = .rtl
        s.orientation = .horizontal
        s.swipe = .forward
        s.rubberBand.style = .resistance
        s.rubberBand.ratio = 0.7
        s.accessibilityText.tabValueFormat = "Onglet {position} sur {count}"
        s.accessibilityText.pageValueFormat = "Page {position} sur {count}"
        s.accessibilityText.firstPageMessage = "Première page"
        s.accessibilityText.lastPageMessage = "Dernière page"
        s.tabBar.layout = .scrollable
        s.tabBar.spacing = 4.25
        s.tabBar.inset = 12
        s.tabBar.minTabWidth = 40
        s.tabBar.tabPadding = 10
        s.tabBar.charWidth = 7.5
        s.tabBar.indicatorStyle = .elastic
        s.tabBar.indicatorOverscroll = .compress
        s.tabBar.indicatorTracking = .halfway
        s.tabBar.indicatorProgressive = true
        var title = TitleStyle()
        title.color = RGBA(red: 1, green: 2, blue: 3, alpha: 4)
        title.selectedColor = RGBA(red: 200, green: 100, blue: 50, alpha: 255)
        title.scale = 0.9
        title.selectedScale = 1.25
        s.tabBar.title = title
        s.tabBar.indicatorHeight = 3
        s.tabBar.alignment = .trailing
        s.tabBar.selectedScrollPosition = .leading
        s.tabBar.indicatorInset.leading = 1
        s.tabBar.indicatorInset.trailing = 2
        s.tabBar.indicatorInset.firstLeading = 3
        s.tabBar.indicatorInset.lastTrailing = 4.5
        s.tabBar.maxTabWidth = 90
        s.tabBar.selectedTabWidth = 120
        s.preload = 2
        s.trailingAction = PagerAction(id: "add", title: "Add a page")
        s.emptyState = EmptyState(title: "Nothing yet", action: PagerAction(id: "new", title: "New"))
        s.autoAdvance.enabled = true
        s.autoAdvance.interval = 1234
        s.autoAdvance.direction = .reverse
        s.autoAdvance.atEnd = .stop
        s.autoAdvance.onInteraction = .stop
        s.release.flickVelocity = 0.75
        s.dragTimeout = 20_000
        return s
    }

    /// The pagers recorded, by name.
    static func cases() throws -> [(String, Pager)] {
        let rich = try pager()
        let swiping = try rich.applying(.scroll(.progress(0.4)), now: 1_700_000_000_500).pager
        let paused = try rich.applying(.autoAdvance(.pause), now: 1_700_000_000_700).pager
        var changed = settings()
        changed.tabBar.title = nil
        changed.trailingAction = nil
        changed.emptyState = EmptyState(title: "Empty", action: nil)
        let updated = try rich.applying(.updateSettings(changed), now: 1_700_000_001_000).pager
        let plain = try Pager(pages: [Page(id: "only", title: "Only")])
        let turning = try Pager(pages: (0..<3).map { Page(id: "p\($0)", title: "P\($0)") }, initialPage: .index(1))
            .applying(.scroll(.progress(-0.25))).pager
        return [
            ("rich", rich), ("swiping", swiping), ("paused", paused), ("updated", updated), ("plain", plain),
            ("turning", turning),
        ]
    }

    /// Two pages with every optional member, a catalog page, the settings above.
    static func pager() throws -> Pager {
        let pages = [
            Page(
                id: "a", title: "최근 본 상품", tabWidth: 120.5, content: ["n": 1.5],
                stack: [Screen(id: "detail", title: "Detail", content: ["x": 1]), Screen(id: "bare")],
                tab: TabDecoration(icon: "tray", badge: .count(12)), accessibilityLabel: "Recent",
                accessibilityHint: "Shows what you saw"),
            Page(id: "b", title: "B", tab: TabDecoration(badge: .text("new"))),
        ]
        return try Pager(
            pages: pages, initialPage: .index(1), settings: settings(), catalog: [Page(id: "extra", title: "Extra")],
            now: 1_700_000_000_000)
    }

    /// The records written for ``cases()`` today.
    static let recorded: [RecordedPager] = [
        RecordedPager(
            name: "rich",
            document:
                ##"[2,[["a","최근 본 상품",120.5,{"n":1.5},[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"],["b","B",null,{},[],[null,"new"],null,null]],[["extra","Extra",null,{},[],null,null,null]],{"mode":"bounded","viewport":{"width":412.5,"height":700,"pagesPerView":1.25,"pageSpacing":10,"centered":true},"layoutDirection":"rtl","orientation":"horizontal","swipe":"forward","rubberBand":{"style":"resistance","ratio":0.7},"autoAdvance":{"enabled":true,"interval":1234,"direction":"reverse","atEnd":"stop","onInteraction":"stop"},"accessibilityText":{"tabValueFormat":"Onglet {position} sur {count}","pageValueFormat":"Page {position} sur {count}","firstPageMessage":"Première page","lastPageMessage":"Dernière page"},"tabBar":{"layout":"scrollable","spacing":4.25,"inset":12,"minTabWidth":40,"tabPadding":10,"charWidth":7.5,"alignment":"trailing","selectedScrollPosition":"leading","indicator":{"style":"elastic","height":3,"overscroll":"compress","tracking":"halfway","progressive":true,"inset":{"leading":1,"trailing":2,"firstLeading":3,"lastTrailing":4.5}},"title":{"color":"#01020304","selectedColor":"#C86432FF","scale":0.9,"selectedScale":1.25},"maxTabWidth":90,"selectedTabWidth":120},"preload":2,"release":{"flickVelocity":0.75},"dragTimeout":20000,"trailingAction":{"id":"add","title":"Add a page"},"emptyState":{"title":"Nothing yet","action":{"id":"new","title":"New"}}}]"##,
            position: ##"[1,null,null,["due",1700000001234]]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[3,["a","b"],1,{"mode":"bounded","viewport":{"width":412.5,"height":700,"pagesPerView":1.25,"pageSpacing":10,"centered":true},"layoutDirection":"rtl","orientation":"horizontal","swipe":"forward","rubberBand":{"style":"resistance","ratio":0.7},"autoAdvance":{"enabled":true,"interval":1234,"direction":"reverse","atEnd":"stop","onInteraction":"stop"},"accessibilityText":{"tabValueFormat":"Onglet {position} sur {count}","pageValueFormat":"Page {position} sur {count}","firstPageMessage":"Première page","lastPageMessage":"Dernière page"},"tabBar":{"layout":"scrollable","spacing":4.25,"inset":12,"minTabWidth":40,"tabPadding":10,"charWidth":7.5,"alignment":"trailing","selectedScrollPosition":"leading","indicator":{"style":"elastic","height":3,"overscroll":"compress","tracking":"halfway","progressive":true,"inset":{"leading":1,"trailing":2,"firstLeading":3,"lastTrailing":4.5}},"title":{"color":"#01020304","selectedColor":"#C86432FF","scale":0.9,"selectedScale":1.25},"maxTabWidth":90,"selectedTabWidth":120},"preload":2,"release":{"flickVelocity":0.75},"dragTimeout":20000,"trailingAction":{"id":"add","title":"Add a page"},"emptyState":{"title":"Nothing yet","action":{"id":"new","title":"New"}}}]"##
                ),
                Part(
                    key: "m/a",
                    body:
                        ##"["a","최근 본 상품",120.5,[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"]"##
                ),
                Part(key: "c/a", body: ##"{"n":1.5}"##),
                Part(key: "m/b", body: ##"["b","B",null,[],[null,"new"],null,null]"##),
                Part(key: "c/b", body: ##"{}"##),
                Part(key: "k/0", body: ##"["extra","Extra",null,{},[],null,null,null]"##),
            ]),
        RecordedPager(
            name: "swiping",
            document:
                ##"[2,[["a","최근 본 상품",120.5,{"n":1.5},[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"],["b","B",null,{},[],[null,"new"],null,null]],[["extra","Extra",null,{},[],null,null,null]],{"mode":"bounded","viewport":{"width":412.5,"height":700,"pagesPerView":1.25,"pageSpacing":10,"centered":true},"layoutDirection":"rtl","orientation":"horizontal","swipe":"forward","rubberBand":{"style":"resistance","ratio":0.7},"autoAdvance":{"enabled":false,"interval":1234,"direction":"reverse","atEnd":"stop","onInteraction":"stop"},"accessibilityText":{"tabValueFormat":"Onglet {position} sur {count}","pageValueFormat":"Page {position} sur {count}","firstPageMessage":"Première page","lastPageMessage":"Dernière page"},"tabBar":{"layout":"scrollable","spacing":4.25,"inset":12,"minTabWidth":40,"tabPadding":10,"charWidth":7.5,"alignment":"trailing","selectedScrollPosition":"leading","indicator":{"style":"elastic","height":3,"overscroll":"compress","tracking":"halfway","progressive":true,"inset":{"leading":1,"trailing":2,"firstLeading":3,"lastTrailing":4.5}},"title":{"color":"#01020304","selectedColor":"#C86432FF","scale":0.9,"selectedScale":1.25},"maxTabWidth":90,"selectedTabWidth":120},"preload":2,"release":{"flickVelocity":0.75},"dragTimeout":20000,"trailingAction":{"id":"add","title":"Add a page"},"emptyState":{"title":"Nothing yet","action":{"id":"new","title":"New"}}}]"##,
            position: ##"[1,null,["end",0.4],null,1,1700000020500]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[3,["a","b"],1,{"mode":"bounded","viewport":{"width":412.5,"height":700,"pagesPerView":1.25,"pageSpacing":10,"centered":true},"layoutDirection":"rtl","orientation":"horizontal","swipe":"forward","rubberBand":{"style":"resistance","ratio":0.7},"autoAdvance":{"enabled":false,"interval":1234,"direction":"reverse","atEnd":"stop","onInteraction":"stop"},"accessibilityText":{"tabValueFormat":"Onglet {position} sur {count}","pageValueFormat":"Page {position} sur {count}","firstPageMessage":"Première page","lastPageMessage":"Dernière page"},"tabBar":{"layout":"scrollable","spacing":4.25,"inset":12,"minTabWidth":40,"tabPadding":10,"charWidth":7.5,"alignment":"trailing","selectedScrollPosition":"leading","indicator":{"style":"elastic","height":3,"overscroll":"compress","tracking":"halfway","progressive":true,"inset":{"leading":1,"trailing":2,"firstLeading":3,"lastTrailing":4.5}},"title":{"color":"#01020304","selectedColor":"#C86432FF","scale":0.9,"selectedScale":1.25},"maxTabWidth":90,"selectedTabWidth":120},"preload":2,"release":{"flickVelocity":0.75},"dragTimeout":20000,"trailingAction":{"id":"add","title":"Add a page"},"emptyState":{"title":"Nothing yet","action":{"id":"new","title":"New"}}}]"##
                ),
                Part(
                    key: "m/a",
                    body:
                        ##"["a","최근 본 상품",120.5,[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"]"##
                ),
                Part(key: "c/a", body: ##"{"n":1.5}"##),
                Part(key: "m/b", body: ##"["b","B",null,[],[null,"new"],null,null]"##),
                Part(key: "c/b", body: ##"{}"##),
                Part(key: "k/0", body: ##"["extra","Extra",null,{},[],null,null,null]"##),
            ]),
        RecordedPager(
            name: "paused",
            document:
                ##"[2,[["a","최근 본 상품",120.5,{"n":1.5},[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"],["b","B",null,{},[],[null,"new"],null,null]],[["extra","Extra",null,{},[],null,null,null]],{"mode":"bounded","viewport":{"width":412.5,"height":700,"pagesPerView":1.25,"pageSpacing":10,"centered":true},"layoutDirection":"rtl","orientation":"horizontal","swipe":"forward","rubberBand":{"style":"resistance","ratio":0.7},"autoAdvance":{"enabled":true,"interval":1234,"direction":"reverse","atEnd":"stop","onInteraction":"stop"},"accessibilityText":{"tabValueFormat":"Onglet {position} sur {count}","pageValueFormat":"Page {position} sur {count}","firstPageMessage":"Première page","lastPageMessage":"Dernière page"},"tabBar":{"layout":"scrollable","spacing":4.25,"inset":12,"minTabWidth":40,"tabPadding":10,"charWidth":7.5,"alignment":"trailing","selectedScrollPosition":"leading","indicator":{"style":"elastic","height":3,"overscroll":"compress","tracking":"halfway","progressive":true,"inset":{"leading":1,"trailing":2,"firstLeading":3,"lastTrailing":4.5}},"title":{"color":"#01020304","selectedColor":"#C86432FF","scale":0.9,"selectedScale":1.25},"maxTabWidth":90,"selectedTabWidth":120},"preload":2,"release":{"flickVelocity":0.75},"dragTimeout":20000,"trailingAction":{"id":"add","title":"Add a page"},"emptyState":{"title":"Nothing yet","action":{"id":"new","title":"New"}}}]"##,
            position: ##"[1,null,null,["control",534]]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[3,["a","b"],1,{"mode":"bounded","viewport":{"width":412.5,"height":700,"pagesPerView":1.25,"pageSpacing":10,"centered":true},"layoutDirection":"rtl","orientation":"horizontal","swipe":"forward","rubberBand":{"style":"resistance","ratio":0.7},"autoAdvance":{"enabled":true,"interval":1234,"direction":"reverse","atEnd":"stop","onInteraction":"stop"},"accessibilityText":{"tabValueFormat":"Onglet {position} sur {count}","pageValueFormat":"Page {position} sur {count}","firstPageMessage":"Première page","lastPageMessage":"Dernière page"},"tabBar":{"layout":"scrollable","spacing":4.25,"inset":12,"minTabWidth":40,"tabPadding":10,"charWidth":7.5,"alignment":"trailing","selectedScrollPosition":"leading","indicator":{"style":"elastic","height":3,"overscroll":"compress","tracking":"halfway","progressive":true,"inset":{"leading":1,"trailing":2,"firstLeading":3,"lastTrailing":4.5}},"title":{"color":"#01020304","selectedColor":"#C86432FF","scale":0.9,"selectedScale":1.25},"maxTabWidth":90,"selectedTabWidth":120},"preload":2,"release":{"flickVelocity":0.75},"dragTimeout":20000,"trailingAction":{"id":"add","title":"Add a page"},"emptyState":{"title":"Nothing yet","action":{"id":"new","title":"New"}}}]"##
                ),
                Part(
                    key: "m/a",
                    body:
                        ##"["a","최근 본 상품",120.5,[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"]"##
                ),
                Part(key: "c/a", body: ##"{"n":1.5}"##),
                Part(key: "m/b", body: ##"["b","B",null,[],[null,"new"],null,null]"##),
                Part(key: "c/b", body: ##"{}"##),
                Part(key: "k/0", body: ##"["extra","Extra",null,{},[],null,null,null]"##),
            ]),
        RecordedPager(
            name: "updated",
            document:
                ##"[2,[["a","최근 본 상품",120.5,{"n":1.5},[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"],["b","B",null,{},[],[null,"new"],null,null]],[["extra","Extra",null,{},[],null,null,null]],{"mode":"bounded","viewport":{"width":412.5,"height":700,"pagesPerView":1.25,"pageSpacing":10,"centered":true},"layoutDirection":"rtl","orientation":"horizontal","swipe":"forward","rubberBand":{"style":"resistance","ratio":0.7},"autoAdvance":{"enabled":true,"interval":1234,"direction":"reverse","atEnd":"stop","onInteraction":"stop"},"accessibilityText":{"tabValueFormat":"Onglet {position} sur {count}","pageValueFormat":"Page {position} sur {count}","firstPageMessage":"Première page","lastPageMessage":"Dernière page"},"tabBar":{"layout":"scrollable","spacing":4.25,"inset":12,"minTabWidth":40,"tabPadding":10,"charWidth":7.5,"alignment":"trailing","selectedScrollPosition":"leading","indicator":{"style":"elastic","height":3,"overscroll":"compress","tracking":"halfway","progressive":true,"inset":{"leading":1,"trailing":2,"firstLeading":3,"lastTrailing":4.5}},"title":null,"maxTabWidth":90,"selectedTabWidth":120},"preload":2,"release":{"flickVelocity":0.75},"dragTimeout":20000,"trailingAction":null,"emptyState":{"title":"Empty","action":null}}]"##,
            position: ##"[1,null,null,["due",1700000001234],2,null]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[3,["a","b"],1,{"mode":"bounded","viewport":{"width":412.5,"height":700,"pagesPerView":1.25,"pageSpacing":10,"centered":true},"layoutDirection":"rtl","orientation":"horizontal","swipe":"forward","rubberBand":{"style":"resistance","ratio":0.7},"autoAdvance":{"enabled":true,"interval":1234,"direction":"reverse","atEnd":"stop","onInteraction":"stop"},"accessibilityText":{"tabValueFormat":"Onglet {position} sur {count}","pageValueFormat":"Page {position} sur {count}","firstPageMessage":"Première page","lastPageMessage":"Dernière page"},"tabBar":{"layout":"scrollable","spacing":4.25,"inset":12,"minTabWidth":40,"tabPadding":10,"charWidth":7.5,"alignment":"trailing","selectedScrollPosition":"leading","indicator":{"style":"elastic","height":3,"overscroll":"compress","tracking":"halfway","progressive":true,"inset":{"leading":1,"trailing":2,"firstLeading":3,"lastTrailing":4.5}},"title":null,"maxTabWidth":90,"selectedTabWidth":120},"preload":2,"release":{"flickVelocity":0.75},"dragTimeout":20000,"trailingAction":null,"emptyState":{"title":"Empty","action":null}}]"##
                ),
                Part(
                    key: "m/a",
                    body:
                        ##"["a","최근 본 상품",120.5,[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"]"##
                ),
                Part(key: "c/a", body: ##"{"n":1.5}"##),
                Part(key: "m/b", body: ##"["b","B",null,[],[null,"new"],null,null]"##),
                Part(key: "c/b", body: ##"{}"##),
                Part(key: "k/0", body: ##"["extra","Extra",null,{},[],null,null,null]"##),
            ]),
        RecordedPager(
            name: "plain",
            document:
                ##"[2,[["only","Only",null,{},[],null,null,null]],[],{"mode":"bounded","viewport":{"width":390,"height":844,"pagesPerView":1,"pageSpacing":0,"centered":false},"layoutDirection":"ltr","orientation":"horizontal","swipe":"both","rubberBand":{"style":"none","ratio":0.85},"autoAdvance":{"enabled":false,"interval":5000,"direction":"forward","atEnd":"rewind","onInteraction":"pause"},"accessibilityText":{"tabValueFormat":"Tab {position} of {count}","pageValueFormat":"Page {position} of {count}","firstPageMessage":"This is the first page","lastPageMessage":"This is the last page"},"tabBar":{"layout":"fixed","spacing":0,"inset":0,"minTabWidth":48,"tabPadding":16,"charWidth":8,"alignment":"leading","selectedScrollPosition":"center","indicator":{"style":"linear","height":2,"overscroll":"none","tracking":"continuous","progressive":false,"inset":{"leading":0,"trailing":0,"firstLeading":0,"lastTrailing":0}},"title":null,"maxTabWidth":null,"selectedTabWidth":null},"preload":1,"release":{"flickVelocity":0.5},"dragTimeout":15000,"trailingAction":null,"emptyState":null}]"##,
            position: ##"[0,null]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[3,["only"],0,{"mode":"bounded","viewport":{"width":390,"height":844,"pagesPerView":1,"pageSpacing":0,"centered":false},"layoutDirection":"ltr","orientation":"horizontal","swipe":"both","rubberBand":{"style":"none","ratio":0.85},"autoAdvance":{"enabled":false,"interval":5000,"direction":"forward","atEnd":"rewind","onInteraction":"pause"},"accessibilityText":{"tabValueFormat":"Tab {position} of {count}","pageValueFormat":"Page {position} of {count}","firstPageMessage":"This is the first page","lastPageMessage":"This is the last page"},"tabBar":{"layout":"fixed","spacing":0,"inset":0,"minTabWidth":48,"tabPadding":16,"charWidth":8,"alignment":"leading","selectedScrollPosition":"center","indicator":{"style":"linear","height":2,"overscroll":"none","tracking":"continuous","progressive":false,"inset":{"leading":0,"trailing":0,"firstLeading":0,"lastTrailing":0}},"title":null,"maxTabWidth":null,"selectedTabWidth":null},"preload":1,"release":{"flickVelocity":0.5},"dragTimeout":15000,"trailingAction":null,"emptyState":null}]"##
                ),
                Part(key: "m/only", body: ##"["only","Only",null,[],null,null,null]"##),
                Part(key: "c/only", body: ##"{}"##),
            ]),
        RecordedPager(
            name: "turning",
            document:
                ##"[2,[["p0","P0",null,{},[],null,null,null],["p1","P1",null,{},[],null,null,null],["p2","P2",null,{},[],null,null,null]],[],{"mode":"bounded","viewport":{"width":390,"height":844,"pagesPerView":1,"pageSpacing":0,"centered":false},"layoutDirection":"ltr","orientation":"horizontal","swipe":"both","rubberBand":{"style":"none","ratio":0.85},"autoAdvance":{"enabled":false,"interval":5000,"direction":"forward","atEnd":"rewind","onInteraction":"pause"},"accessibilityText":{"tabValueFormat":"Tab {position} of {count}","pageValueFormat":"Page {position} of {count}","firstPageMessage":"This is the first page","lastPageMessage":"This is the last page"},"tabBar":{"layout":"fixed","spacing":0,"inset":0,"minTabWidth":48,"tabPadding":16,"charWidth":8,"alignment":"leading","selectedScrollPosition":"center","indicator":{"style":"linear","height":2,"overscroll":"none","tracking":"continuous","progressive":false,"inset":{"leading":0,"trailing":0,"firstLeading":0,"lastTrailing":0}},"title":null,"maxTabWidth":null,"selectedTabWidth":null},"preload":1,"release":{"flickVelocity":0.5},"dragTimeout":15000,"trailingAction":null,"emptyState":null}]"##,
            position: ##"[1,[1,0,0.25,"reverse"],null,null,1,15000]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[3,["p0","p1","p2"],0,{"mode":"bounded","viewport":{"width":390,"height":844,"pagesPerView":1,"pageSpacing":0,"centered":false},"layoutDirection":"ltr","orientation":"horizontal","swipe":"both","rubberBand":{"style":"none","ratio":0.85},"autoAdvance":{"enabled":false,"interval":5000,"direction":"forward","atEnd":"rewind","onInteraction":"pause"},"accessibilityText":{"tabValueFormat":"Tab {position} of {count}","pageValueFormat":"Page {position} of {count}","firstPageMessage":"This is the first page","lastPageMessage":"This is the last page"},"tabBar":{"layout":"fixed","spacing":0,"inset":0,"minTabWidth":48,"tabPadding":16,"charWidth":8,"alignment":"leading","selectedScrollPosition":"center","indicator":{"style":"linear","height":2,"overscroll":"none","tracking":"continuous","progressive":false,"inset":{"leading":0,"trailing":0,"firstLeading":0,"lastTrailing":0}},"title":null,"maxTabWidth":null,"selectedTabWidth":null},"preload":1,"release":{"flickVelocity":0.5},"dragTimeout":15000,"trailingAction":null,"emptyState":null}]"##
                ),
                Part(key: "m/p0", body: ##"["p0","P0",null,[],null,null,null]"##),
                Part(key: "c/p0", body: ##"{}"##),
                Part(key: "m/p1", body: ##"["p1","P1",null,[],null,null,null]"##),
                Part(key: "c/p1", body: ##"{}"##),
                Part(key: "m/p2", body: ##"["p2","P2",null,[],null,null,null]"##),
                Part(key: "c/p2", body: ##"{}"##),
            ]),
    ]

    /// The records written for ``cases()`` by the writer of November 2026, of record format 1 and
    /// head format 2.
    static let formatOne: [RecordedPager] = [
        RecordedPager(
            name: "rich",
            document:
                ##"[1,[["a","최근 본 상품",120.5,{"n":1.5},[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"],["b","B",null,{},[],[null,"new"],null,null]],[["extra","Extra",null,{},[],null,null,null]],["bounded",412.5,["scrollable",4.25,12,40,10,7.5,"elastic",3],2,["add","Add a page"],["Nothing yet",["new","New"]],700,"rtl","horizontal","forward","resistance",0.7,"compress","halfway",true,["#01020304","#C86432FF",0.9,1.25],"Onglet {position} sur {count}","Page {position} sur {count}","Première page","Dernière page",true,1234,"reverse","stop","stop","trailing","leading",[1,2,3,4.5],90,120,1.25,10,true,0.75,20000]]"##,
            position: ##"[1,null,null,["due",1700000001234]]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[2,["a","b"],1,["bounded",412.5,["scrollable",4.25,12,40,10,7.5,"elastic",3],2,["add","Add a page"],["Nothing yet",["new","New"]],700,"rtl","horizontal","forward","resistance",0.7,"compress","halfway",true,["#01020304","#C86432FF",0.9,1.25],"Onglet {position} sur {count}","Page {position} sur {count}","Première page","Dernière page",true,1234,"reverse","stop","stop","trailing","leading",[1,2,3,4.5],90,120,1.25,10,true,0.75,20000]]"##
                ),
                Part(
                    key: "m/a",
                    body:
                        ##"["a","최근 본 상품",120.5,[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"]"##
                ),
                Part(key: "c/a", body: ##"{"n":1.5}"##),
                Part(key: "m/b", body: ##"["b","B",null,[],[null,"new"],null,null]"##),
                Part(key: "c/b", body: ##"{}"##),
                Part(key: "k/0", body: ##"["extra","Extra",null,{},[],null,null,null]"##),
            ]),
        RecordedPager(
            name: "swiping",
            document:
                ##"[1,[["a","최근 본 상품",120.5,{"n":1.5},[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"],["b","B",null,{},[],[null,"new"],null,null]],[["extra","Extra",null,{},[],null,null,null]],["bounded",412.5,["scrollable",4.25,12,40,10,7.5,"elastic",3],2,["add","Add a page"],["Nothing yet",["new","New"]],700,"rtl","horizontal","forward","resistance",0.7,"compress","halfway",true,["#01020304","#C86432FF",0.9,1.25],"Onglet {position} sur {count}","Page {position} sur {count}","Première page","Dernière page",false,1234,"reverse","stop","stop","trailing","leading",[1,2,3,4.5],90,120,1.25,10,true,0.75,20000]]"##,
            position: ##"[1,null,["end",0.4],null,1,1700000020500]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[2,["a","b"],1,["bounded",412.5,["scrollable",4.25,12,40,10,7.5,"elastic",3],2,["add","Add a page"],["Nothing yet",["new","New"]],700,"rtl","horizontal","forward","resistance",0.7,"compress","halfway",true,["#01020304","#C86432FF",0.9,1.25],"Onglet {position} sur {count}","Page {position} sur {count}","Première page","Dernière page",false,1234,"reverse","stop","stop","trailing","leading",[1,2,3,4.5],90,120,1.25,10,true,0.75,20000]]"##
                ),
                Part(
                    key: "m/a",
                    body:
                        ##"["a","최근 본 상품",120.5,[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"]"##
                ),
                Part(key: "c/a", body: ##"{"n":1.5}"##),
                Part(key: "m/b", body: ##"["b","B",null,[],[null,"new"],null,null]"##),
                Part(key: "c/b", body: ##"{}"##),
                Part(key: "k/0", body: ##"["extra","Extra",null,{},[],null,null,null]"##),
            ]),
        RecordedPager(
            name: "paused",
            document:
                ##"[1,[["a","최근 본 상품",120.5,{"n":1.5},[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"],["b","B",null,{},[],[null,"new"],null,null]],[["extra","Extra",null,{},[],null,null,null]],["bounded",412.5,["scrollable",4.25,12,40,10,7.5,"elastic",3],2,["add","Add a page"],["Nothing yet",["new","New"]],700,"rtl","horizontal","forward","resistance",0.7,"compress","halfway",true,["#01020304","#C86432FF",0.9,1.25],"Onglet {position} sur {count}","Page {position} sur {count}","Première page","Dernière page",true,1234,"reverse","stop","stop","trailing","leading",[1,2,3,4.5],90,120,1.25,10,true,0.75,20000]]"##,
            position: ##"[1,null,null,["control",534]]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[2,["a","b"],1,["bounded",412.5,["scrollable",4.25,12,40,10,7.5,"elastic",3],2,["add","Add a page"],["Nothing yet",["new","New"]],700,"rtl","horizontal","forward","resistance",0.7,"compress","halfway",true,["#01020304","#C86432FF",0.9,1.25],"Onglet {position} sur {count}","Page {position} sur {count}","Première page","Dernière page",true,1234,"reverse","stop","stop","trailing","leading",[1,2,3,4.5],90,120,1.25,10,true,0.75,20000]]"##
                ),
                Part(
                    key: "m/a",
                    body:
                        ##"["a","최근 본 상품",120.5,[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"]"##
                ),
                Part(key: "c/a", body: ##"{"n":1.5}"##),
                Part(key: "m/b", body: ##"["b","B",null,[],[null,"new"],null,null]"##),
                Part(key: "c/b", body: ##"{}"##),
                Part(key: "k/0", body: ##"["extra","Extra",null,{},[],null,null,null]"##),
            ]),
        RecordedPager(
            name: "updated",
            document:
                ##"[1,[["a","최근 본 상품",120.5,{"n":1.5},[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"],["b","B",null,{},[],[null,"new"],null,null]],[["extra","Extra",null,{},[],null,null,null]],["bounded",412.5,["scrollable",4.25,12,40,10,7.5,"elastic",3],2,null,["Empty",null],700,"rtl","horizontal","forward","resistance",0.7,"compress","halfway",true,null,"Onglet {position} sur {count}","Page {position} sur {count}","Première page","Dernière page",true,1234,"reverse","stop","stop","trailing","leading",[1,2,3,4.5],90,120,1.25,10,true,0.75,20000]]"##,
            position: ##"[1,null,null,["due",1700000001234],2,null]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[2,["a","b"],1,["bounded",412.5,["scrollable",4.25,12,40,10,7.5,"elastic",3],2,null,["Empty",null],700,"rtl","horizontal","forward","resistance",0.7,"compress","halfway",true,null,"Onglet {position} sur {count}","Page {position} sur {count}","Première page","Dernière page",true,1234,"reverse","stop","stop","trailing","leading",[1,2,3,4.5],90,120,1.25,10,true,0.75,20000]]"##
                ),
                Part(
                    key: "m/a",
                    body:
                        ##"["a","최근 본 상품",120.5,[["detail","Detail",{"x":1}],["bare",null,null]],["tray",12],"Recent","Shows what you saw"]"##
                ),
                Part(key: "c/a", body: ##"{"n":1.5}"##),
                Part(key: "m/b", body: ##"["b","B",null,[],[null,"new"],null,null]"##),
                Part(key: "c/b", body: ##"{}"##),
                Part(key: "k/0", body: ##"["extra","Extra",null,{},[],null,null,null]"##),
            ]),
        RecordedPager(
            name: "plain",
            document:
                ##"[1,[["only","Only",null,{},[],null,null,null]],[],["bounded",390,["fixed",0,0,48,16,8,"linear",2],1,null,null,844,"ltr","horizontal","both","none",0.85,"none","continuous",false,null,"Tab {position} of {count}","Page {position} of {count}","This is the first page","This is the last page",false,5000,"forward","rewind","pause","leading","center",[0,0,0,0],null,null,1,0,false,0.5,15000]]"##,
            position: ##"[0,null]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[2,["only"],0,["bounded",390,["fixed",0,0,48,16,8,"linear",2],1,null,null,844,"ltr","horizontal","both","none",0.85,"none","continuous",false,null,"Tab {position} of {count}","Page {position} of {count}","This is the first page","This is the last page",false,5000,"forward","rewind","pause","leading","center",[0,0,0,0],null,null,1,0,false,0.5,15000]]"##
                ),
                Part(key: "m/only", body: ##"["only","Only",null,[],null,null,null]"##),
                Part(key: "c/only", body: ##"{}"##),
            ]),
        RecordedPager(
            name: "turning",
            document:
                ##"[1,[["p0","P0",null,{},[],null,null,null],["p1","P1",null,{},[],null,null,null],["p2","P2",null,{},[],null,null,null]],[],["bounded",390,["fixed",0,0,48,16,8,"linear",2],1,null,null,844,"ltr","horizontal","both","none",0.85,"none","continuous",false,null,"Tab {position} of {count}","Page {position} of {count}","This is the first page","This is the last page",false,5000,"forward","rewind","pause","leading","center",[0,0,0,0],null,null,1,0,false,0.5,15000]]"##,
            position: ##"[1,[1,0,0.25,"reverse"],null,null,1,15000]"##,
            parts: [
                Part(
                    key: "h",
                    body:
                        ##"[2,["p0","p1","p2"],0,["bounded",390,["fixed",0,0,48,16,8,"linear",2],1,null,null,844,"ltr","horizontal","both","none",0.85,"none","continuous",false,null,"Tab {position} of {count}","Page {position} of {count}","This is the first page","This is the last page",false,5000,"forward","rewind","pause","leading","center",[0,0,0,0],null,null,1,0,false,0.5,15000]]"##
                ),
                Part(key: "m/p0", body: ##"["p0","P0",null,[],null,null,null]"##),
                Part(key: "c/p0", body: ##"{}"##),
                Part(key: "m/p1", body: ##"["p1","P1",null,[],null,null,null]"##),
                Part(key: "c/p1", body: ##"{}"##),
                Part(key: "m/p2", body: ##"["p2","P2",null,[],null,null,null]"##),
                Part(key: "c/p2", body: ##"{}"##),
            ]),
    ]
}
