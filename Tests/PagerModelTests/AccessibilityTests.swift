import Testing

@testable import PagerModel

/// docs/api.md «Accessibility» with its example and hand-worked placeholders, platform actions and
/// announcements.
@Suite("Accessibility descriptors and announcements")
struct AccessibilityTests {
    static func media(_ configure: (inout PagerSettings) -> Void = { _ in }) throws -> Pager {
        try Pager(
            pages: [
                Page(id: "photos", title: "Photos"), Page(id: "videos", title: "Videos"),
                Page(id: "music", title: "Music"),
            ],
            settings: {
                var settings = PagerSettings()
                configure(&settings)
                return settings
            }())
    }

    @Test("media: tab 0 is selected with no actions, tab 1 activatable; the pager increments to the right")
    func mediaExample() throws {
        let media = try Self.media()
        let tabs = media.tabAccessibility
        #expect(
            tabs[0]
                == TabAccessibility(
                    label: "Photos", hint: nil, value: "Tab 1 of 3", selected: true, traits: ["button", "selected"],
                    actions: []))
        #expect(tabs[1].actions == ["activate"] && tabs[1].traits == ["button"])
        let pager = media.pagerAccessibility
        #expect(pager.value == "Page 1 of 3" && pager.traits == ["adjustable"] && pager.actions == ["increment"])
        #expect(pager.platformActions == ["pageRight"] && pager.liveRegion == "polite")
    }

    @Test("select music announces its label and value; next at the end announces the last page message")
    func announcements() throws {
        let media = try Self.media()
        let jump = try media.applying(.select(.id("music"), path: .direct))
        #expect(jump.announcement == "Music, Page 3 of 3")
        #expect(jump.pager.pagerAccessibility.actions == ["decrement"])
        #expect(try jump.pager.applying(.next).announcement == "This is the last page")
        #expect(try media.applying(.previous).announcement == "This is the first page")
        #expect(try media.applying(.select(.index(0), path: .direct)).announcement == nil)
        #expect(try media.applying(.scroll(.progress(0.3))).announcement == nil)
    }

    @Test("every placeholder is replaced; braces that are not a placeholder stay literal; an unknown one is refused")
    func placeholders() throws {
        var texts = AccessibilityText()
        texts.pageValueFormat = "{label} ({title}) is {position}/{count} {not closed {} {1} }"
        texts.lastPageMessage = "End of {count} at {label}"
        var media = try Self.media { $0.accessibilityText = texts }
        media = try media.applying(
            .update(pageID: "music", PageUpdate(title: "Songs"))
        ).pager
        var labelled = PageUpdate()
        labelled.accessibilityLabel = .set("Your music")
        media = try media.applying(.update(pageID: "music", labelled)).pager
        let outcome = try media.applying(.select(.index(2), path: .direct))
        #expect(outcome.pager.pagerAccessibility.value == "Your music (Songs) is 3/3 {not closed {} {1} }")
        #expect(try outcome.pager.applying(.next).announcement == "End of 3 at Your music")
        for (member, text) in [
            ("tabValueFormat", "Tab {index}"), ("pageValueFormat", "{Position}"), ("firstPageMessage", "{x}"),
            ("lastPageMessage", String(repeating: "a", count: 201)),
        ] {
            var bad = AccessibilityText()
            switch member {
            case "tabValueFormat": bad.tabValueFormat = text
            case "pageValueFormat": bad.pageValueFormat = text
            case "firstPageMessage": bad.firstPageMessage = text
            default: bad.lastPageMessage = text
            }
            do {
                _ = try Self.media { $0.accessibilityText = bad }
                Issue.record("\(member) accepted")
            } catch let error as PagerError {
                #expect(error.field == "accessibilityText.\(member)")
            }
        }
    }

    @Test("formatting writes every piece in place: long and non-ASCII values, unknown braces, a leading label")
    func formatting() {
        let long = String(repeating: "상품 ", count: 60)
        #expect(
            AccessibilityText.format(
                "{title}|{label}|{position}/{count}|{other}|{", position: 1234, count: 99999, title: long, label: "é")
                == "\(long)|é|1234/99999|{other}|{")
        #expect(
            AccessibilityText.format("{position}{position}{count}", position: 7, count: 8, title: "", label: "")
                == "778")
        #expect(
            AccessibilityText.format(
                "Page {position} of {count}", position: 2, count: 4, title: "T", label: "Maps",
                leading: "Maps") == "Maps, Page 2 of 4")
        #expect(AccessibilityText.format("", position: 1, count: 1, title: "", label: "") == "")
    }

    @Test("a label falls back to the title, then the id; a hint shows only when not empty")
    func labels() throws {
        let pager = try Pager(pages: [
            Page(id: "a", title: "", accessibilityLabel: ""), Page(id: "b", title: "Bee", accessibilityHint: ""),
            Page(id: "c", title: "Sea", accessibilityLabel: "Ocean", accessibilityHint: "Double tap to dive"),
        ])
        #expect(pager.tabAccessibility.map(\.label) == ["a", "Bee", "Ocean"])
        #expect(pager.tabAccessibility.map(\.hint) == [nil, nil, "Double tap to dive"])
    }

    @Test("platform names follow direction and orientation; a locked direction drops its action")
    func platformActions() throws {
        let middle = try Self.media().applying(.next).pager
        #expect(middle.pagerAccessibility.platformActions == ["pageRight", "pageLeft"])
        var settings = middle.settings
        settings.layoutDirection = .rtl
        let rtl = try middle.applying(.updateSettings(settings)).pager
        #expect(rtl.pagerAccessibility.actions == ["increment", "decrement"])
        #expect(rtl.pagerAccessibility.platformActions == ["pageLeft", "pageRight"])
        settings.orientation = .vertical
        let vertical = try middle.applying(.updateSettings(settings)).pager
        #expect(vertical.pagerAccessibility.platformActions == ["pageDown", "pageUp"])
        settings.swipe = .reverse
        let locked = try middle.applying(.updateSettings(settings)).pager
        #expect(
            locked.pagerAccessibility.actions == ["decrement"]
                && locked.pagerAccessibility.platformActions == ["pageUp"])
        settings.swipe = .none
        let none = try middle.applying(.updateSettings(settings)).pager
        #expect(none.pagerAccessibility.actions.isEmpty && none.pagerAccessibility.traits.isEmpty)
        #expect(try Pager(pages: []).pagerAccessibility.value == nil)
    }

    @Test("a tab's selected follows the index, not a transition")
    func selectedFollowsIndex() throws {
        let swiping = try Self.media().after(.scroll(.progress(0.9)))
        #expect(swiping.tabAccessibility.map(\.selected) == [true, false, false])
        #expect(swiping.tabs.map(\.selected) == [false, true, false])
    }

    @Test(
        "tab(at:) and tabAccessibility(at:) give exactly the listed tabs; a changed copy keeps the original's settings"
    )
    func tabsOneByOneMatchTheLists() throws {
        let original = try Self.media { $0.accessibilityText.tabValueFormat = "{title}: {position} of {count}" }
        let swiping = try original.after(.scroll(.progress(0.4)))
        let visited = swiping.pages.indices.map { (swiping.tab(at: $0), swiping.tabAccessibility(at: $0)) }
        #expect(swiping.hasTabBar)
        #expect(visited.map(\.0) == swiping.tabs && visited.map(\.1) == swiping.tabAccessibility)
        #expect(visited.map(\.1.value) == ["Photos: 1 of 3", "Videos: 2 of 3", "Music: 3 of 3"])
        // Settings are shared between copies until one changes them.
        var changed = try original.applying(
            .updateSettings(
                {
                    var settings = original.settings
                    settings.accessibilityText.tabValueFormat = "#{position}"
                    return settings
                }())
        ).pager
        #expect(changed.tabAccessibility.map(\.value) == ["#1", "#2", "#3"])
        #expect(original.tabAccessibility.map(\.value) == ["Photos: 1 of 3", "Videos: 2 of 3", "Music: 3 of 3"])
        changed = try changed.applying(.next).pager
        #expect(
            changed.settings != original.settings && changed.settings.accessibilityText.tabValueFormat == "#{position}")
        var unchanged = try original.applying(.next).pager
        #expect(unchanged.settings == original.settings)
        unchanged = try Pager(pages: [], settings: unchanged.settings)
        #expect(unchanged.tabAccessibility.isEmpty && unchanged.tabs.isEmpty && unchanged.hasTabBar)
        let bare = try Self.media { $0.tabBar.layout = .none }
        #expect(!bare.hasTabBar && bare.tabs.isEmpty && bare.tabAccessibility.count == 3)
    }
}
