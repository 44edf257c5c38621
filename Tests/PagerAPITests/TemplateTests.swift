import Foundation
import HTTPTypes
import JSON
import PagerAPI
import PagerModel
import PagerWire
import TestSupport
import Testing

@Suite("Templates as data (docs/api.md, «Templates»)")
struct TemplateTests {
    static func shipped(_ name: String) throws -> Template {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let data = try Data(contentsOf: url.appendingPathComponent("config/templates/\(name).json"))
        return try Template(json: try JSONParser.parse(Array(data)))
    }

    @Test(
        "the shipped templates load with their pages, modes and tab bars",
        arguments: [
            ("snap", ["chat", "snap", "stories", "discover"], PagerMode.bounded, TabLayout.none, 1),
            ("postcards", ["coast", "forest", "desert", "tundra"], .bounded, .scrollable, 0),
            ("media", ["photos", "videos", "music"], .bounded, .fixed, 0),
            ("posepicker", ["posepick", "posetalk", "posefeed"], .bounded, .fixed, 0),
            ("mall", ["product", "recent", "wishlist"], .loop, .fixed, 0),
            ("piggybank", [], .bounded, .none, -1),
        ])
    func shippedTemplates(name: String, ids: [String], mode: PagerMode, layout: TabLayout, index: Int) throws {
        let template = try Self.shipped(name)
        #expect(template.name == name)
        let pager = try template.makeDefinition(overrides: JSONObject()).makePager(limits: PagerLimits())
        #expect(pager.pages.map(\.id) == ids)
        #expect(pager.settings.mode == mode)
        #expect(pager.settings.tabBar.layout == layout)
        #expect(pager.index == (index < 0 ? nil : index))
        #expect(pager.settings.viewportWidth == 390 && pager.settings.preload == 1)
        #expect(pager.settings.tabBar.indicatorStyle == .linear)
        #expect(pager.pages.allSatisfy { !$0.content.isEmpty })
    }

    @Test("titles, catalogs and states of the seed apps")
    func seedDetails() throws {
        let pose = try Self.shipped("posepicker")
        #expect(pose.catalog.map(\.id) == ["bookmark", "myPage"])
        #expect(pose.catalog.map(\.title) == ["북마크", "마이페이지"])
        let mall = try Self.shipped("mall").makeDefinition(overrides: JSONObject()).makePager(limits: PagerLimits())
        #expect(mall.pages.map(\.title) == ["상품", "최근 본 상품", "찜"])
        let piggy = try Self.shipped("piggybank").makeDefinition(overrides: JSONObject()).makePager(
            limits: PagerLimits())
        #expect(
            piggy.reportedEmptyState
                == EmptyState(
                    title: "Create your first bottle", action: PagerAction(id: "add-bottle", title: "Create a bottle")))
        #expect(piggy.settings.trailingAction == PagerAction(id: "add-bottle", title: "Add a bottle"))
        let bottle = try piggy.applying(.insertFromCatalog(id: "travel", at: nil)).pager
        #expect(
            bottle.index == 0 && bottle.reportedTrailingAction?.id == "add-bottle" && bottle.reportedEmptyState == nil)
    }

    @Test("postcards: a centred peek, a narrow centred tab bar and an indicator as wide as each title")
    func postcards() throws {
        let pager = try Self.shipped("postcards").makeDefinition(overrides: JSONObject()).makePager(
            limits: PagerLimits())
        let settings = pager.settings
        #expect(settings.pagesPerView == 1.25 && settings.pageSpacing == 10 && settings.pagesCentered)
        #expect(settings.tabBar.alignment == .center && settings.tabBar.selectedScrollPosition == .center)
        #expect(settings.tabBar.indicatorInset.leading == 16 && settings.tabBar.indicatorInset.trailing == 16)
        // Pages of (390 − 0.25·10)/1.25 = 310, the first one 40 points in; its neighbour shows 30 points.
        #expect(pager.pageSize == 310 && pager.pageOffset == -40)
        // Tabs of 72, 80, 80 and 80 points (16 of padding on each side of the title), 312 together,
        // moved by half of the 78 left over; the indicator is the title's width, 72 − 2·16.
        let (indicator, bar) = pager.indicatorAndTabBar
        #expect(pager.tabs.map(\.frame.x) == [39, 111, 191, 271])
        #expect(bar.contentWidth == 390 && bar.offset == 0)
        #expect(indicator.map { [$0.x, $0.width] } == [55, 40])
    }

    @Test("overrides merge member by member over the template")
    func overridesMerge() throws {
        let template = try Self.shipped("media")
        let overrides = try JSONParser.parse(
            #"{"tabBar": {"indicator": {"style": "elastic"}}, "viewport": {"width": 300}, "initialPage": "music"}"#)
        let pager = try template.makeDefinition(overrides: overrides.objectValue!).makePager(limits: PagerLimits())
        #expect(pager.settings.tabBar.layout == .fixed)
        #expect(pager.settings.tabBar.indicatorStyle == .elastic)
        #expect(pager.settings.viewportWidth == 300 && pager.index == 2)
        let unknown = try JSONParser.parse(#"{"colour": "red"}"#)
        #expect(throws: PagerError.self) { try template.makeDefinition(overrides: unknown.objectValue!) }
    }

    @Test(
        "definitions name the field at fault",
        arguments: [
            (#"{"pages": [{"id": "a", "title": "A"}, {"id": "a", "title": "B"}]}"#, "pages[1].id"),
            (#"{"pages": [{"id": "a b", "title": "A"}]}"#, "pages[0].id"),
            (#"{"pages": [{"id": "a"}]}"#, "pages[0].title"),
            (#"{"pages": [{"id": "a", "title": "A", "tabWidth": -3}]}"#, "pages[0].tabWidth"),
            (#"{"pages": [{"id": "a", "title": "A", "extra": 1}]}"#, "pages[0].extra"),
            (#"{"pages": [], "mode": "circular"}"#, "mode"),
            (#"{"pages": [], "viewport": {"width": 0}}"#, "viewport.width"),
            (#"{"pages": [], "tabBar": {"indicator": {"style": "bouncy"}}}"#, "tabBar.indicator.style"),
            (#"{"pages": [], "tabBar": {"spacing": "wide"}}"#, "tabBar.spacing"),
            (#"{"pages": [], "preload": 1.5}"#, "preload"),
            (#"{"pages": [{"id": "a", "title": "A"}], "initialPage": 3}"#, "initialPage"),
            (#"{"pages": "a"}"#, "pages"),
            (#"{"mode": "loop"}"#, "pages"),
            (#"{"pages": [], "trailingAction": {"id": "x"}}"#, "trailingAction.title"),
        ])
    func definitionErrors(text: String, field: String) throws {
        let object = try JSONParser.parse(text).objectValue!
        do {
            _ = try PagerDefinition(json: object).makePager(limits: PagerLimits())
            Issue.record("expected a refusal for \(text)")
        } catch {
            #expect(error.field == field)
        }
    }

    @Test("PATCH merges over the current settings and can remove optional members")
    func settingsPatch() throws {
        var settings = PagerSettings()
        settings.trailingAction = PagerAction(id: "add", title: "Add")
        let patch = try JSONParser.parse(#"{"mode": "loop", "tabBar": {"spacing": 4}, "trailingAction": null}"#)
        let patched = try settings.patched(with: patch.objectValue!)
        #expect(patched.mode == .loop && patched.tabBar.spacing == 4 && patched.trailingAction == nil)
        #expect(patched.tabBar.layout == .fixed && patched.viewportWidth == 390)
        #expect(throws: PagerError.self) { try settings.patched(with: ["pages": []]) }
    }
}
