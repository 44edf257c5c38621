import JSON
import PagerModel
import Testing

@testable import PagerAPI

// The layout settings' members in the state, PATCH merges, the settings document, templates and
// refusals.
extension LayoutAPITests {
    // MARK: - Members present only when not at their defaults

    @Test("the new members appear only when their setting is not at its default")
    func onlyWhenSet() async throws {
        let api = try APITester()
        let plain = await api.send("POST", "/v1/sessions", json: #"{"template": "media"}"#)
        #expect(plain["viewport"] == ["width": 390, "height": 844])
        #expect(plain["tabBar"]?["effectiveLayout"] == nil)
        #expect(plain["tabs"]?.arrayValue?.allSatisfy { $0["baseWidth"] == nil } == true)
        // Explicit defaults are defaults.
        let explicit = await api.send(
            "POST", "/v1/sessions",
            json:
                #"{"template": "media", "viewport": {"pagesPerView": 1, "pageSpacing": 0, "centered": false}, "tabBar": {"alignment": "leading", "selectedScrollPosition": "center", "maxTabWidth": null, "selectedTabWidth": null, "indicator": {"inset": {"leading": 0}}}}"#
        )
        guard case .object(var a) = plain.json, case .object(var b) = explicit.json else { return #expect(Bool(false)) }
        a["id"] = nil
        b["id"] = nil
        #expect(JSONValue.object(a) == JSONValue.object(b))
        // centered alone reports the page members; a fixed bar reports no base width.
        let centred = await api.send(
            "POST", "/v1/sessions", json: #"{"template": "media", "viewport": {"centered": true}}"#)
        #expect(
            centred["viewport"] == [
                "width": 390, "height": 844, "pagesPerView": 1, "pageSpacing": 0, "centered": true, "pageSize": 390,
            ])
        #expect(centred["pageOffset"] == 0)
        let fixed = await api.send(
            "POST", "/v1/sessions", json: #"{"template": "media", "tabBar": {"selectedTabWidth": 200}}"#)
        #expect(fixed["tabs"]?.arrayValue?.allSatisfy { $0["baseWidth"] == nil } == true)
        #expect(fixed["tabs"]?.arrayValue?.map { $0["width"] } == [130, 130, 130])
    }

    // MARK: - PATCH, settings document, templates

    @Test("PATCH merges the inset member by member, bumps the version once and cancels a swipe")
    func patch() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        _ = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.5}"#)
        var reply = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"indicator": {"inset": {"leading": 16}}}}"#)
        #expect(reply.status == 200 && reply["version"] == 3 && reply["transition"] == .null)
        #expect(reply["indicator"]?["x"] == 16 && reply["indicator"]?["width"] == 114)
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"indicator": {"inset": {"trailing": 16}}}}"#)
        #expect(reply["version"] == 4 && reply["indicator"]?["x"] == 16 && reply["indicator"]?["width"] == 98)
        // The same value again changes nothing.
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"indicator": {"inset": {"leading": 16}}}}"#)
        #expect(reply["version"] == 4)
        var settings = await api.send("GET", "/v1/sessions/\(id)/settings")
        #expect(
            settings["tabBar"]?["indicator"]?["inset"] == [
                "leading": 16, "trailing": 16, "firstLeading": 0, "lastTrailing": 0,
            ])
        // null clears a member back to its default, and the whole inset at once.
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"indicator": {"inset": {"leading": null}}}}"#)
        #expect(reply["indicator"]?["x"] == 0 && reply["indicator"]?["width"] == 114)
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"indicator": {"inset": null}}}"#)
        #expect(reply["indicator"]?["width"] == 130)
        // Widths: set, then cleared with null.
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)",
            json: #"{"tabBar": {"layout": "scrollable", "maxTabWidth": 60, "selectedTabWidth": 90}}"#)
        #expect(reply["tabs"]?.arrayValue?.map { $0["width"] } == [90, 60, 60])
        #expect(reply["tabs"]?.arrayValue?.map { $0["baseWidth"] } == [60, 60, 60])
        settings = await api.send("GET", "/v1/sessions/\(id)/settings")
        #expect(settings["tabBar"]?["maxTabWidth"] == 60 && settings["tabBar"]?["selectedTabWidth"] == 90)
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"maxTabWidth": null, "selectedTabWidth": null}}"#)
        #expect(reply["tabs"]?.arrayValue?.map { $0["width"] } == [80, 80, 72])
        settings = await api.send("GET", "/v1/sessions/\(id)/settings")
        #expect(settings["tabBar"]?["maxTabWidth"] == .null && settings["tabBar"]?["selectedTabWidth"] == .null)
        // Pages per view, then back.
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"viewport": {"pagesPerView": 2}}"#)
        #expect(reply["viewport"]?["pageSize"] == 195 && reply["visible"]?.arrayValue?.count == 2)
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"viewport": {"pagesPerView": 1}}"#)
        #expect(reply["viewport"] == ["width": 390, "height": 844])
    }

    @Test("the settings document with every layout setting round-trips through create and PATCH")
    func settingsRoundTrip() async throws {
        let api = try APITester()
        let id = try await api.create(
            #"""
            {"template": "media", "initialPage": 1, "layoutDirection": "rtl",
             "viewport": {"pagesPerView": 1.25, "pageSpacing": 10, "centered": true},
             "tabBar": {"layout": "auto", "alignment": "trailing", "selectedScrollPosition": "leading",
                        "maxTabWidth": 90, "selectedTabWidth": 120,
                        "indicator": {"inset": {"leading": 4, "trailing": 6, "firstLeading": 8, "lastTrailing": 10}}}}
            """#)
        let settings = await api.send("GET", "/v1/sessions/\(id)/settings")
        #expect(
            settings["viewport"] == [
                "width": 390, "height": 844, "pagesPerView": 1.25, "pageSpacing": 10, "centered": true,
            ])
        #expect(settings["tabBar"]?["alignment"] == "trailing" && settings["tabBar"]?["layout"] == "auto")
        let state = await api.send("GET", "/v1/sessions/\(id)")
        let patch = await api.send("PATCH", "/v1/sessions/\(id)", json: String(decoding: settings.body, as: UTF8.self))
        #expect(patch.status == 200 && patch["version"] == state["version"])
        guard case .object(var body) = settings.json else { return #expect(Bool(false)) }
        body["template"] = "media"
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
    }

    @Test("templates may carry the layout settings")
    func template() throws {
        let template = try Template(
            json: [
                "name": "carousel", "pages": [["id": "a", "title": "A"], ["id": "b", "title": "B"]],
                "viewport": ["pagesPerView": 1.25, "centered": true],
                "tabBar": ["layout": "auto", "alignment": "center", "indicator": ["inset": ["leading": 8]]],
            ])
        let settings = try template.makeDefinition(overrides: ["viewport": ["pageSpacing": 12]]).settings
        #expect(settings.pagesPerView == 1.25 && settings.pagesCentered && settings.pageSpacing == 12)
        #expect(settings.tabBar.layout == .auto && settings.tabBar.alignment == .center)
        #expect(settings.tabBar.indicatorInset.leading == 8)
        #expect(throws: PagerError.self) {
            try Template(json: ["name": "bad", "pages": [], "tabBar": ["alignment": "middle"]])
        }
    }

    // MARK: - Refusals

    @Test(
        "bad values answer 400 invalid_request naming the member's path",
        arguments: [
            (#"{"template": "media", "tabBar": {"alignment": "middle"}}"#, "tabBar.alignment"),
            (#"{"template": "media", "tabBar": {"selectedScrollPosition": "top"}}"#, "tabBar.selectedScrollPosition"),
            (
                #"{"template": "media", "tabBar": {"indicator": {"inset": {"firstLeading": -1}}}}"#,
                "tabBar.indicator.inset.firstLeading"
            ),
            (#"{"template": "media", "tabBar": {"indicator": {"inset": {"top": 1}}}}"#, "tabBar.indicator.inset.top"),
            (#"{"template": "media", "tabBar": {"indicator": {"inset": 4}}}"#, "tabBar.indicator.inset"),
            (#"{"template": "media", "tabBar": {"maxTabWidth": 40}}"#, "tabBar.maxTabWidth"),
            (#"{"template": "media", "tabBar": {"maxTabWidth": "wide"}}"#, "tabBar.maxTabWidth"),
            (#"{"template": "media", "tabBar": {"layout": "grid"}}"#, "tabBar.layout"),
            (#"{"template": "media", "tabBar": {"selectedTabWidth": 0}}"#, "tabBar.selectedTabWidth"),
            (#"{"template": "media", "viewport": {"pagesPerView": 0.5}}"#, "viewport.pagesPerView"),
            (#"{"template": "media", "viewport": {"pagesPerView": 101}}"#, "viewport.pagesPerView"),
            (#"{"template": "media", "viewport": {"pageSpacing": -1}}"#, "viewport.pageSpacing"),
            (#"{"template": "media", "viewport": {"pagesPerView": 2, "pageSpacing": 390}}"#, "viewport.pageSpacing"),
            (#"{"template": "media", "viewport": {"centered": "yes"}}"#, "viewport.centered"),
        ])
    func refusals(body: String, field: String) async throws {
        let api = try APITester()
        let reply = await api.send("POST", "/v1/sessions", json: body)
        #expect(reply.status == 400 && reply.code == "invalid_request" && reply.field == field)
    }

    @Test("a PATCH of another member is refused with the field of the rule it breaks, and changes nothing")
    func crossMemberRefusals() async throws {
        let api = try APITester()
        let id = try await api.create(
            #"{"template": "media", "viewport": {"pagesPerView": 2, "pageSpacing": 100}, "tabBar": {"maxTabWidth": 60}}"#
        )
        var reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"minTabWidth": 61}}"#)
        #expect(reply.status == 400 && reply.field == "tabBar.maxTabWidth")
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"viewport": {"width": 100}}"#)
        #expect(reply.status == 400 && reply.field == "viewport.pageSpacing")
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"viewport": {"pagesPerView": 5}}"#)
        #expect(reply.status == 400 && reply.field == "viewport.pageSpacing")
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"orientation": "vertical", "viewport": {"height": 90}}"#)
        #expect(reply.status == 400 && reply.field == "viewport.pageSpacing")
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(state["version"] == 1 && state["viewport"]?["pageSize"] == 145)
    }
}
