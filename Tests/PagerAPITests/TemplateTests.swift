import Foundation
import HTTPTypes
import JSON
import PagerAPI
import PagerModel
import TestSupport
import Testing

@Suite("Templates as data (SPEC §2.10)")
struct TemplateTests {
    static func shipped(_ name: String) throws -> Template {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let data = try Data(contentsOf: url.appendingPathComponent("config/templates/\(name).json"))
        return try Template(json: try JSONParser.parse(Array(data)))
    }

    @Test(
        "the five shipped templates load with the pages, modes and tab bars of the spec",
        arguments: [
            ("snap", ["chat", "snap", "stories", "discover"], PagerMode.bounded, TabLayout.none, 1),
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
