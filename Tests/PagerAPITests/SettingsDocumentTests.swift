import JSON
import PagerModel
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
}
