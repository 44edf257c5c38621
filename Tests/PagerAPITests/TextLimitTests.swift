import Foundation
import JSON
import PagerModel
import PagerSessions
import TestSupport
import Testing

@testable import PagerAPI

/// Texts are bounded in UTF-8 bytes as well as in characters, so that a state document is bounded
/// by the limits whatever the texts hold.
@Suite("Texts bounded in bytes, and the largest state document")
struct TextLimitTests {
    /// One character of 32,001 code points: a letter under 32,000 combining accents (64 KB).
    static let heavy = "b" + String(repeating: "\u{301}", count: 32_000)

    @Test(
        "a text of few characters but many bytes is refused, naming it",
        arguments: [
            (#"{"pages": [{"id": "a", "title": "HEAVY"}]}"#, "pages[0].title"),
            (#"{"pages": [{"id": "a", "title": "A", "accessibilityLabel": "HEAVY"}]}"#, "pages[0].accessibilityLabel"),
            (#"{"pages": [{"id": "a", "title": "A", "accessibilityHint": "HEAVY"}]}"#, "pages[0].accessibilityHint"),
            (#"{"pages": [], "emptyState": {"title": "HEAVY"}}"#, "emptyState.title"),
            (#"{"pages": [], "trailingAction": {"id": "x", "title": "HEAVY"}}"#, "trailingAction.title"),
            (#"{"pages": [], "accessibilityText": {"tabValueFormat": "HEAVY"}}"#, "accessibilityText.tabValueFormat"),
            (#"{"pages": [{"id": "a", "title": "A", "tab": {"icon": "HEAVY"}}]}"#, "pages[0].tab.icon"),
            (#"{"pages": [{"id": "a", "title": "A", "tab": {"badge": "HEAVY"}}]}"#, "pages[0].tab.badge"),
            (
                #"{"pages": [{"id": "a", "title": "A", "stack": [{"id": "s", "title": "HEAVY"}]}]}"#,
                "pages[0].stack[0].title"
            ),
        ])
    func heavyText(body: String, field: String) async throws {
        let api = try APITester()
        let reply = await api.send(
            "POST", "/v1/sessions", json: body.replacingOccurrences(of: "HEAVY", with: Self.heavy))
        #expect(reply.status == 400 && reply.code == "invalid_request" && reply.field == field)
        #expect(api.engine.sessionCount == 0)
    }

    @Test(
        "200 characters of four bytes each are a text; the accessibility texts name {title} and {label} four times at most"
    )
    func limits() async throws {
        let api = try APITester()
        let widest = String(repeating: "𝒜", count: 200)  // U+1D49C: four bytes
        #expect(widest.utf8.count == Page.maxTitleBytes)
        let id = try await api.create(#"{"pages": [{"id": "a", "title": "\#(widest)"}]}"#)
        #expect(await api.send("GET", "/v1/sessions/\(id)")["page"]?["title"]?.stringValue == widest)
        let four = await api.send(
            "PATCH", "/v1/sessions/\(id)",
            json: #"{"accessibilityText": {"tabValueFormat": "{title} {label} {title} {label}"}}"#)
        #expect(four.status == 200)
        let five = await api.send(
            "PATCH", "/v1/sessions/\(id)",
            json: #"{"accessibilityText": {"pageValueFormat": "{title}{title}{title}{label}{label}"}}"#)
        #expect(five.status == 400 && five.field == "accessibilityText.pageValueFormat")
    }

    /// Every text at its longest as JSON writes it (control characters, six bytes each escaped:
    /// more than four-byte characters), every page with the most content, the current page's stack
    /// full, the most neighbours preloaded, on 1,000 pages: the largest state document the limits
    /// allow (the budgets are lifted here, so that only the limits bound it).
    static func largestPager() throws -> Pager {
        let text = String(repeating: "\u{1}", count: Page.maxTitleLength)
        let limits = PagerLimits(sessionBudgetBytes: .max)
        var blob = JSONObject()
        blob["b"] = .string(String(repeating: "x", count: limits.maxContentBytes - 8))
        var settings = PagerSettings()
        settings.preload = PagerSettings.maxPreload
        settings.tabBar.layout = .scrollable
        settings.tabBar.title = TitleStyle()
        let format = "{title}{label}{title}{label}" + String(repeating: "\u{1}", count: Page.maxTitleLength - 28)
        settings.accessibilityText.tabValueFormat = format
        settings.accessibilityText.pageValueFormat = format
        settings.trailingAction = PagerAction(id: String(repeating: "t", count: 64), title: text)
        let icon = String(repeating: "\u{1}", count: TabDecoration.maxIconLength)
        let badge = String(repeating: "\u{1}", count: TabDecoration.maxBadgeLength)
        let pages = (0..<limits.maxPages).map { n in
            Page(
                id: String(format: "%064d", n), title: text, content: blob,
                stack: n == 500
                    ? (0..<limits.maxStackDepth).map {
                        Screen(id: String(repeating: "s", count: 63) + "\($0 % 10)", title: text, content: blob)
                    }
                    : [],
                tab: TabDecoration(icon: icon, badge: .text(badge)), accessibilityLabel: text, accessibilityHint: text)
        }
        var pager = try Pager(pages: pages, initialPage: .index(500), settings: settings, limits: limits)
        pager = try pager.applying(.scroll(.progress(0.5)), limits: limits).pager
        return pager
    }

    @Test("the largest state document the limits allow is at most 32 MB, whatever the budgets")
    func largestDocument() async throws {
        // Built and written on a thread of its own: seconds of work that would otherwise hold one
        // of the two task threads that the servers of the tests run beside it answer on.
        let count = try await onThread {
            let pager = try Self.largestPager()
            return StateDocument.encode(SessionSnapshot(id: "AAAAAAAAAAAAAAAAAAAAAA", pager: pager)).count
        }
        print("largest state document: \(count) bytes")
        #expect(count <= 32_000_000)
        #expect(count > 20_000_000, "the document should be near its bound: \(count)")
    }
}
