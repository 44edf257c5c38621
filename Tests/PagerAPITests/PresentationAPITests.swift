import JSON
import PagerSessions
import Testing

/// docs/api.md, «Settings», «Right to left», «Vertical pagers», «Jump animation», «Swipe lock»
/// and «Insert then select» through the HTTP face: the new settings at create, in PATCH and in
/// templates, the new members of the state document, and every new error with its field.
@Suite(
    "Layout direction, orientation, swipe lock, jump animation, overscroll, tab rendering, icons and accessibility over HTTP"
)
struct PresentationAPITests {
    @Test("defaults: the new members are present with their default values, and nothing else changes")
    func defaults() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(state["layoutDirection"] == "ltr" && state["orientation"] == "horizontal" && state["swipe"] == "both")
        #expect(state["viewport"] == ["width": 390, "height": 844])
        #expect(state["blocked"] == nil)
        let select = await api.send("POST", "/v1/sessions/\(id)/select", json: #"{"index": 2}"#)
        #expect(select["keyframes"]?.arrayValue?.map { $0["jump"] } == [false, false])
    }

    @Test("media, rtl at create: the documented numbers, and the same state from all three scroll inputs")
    func rtlAtCreate() async throws {
        let api = try APITester()
        var ids: [String] = []
        for input in [#"{"progress": 0.5}"#, #"{"windowOffset": 195}"#, #"{"offset": 585}"#] {
            let id = try await api.create(#"{"template": "media", "layoutDirection": "rtl"}"#)
            let rest = await api.send("GET", "/v1/sessions/\(id)")
            #expect(rest["tabs"]?.arrayValue?.map { $0["x"] } == [260, 130, 0])
            #expect(rest["indicator"]?["x"] == 260 && rest["pageOffset"] == 780)
            let scrolled = await api.send("POST", "/v1/sessions/\(id)/scroll", json: input)
            #expect(scrolled["indicator"]?["x"] == 195 && scrolled["pageOffset"] == 585, "\(input)")
            #expect(scrolled["transition"]?["progress"] == 0.5 && scrolled["version"] == 2)
            ids.append(id)
        }
    }

    @Test("snap, vertical: pageOffset 844, viewport with height; windowOffset 1055 → progress 0.25")
    func vertical() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "snap", "orientation": "vertical"}"#)
        let state = await api.send("GET", "/v1/sessions/\(id)")
        #expect(state["pageOffset"] == 844 && state["viewport"] == ["width": 390, "height": 844])
        let scrolled = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"windowOffset": 1055}"#)
        #expect(scrolled["transition"]?["progress"] == 0.25 && scrolled["pageOffset"] == 1055)
    }

    @Test("PATCH of a new setting bumps the version once and cancels a transition; the same value changes nothing")
    func patch() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        _ = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.5}"#)
        var reply = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"layoutDirection": "rtl", "swipe": "forward"}"#)
        #expect(reply.status == 200 && reply["version"] == 3 && reply["transition"] == .null)
        #expect(reply["layoutDirection"] == "rtl" && reply["swipe"] == "forward" && reply["pageOffset"] == 780)
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"layoutDirection": "rtl"}"#)
        #expect(reply.status == 200 && reply["version"] == 3)
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"viewport": {"height": 700}, "orientation": "vertical"}"#)
        #expect(
            reply["viewport"] == ["width": 390, "height": 700] && reply["version"] == 4 && reply["pageOffset"] == 0)
    }

    @Test("bad values answer 400 invalid_request naming the member's path as sent")
    func badValues() async throws {
        let api = try APITester()
        let cases: [(String, String)] = [
            (#"{"template": "media", "layoutDirection": "up"}"#, "layoutDirection"),
            (#"{"template": "media", "orientation": "diagonal"}"#, "orientation"),
            (#"{"template": "media", "viewport": {"height": 0}}"#, "viewport.height"),
            (#"{"template": "media", "viewport": {"height": "tall"}}"#, "viewport.height"),
            (#"{"template": "media", "swipe": "sideways"}"#, "swipe"),
        ]
        for (body, field) in cases {
            let reply = await api.send("POST", "/v1/sessions", json: body)
            #expect(reply.status == 400 && reply.code == "invalid_request" && reply.field == field, "\(body)")
        }
        let id = try await api.create(#"{"template": "media"}"#)
        var reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"swipe": 1}"#)
        #expect(reply.status == 400 && reply.field == "swipe")
        reply = await api.send("POST", "/v1/sessions/\(id)/select", json: #"{"index": 2, "animation": "teleport"}"#)
        #expect(reply.status == 400 && reply.field == "animation")
        reply = await api.send(
            "POST", "/v1/sessions/\(id)/pages", json: #"{"page": {"id": "x", "title": "X"}, "then": "jump"}"#)
        #expect(reply.status == 400 && reply.field == "then")
        #expect(await api.send("GET", "/v1/sessions/\(id)")["version"] == 1)
    }

    @Test("swipe none: a scroll answers blocked with version 1; begin is 409 swipe_locked; next moves")
    func swipeLock() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media", "swipe": "none"}"#)
        var reply = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.3}"#)
        #expect(reply.status == 200 && reply["blocked"] == "forward" && reply["transition"] == .null)
        #expect(reply["version"] == 1 && reply["edge"] == nil)
        reply = await api.send("POST", "/v1/sessions/\(id)/transition", json: #"{"phase": "begin", "to": 1}"#)
        #expect(reply.status == 409 && reply.code == "swipe_locked" && reply.field == "to")
        reply = await api.send("POST", "/v1/sessions/\(id)/next")
        #expect(reply["moved"] == true && reply["version"] == 2)
    }

    @Test("select with animation direct or capped; insert with then select")
    func animationAndThen() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        var reply = await api.send("POST", "/v1/sessions/\(id)/select", json: #"{"index": 2, "animation": "direct"}"#)
        #expect(reply["keyframes"]?.arrayValue?.map { $0["index"] } == [2] && reply["direction"] == "forward")
        let bank = try await api.create(#"{"template": "piggybank"}"#)
        _ = await api.send("POST", "/v1/sessions/\(bank)/pages", json: #"{"from": "travel"}"#)
        reply = await api.send("POST", "/v1/sessions/\(bank)/pages", json: #"{"from": "gift", "then": "select"}"#)
        #expect(reply["index"] == 1 && reply["page"]?["id"] == "gift")
        #expect(reply["trailingAction"] == ["id": "add-bottle", "title": "Add a bottle"])
    }

    @Test("piggybank: a pull past the last bottle released completed answers actionRequested, one event")
    func releaseOverHTTP() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "piggybank", "rubberBand": {"style": "linear"}}"#)
        _ = await api.send("POST", "/v1/sessions/\(id)/pages", json: #"{"from": "travel"}"#)
        let shard = api.engine.shard(for: SessionID(id))
        let subscription = try shard.withLock { try $0.subscribe(to: SessionID(id)) }
        var events = subscription.events.makeAsyncIterator()
        var reply = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.3}"#)
        #expect(reply["overscroll"] == ["edge": "end", "progress": 0.3] && reply["edge"] == "end")
        #expect(reply["version"] == 3 && reply["actionRequested"] == nil)
        reply = await api.send("POST", "/v1/sessions/\(id)/transition", json: #"{"phase": "end", "completed": true}"#)
        #expect(reply["moved"] == false && reply["edge"] == "end" && reply["overscroll"] == .null)
        #expect(reply["actionRequested"] == ["id": "add-bottle", "title": "Add a bottle"] && reply["version"] == 4)
        let pulled = await events.next(), released = await events.next()
        #expect(pulled?.kind == .transition && pulled?.snapshot.version == 3)
        #expect(released?.kind == .actionRequested && released?.snapshot.version == 4)
        // A next at the end asks again without a change: the event repeats the version.
        reply = await api.send("POST", "/v1/sessions/\(id)/next")
        #expect(reply["actionRequested"]?["id"] == "add-bottle" && reply["version"] == 4)
        let again = await events.next()
        #expect(again?.kind == .actionRequested && again?.snapshot.version == 4)
        shard.withLock { $0.unsubscribe(subscription.token, from: SessionID(id)) }
    }

    @Test("rubber band and indicator settings: defaults reported by PATCH merges, bad values name their path")
    func overscrollSettings() async throws {
        let api = try APITester()
        let cases: [(String, String)] = [
            (#"{"template": "media", "rubberBand": {"style": "springy"}}"#, "rubberBand.style"),
            (#"{"template": "media", "rubberBand": {"ratio": 0}}"#, "rubberBand.ratio"),
            (#"{"template": "media", "rubberBand": {"ratio": 1.5}}"#, "rubberBand.ratio"),
            (
                #"{"template": "media", "tabBar": {"indicator": {"overscroll": "wobble"}}}"#,
                "tabBar.indicator.overscroll"
            ),
            (#"{"template": "media", "tabBar": {"indicator": {"tracking": "lazy"}}}"#, "tabBar.indicator.tracking"),
        ]
        for (body, field) in cases {
            let reply = await api.send("POST", "/v1/sessions", json: body)
            #expect(reply.status == 400 && reply.field == field, "\(body)")
        }
        let id = try await api.create(#"{"template": "media", "initialPage": 2}"#)
        var reply = await api.send(
            "PATCH", "/v1/sessions/\(id)",
            json: #"{"rubberBand": {"style": "linear"}, "tabBar": {"indicator": {"overscroll": "bounce"}}}"#)
        #expect(reply.status == 200 && reply["version"] == 2 && reply["overscroll"] == .null)
        reply = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"windowOffset": 468}"#)
        #expect(abs((reply["pageOffset"]?.numberValue ?? 0) - 858) < 1e-6)
        #expect(abs((reply["indicator"]?["x"]?.numberValue ?? 0) - 286) < 1e-6)
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"indicator": {"tracking": "settled"}}}"#)
        #expect(reply["overscroll"] == .null && reply["version"] == 4 && reply["indicator"]?["x"] == 260)
    }

    @Test("tab rendering over HTTP: colours and scales, fade alpha, visible; bad values name the member")
    func tabRendering() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media", "tabBar": {"title": {"scale": 0.8}}}"#)
        var reply = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.25}"#)
        let tabs = reply["tabs"]?.arrayValue ?? []
        #expect(tabs.map { $0["color"] } == ["#025EAFFF", "#011F3AFF", "#000000FF"])
        #expect(tabs.map { $0["selected"] } == [true, false, false])
        #expect(tabs.map { $0["selection"] } == [0.75, 0.25, 0])
        #expect(
            reply["visible"] == [
                ["index": 0, "id": "photos", "fraction": 0.75], ["index": 1, "id": "videos", "fraction": 0.25],
            ])
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"indicator": {"style": "fade"}}}"#)
        #expect(reply["tabs"]?.arrayValue?.first?["scale"] == 1)
        reply = await api.send("POST", "/v1/sessions/\(id)/scroll", json: #"{"progress": 0.75}"#)
        #expect(reply["indicator"]?["x"] == 130 && reply["indicator"]?["alpha"] == 0.5)
        reply = await api.send("PATCH", "/v1/sessions/\(id)", json: #"{"tabBar": {"title": null}}"#)
        #expect(reply["tabs"]?.arrayValue?.first?["color"] == nil)
        let cases: [(String, String)] = [
            (#"{"template": "media", "tabBar": {"title": {"color": "red"}}}"#, "tabBar.title.color"),
            (
                ##"{"template": "media", "tabBar": {"title": {"selectedColor": "#12345"}}}"##,
                "tabBar.title.selectedColor"
            ),
            (#"{"template": "media", "tabBar": {"title": {"scale": 0}}}"#, "tabBar.title.scale"),
            (#"{"template": "mall", "tabBar": {"indicator": {"progressive": true}}}"#, "tabBar.indicator.progressive"),
            (#"{"template": "media", "tabBar": {"indicator": {"style": "glow"}}}"#, "tabBar.indicator.style"),
        ]
        for (body, field) in cases {
            let refused = await api.send("POST", "/v1/sessions", json: body)
            #expect(refused.status == 400 && refused.field == field, "\(body)")
        }
        let loop = try await api.create(#"{"template": "media", "tabBar": {"indicator": {"progressive": true}}}"#)
        let refused = await api.send("PATCH", "/v1/sessions/\(loop)", json: #"{"mode": "loop"}"#)
        #expect(refused.status == 400 && refused.field == "tabBar.indicator.progressive")
    }

    @Test("tab icons and badges: echoed on tabs and pages, merged by a page PATCH, bad values named by path")
    func iconsAndBadges() async throws {
        let api = try APITester()
        let id = try await api.create(
            #"{"pages": [{"id": "inbox", "title": "Inbox", "tab": {"icon": "tray", "badge": 12}}, {"id": "sent", "title": "Sent"}]}"#
        )
        var reply = await api.send("GET", "/v1/sessions/\(id)")
        let tabs = reply["tabs"]?.arrayValue ?? []
        #expect(tabs.first?["icon"] == "tray" && tabs.first?["badge"] == 12)
        #expect(tabs.last?["icon"] == .null && tabs.last?["badge"] == .null)
        reply = await api.send("GET", "/v1/sessions/\(id)/pages")
        #expect(reply["pages"]?.arrayValue?.first?["tab"] == ["icon": "tray", "badge": 12])
        #expect(reply["pages"]?.arrayValue?.last?["tab"] == nil)
        reply = await api.send("PATCH", "/v1/sessions/\(id)/pages/inbox", json: #"{"tab": {"badge": null}}"#)
        #expect(reply.status == 200 && reply["tabs"]?.arrayValue?.first?["badge"] == .null)
        #expect(reply["tabs"]?.arrayValue?.first?["icon"] == "tray" && reply["version"] == 2)
        reply = await api.send("PATCH", "/v1/sessions/\(id)/pages/sent", json: #"{"tab": {"badge": "new"}}"#)
        #expect(reply["tabs"]?.arrayValue?.last?["badge"] == "new" && reply["version"] == 3)
        reply = await api.send("PATCH", "/v1/sessions/\(id)/pages/inbox", json: #"{"tab": null}"#)
        #expect(reply["tabs"]?.arrayValue?.first?["icon"] == .null && reply["version"] == 4)
        reply = await api.send("PATCH", "/v1/sessions/\(id)/pages/inbox", json: #"{"tab": null}"#)
        #expect(reply["version"] == 4)
        let long = String(repeating: "b", count: 33)
        let refusals: [(String, String, String, String)] = [
            (
                "POST", "/v1/sessions", #"{"pages": [{"id": "a", "title": "A", "tab": {"badge": -1}}]}"#,
                "pages[0].tab.badge"
            ),
            (
                "POST", "/v1/sessions", #"{"pages": [{"id": "a", "title": "A", "tab": {"icon": ""}}]}"#,
                "pages[0].tab.icon"
            ),
            (
                "POST", "/v1/sessions", #"{"pages": [{"id": "a", "title": "A", "tab": {"badge": 1.5}}]}"#,
                "pages[0].tab.badge"
            ),
            (
                "POST", "/v1/sessions/\(id)/pages",
                #"{"page": {"id": "b", "title": "B", "tab": {"badge": "\#(long)"}}}"#, "page.tab.badge"
            ),
            ("PATCH", "/v1/sessions/\(id)/pages/sent", #"{"tab": {"badge": true}}"#, "tab.badge"),
            ("PATCH", "/v1/sessions/\(id)/pages/sent", #"{"tab": {"colour": "red"}}"#, "tab.colour"),
        ]
        for (method, path, body, field) in refusals {
            let refused = await api.send(method, path, json: body)
            #expect(refused.status == 400 && refused.field == field, "\(body)")
        }
        #expect(await api.send("GET", "/v1/sessions/\(id)")["version"] == 4)
    }

    @Test("accessibility over HTTP: the media example, announcements, labels by PATCH, bad formats named")
    func accessibility() async throws {
        let api = try APITester()
        let id = try await api.create(#"{"template": "media"}"#)
        var reply = await api.send("GET", "/v1/sessions/\(id)")
        #expect(
            reply["tabs"]?.arrayValue?.first?["accessibility"] == [
                "label": "Photos", "hint": nil, "value": "Tab 1 of 3", "selected": true,
                "traits": ["button", "selected"],
                "actions": [],
            ])
        #expect(
            reply["accessibility"] == [
                "pager": [
                    "value": "Page 1 of 3", "traits": ["adjustable"], "actions": ["increment"],
                    "platformActions": ["pageRight"],
                ],
                "liveRegion": "polite",
            ])
        reply = await api.send("POST", "/v1/sessions/\(id)/select", json: #"{"page": "music"}"#)
        #expect(reply["announcement"] == "Music, Page 3 of 3")
        reply = await api.send("POST", "/v1/sessions/\(id)/next")
        #expect(reply["announcement"] == "This is the last page")
        #expect(reply["accessibility"]?["pager"]?["actions"] == ["decrement"])
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)/pages/music",
            json: #"{"accessibilityLabel": "Songs", "accessibilityHint": "Plays"}"#)
        #expect(reply["tabs"]?.arrayValue?.last?["accessibility"]?["label"] == "Songs")
        #expect(reply["tabs"]?.arrayValue?.last?["accessibility"]?["hint"] == "Plays")
        reply = await api.send("GET", "/v1/sessions/\(id)/pages")
        #expect(reply["pages"]?.arrayValue?.last?["accessibilityLabel"] == "Songs")
        reply = await api.send("PATCH", "/v1/sessions/\(id)/pages/music", json: #"{"accessibilityLabel": null}"#)
        #expect(reply["tabs"]?.arrayValue?.last?["accessibility"]?["label"] == "Music")
        reply = await api.send(
            "PATCH", "/v1/sessions/\(id)",
            json: #"{"accessibilityText": {"pageValueFormat": "{label}: {position} of {count}"}}"#)
        #expect(reply["accessibility"]?["pager"]?["value"] == "Music: 3 of 3")
        let refused = await api.send(
            "POST", "/v1/sessions",
            json: #"{"template": "media", "accessibilityText": {"tabValueFormat": "Tab {index}"}}"#)
        #expect(refused.status == 400 && refused.field == "accessibilityText.tabValueFormat")
        let long = String(repeating: "h", count: 201)
        let hint = await api.send(
            "POST", "/v1/sessions", json: #"{"pages": [{"id": "a", "title": "A", "accessibilityHint": "\#(long)"}]}"#)
        #expect(hint.status == 400 && hint.field == "pages[0].accessibilityHint")
    }
}
