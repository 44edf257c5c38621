import JSON
import PagerModel
import PagerWire
import TestSupport
import Testing

@testable import PagerAPI

@Suite("GET /v1/sessions/{id}/settings: the effective settings")
struct SettingsDocumentTests {
    @Test("every setting is present with its default filled in")
    func defaults() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        let reply = await api.send("GET", "/v1/sessions/\(id)/settings")
        #expect(reply.status == 200)
        #expect(reply.headers["ETag"] == "\"1\"")
        #expect(reply.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(reply["mode"] == "bounded" && reply["preload"] == 1 && reply["swipe"] == "both")
        #expect(
            reply["viewport"] == [
                "width": 390, "height": 844, "pagesPerView": 1, "pageSpacing": 0, "centered": false,
            ])
        #expect(reply["layoutDirection"] == "ltr" && reply["orientation"] == "horizontal")
        #expect(reply["rubberBand"] == ["style": "none", "ratio": 0.85])
        #expect(reply["trailingAction"] == .null && reply["emptyState"] == .null)
        #expect(
            reply["tabBar"] == [
                "layout": "fixed", "spacing": 0, "inset": 0, "minTabWidth": 48, "tabPadding": 16, "charWidth": 8,
                "indicator": [
                    "style": "linear", "height": 2, "overscroll": "none", "tracking": "continuous",
                    "progressive": false,
                    "inset": ["leading": 0, "trailing": 0, "firstLeading": 0, "lastTrailing": 0],
                ],
                "title": nil, "alignment": "leading", "selectedScrollPosition": "center", "maxTabWidth": nil,
                "selectedTabWidth": nil,
            ])
        #expect(
            reply["autoAdvance"] == [
                "enabled": false, "interval": 5000, "direction": "forward", "atEnd": "rewind",
                "onInteraction": "pause",
            ])
        #expect(reply["accessibilityText"]?["tabValueFormat"] == "Tab {position} of {count}")
        #expect(reply["pages"] == nil && reply["template"] == nil && reply["initialPage"] == nil)
    }

    @Test("If-None-Match with the version answers 304; an unknown session 404")
    func conditionalAndMissing() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "mall"}"#)
        let unchanged = await api.send("GET", "/v1/sessions/\(id)/settings", headers: [("If-None-Match", "\"1\"")])
        #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.headers["ETag"] == "\"1\"")
        let missing = await api.send("GET", "/v1/sessions/nosuchsession/settings")
        #expect(missing.status == 404 && missing.code == "session_not_found")
    }

    @Test("the document round-trips through create and PATCH")
    func roundTrip() async throws {
        let api = try APITester()
        let id = try await api.create(
            #"""
            {"template": "piggybank", "pages": [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}],
             "initialPage": 1, "layoutDirection": "rtl", "rubberBand": {"style": "resistance", "ratio": 0.5},
             "tabBar": {"layout": "scrollable", "spacing": 4, "title": {"scale": 0.8},
                        "indicator": {"style": "elastic", "overscroll": "bounce"}},
             "autoAdvance": {"enabled": true, "interval": 1500}, "preload": 2}
            """#)
        let settings = await api.send("GET", "/v1/sessions/\(id)/settings")
        #expect(
            settings["tabBar"]?["title"] == [
                "color": "#000000FF", "selectedColor": "#037DE9FF", "scale": 0.8,
                "selectedScale": 1,
            ])
        #expect(settings["emptyState"]?["action"] == ["id": "add-bottle", "title": "Create a bottle"])
        let state = await api.send("GET", "/v1/sessions/\(id)")

        // A PATCH with the document changes nothing.
        let patch = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: String(decoding: settings.body, as: UTF8.self))
        #expect(patch.status == 200 && patch["version"] == state["version"])

        // A create with the document, the same pages and the index gives the same state.
        guard case .object(var body) = settings.json else { return #expect(Bool(false)) }
        body["pages"] = [["id": "a", "title": "A"], ["id": "b", "title": "B"]]
        body["initialPage"] = 1
        let copy = try await api.create(String(decoding: JSONWriter.encode(.object(body)), as: UTF8.self))
        let copied = await api.send("GET", "/v1/sessions/\(copy)")
        guard case .object(var original) = state.json, case .object(var made) = copied.json else {
            return #expect(Bool(false))
        }
        for key in ["id", "version", "autoAdvance"] {
            original[key] = nil
            made[key] = nil
        }
        #expect(JSONValue.object(original) == JSONValue.object(made))
        let copiedSettings = await api.send("GET", "/v1/sessions/\(copy)/settings")
        #expect(copiedSettings.json == settings.json)
    }

    /// Settings with every member away from its default, and some with only a few optional ones.
    static var samples: (every: PagerSettings, some: PagerSettings) {
        var every = PagerSettings()
        every.mode = .loop
        every.viewportWidth = 412.5
        every.pagesPerView = 1.25
        every.pageSpacing = 10
        every.pagesCentered = true
        every.layoutDirection = .rtl
        every.orientation = .vertical
        every.swipe = .forward
        every.rubberBand.style = .resistance
        every.rubberBand.ratio = 0.7
        every.accessibilityText.firstPageMessage = "Première page"
        every.tabBar.layout = .scrollable
        every.tabBar.spacing = 4.25
        every.tabBar.indicatorStyle = .elastic
        every.tabBar.indicatorOverscroll = .compress
        every.tabBar.indicatorTracking = .halfway
        every.tabBar.indicatorProgressive = true
        var title = TitleStyle()
        title.color = RGBA(red: 1, green: 2, blue: 3, alpha: 4)
        title.selectedColor = RGBA(red: 200, green: 100, blue: 50, alpha: 255)
        title.scale = 0.9
        title.selectedScale = 1.25
        every.tabBar.title = title
        every.tabBar.indicatorInset.lastTrailing = 4.5
        every.tabBar.maxTabWidth = 90
        every.tabBar.selectedTabWidth = 120
        every.preload = 2
        every.trailingAction = PagerAction(id: "add", title: "Add \"a\" page")
        every.emptyState = EmptyState(title: "Nothing yet", action: PagerAction(id: "new", title: "New"))
        every.autoAdvance.enabled = true
        every.autoAdvance.interval = 1234
        every.release.flickVelocity = 0.75
        every.dragTimeout = 20_000
        var some = PagerSettings()
        some.tabBar.maxTabWidth = 200
        some.emptyState = EmptyState(title: "Empty", action: nil)
        return (every, some)
    }

    // Written by the settings document's encoder before each settings type had one encoder (it
    // built the tree, then wrote it).
    static let recordedDefaults =
        ##"{"mode":"bounded","viewport":{"width":390,"height":844,"pagesPerView":1,"pageSpacing":0,"centered":false},"layoutDirection":"ltr","orientation":"horizontal","swipe":"both","rubberBand":{"style":"none","ratio":0.85},"autoAdvance":{"enabled":false,"interval":5000,"direction":"forward","atEnd":"rewind","onInteraction":"pause"},"accessibilityText":{"tabValueFormat":"Tab {position} of {count}","pageValueFormat":"Page {position} of {count}","firstPageMessage":"This is the first page","lastPageMessage":"This is the last page"},"tabBar":{"layout":"fixed","spacing":0,"inset":0,"minTabWidth":48,"tabPadding":16,"charWidth":8,"alignment":"leading","selectedScrollPosition":"center","indicator":{"style":"linear","height":2,"overscroll":"none","tracking":"continuous","progressive":false,"inset":{"leading":0,"trailing":0,"firstLeading":0,"lastTrailing":0}},"title":null,"maxTabWidth":null,"selectedTabWidth":null},"preload":1,"release":{"flickVelocity":0.5},"dragTimeout":15000,"trailingAction":null,"emptyState":null}"##
    static let recordedEvery =
        ##"{"mode":"loop","viewport":{"width":412.5,"height":844,"pagesPerView":1.25,"pageSpacing":10,"centered":true},"layoutDirection":"rtl","orientation":"vertical","swipe":"forward","rubberBand":{"style":"resistance","ratio":0.7},"autoAdvance":{"enabled":true,"interval":1234,"direction":"forward","atEnd":"rewind","onInteraction":"pause"},"accessibilityText":{"tabValueFormat":"Tab {position} of {count}","pageValueFormat":"Page {position} of {count}","firstPageMessage":"Première page","lastPageMessage":"This is the last page"},"tabBar":{"layout":"scrollable","spacing":4.25,"inset":0,"minTabWidth":48,"tabPadding":16,"charWidth":8,"alignment":"leading","selectedScrollPosition":"center","indicator":{"style":"elastic","height":2,"overscroll":"compress","tracking":"halfway","progressive":true,"inset":{"leading":0,"trailing":0,"firstLeading":0,"lastTrailing":4.5}},"title":{"color":"#01020304","selectedColor":"#C86432FF","scale":0.9,"selectedScale":1.25},"maxTabWidth":90,"selectedTabWidth":120},"preload":2,"release":{"flickVelocity":0.75},"dragTimeout":20000,"trailingAction":{"id":"add","title":"Add \"a\" page"},"emptyState":{"title":"Nothing yet","action":{"id":"new","title":"New"}}}"##
    static let recordedSome =
        ##"{"mode":"bounded","viewport":{"width":390,"height":844,"pagesPerView":1,"pageSpacing":0,"centered":false},"layoutDirection":"ltr","orientation":"horizontal","swipe":"both","rubberBand":{"style":"none","ratio":0.85},"autoAdvance":{"enabled":false,"interval":5000,"direction":"forward","atEnd":"rewind","onInteraction":"pause"},"accessibilityText":{"tabValueFormat":"Tab {position} of {count}","pageValueFormat":"Page {position} of {count}","firstPageMessage":"This is the first page","lastPageMessage":"This is the last page"},"tabBar":{"layout":"fixed","spacing":0,"inset":0,"minTabWidth":48,"tabPadding":16,"charWidth":8,"alignment":"leading","selectedScrollPosition":"center","indicator":{"style":"linear","height":2,"overscroll":"none","tracking":"continuous","progressive":false,"inset":{"leading":0,"trailing":0,"firstLeading":0,"lastTrailing":0}},"maxTabWidth":200,"title":null,"selectedTabWidth":null},"preload":1,"release":{"flickVelocity":0.5},"dragTimeout":15000,"emptyState":{"title":"Empty","action":null},"trailingAction":null}"##

    @Test("the settings document is written as it was recorded, and its tree is the same document")
    func recordedBytes() throws {
        let (every, some) = Self.samples
        #expect(String(decoding: PagerSettings().documentBytes, as: UTF8.self) == Self.recordedDefaults)
        #expect(String(decoding: every.documentBytes, as: UTF8.self) == Self.recordedEvery)
        // The members were in another order when only some optional members were set (those set
        // came first); the order is now always the same, the members and values are as recorded.
        #expect(try JSONParser.parse(some.documentBytes) == JSONParser.parse(Array(Self.recordedSome.utf8)))
        for settings in [PagerSettings(), every, some] {
            #expect(JSONWriter.encode(.object(settings.document)) == settings.documentBytes)
            #expect(try PagerSettings(json: settings.document) == settings)
        }
    }
}
