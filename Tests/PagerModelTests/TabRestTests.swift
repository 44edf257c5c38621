import PagerModel
import PropertyBased
import Testing

/// The contract the state document's tab forms rest on: a tab at rest is described as
/// `tabAtRest` says, and the layout key changes whenever what that reads changes.
@Suite("Tabs at rest and the tab layout key")
struct TabRestTests {
    /// Pages with icons, badges, accessibility labels and hints, in one of several settings.
    static func pager(_ variant: Int, count: Int) throws -> Pager {
        let trackings: [IndicatorTracking] = [.continuous, .halfway, .settled]
        let layouts: [TabLayout] = [.fixed, .scrollable]
        let pages = (0..<count).map { i in
            Page(
                id: "p\(i)", title: ["상품", "Chat", "", "A \"quoted\" tab"][i % 4],
                tab: i % 3 == 0 ? TabDecoration(icon: "star", badge: i % 2 == 0 ? .count(i) : .text("new")) : nil,
                accessibilityLabel: i % 4 == 1 ? "Label \(i)" : nil, accessibilityHint: i % 5 == 2 ? "Hint" : nil)
        }
        var settings = PagerSettings()
        settings.mode = variant % 2 == 0 ? .bounded : .loop
        settings.tabBar.layout = layouts[variant % 2]
        settings.tabBar.indicatorTracking = trackings[variant % 3]
        settings.layoutDirection = variant % 4 < 2 ? .ltr : .rtl
        if variant % 5 != 0 { settings.tabBar.title = TitleStyle() }
        return try Pager(pages: pages, settings: settings)
    }

    @Test("every tab at rest is described exactly as tabAtRest describes it, in every state a command reaches")
    func restingTabsMatch() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: 0...100_000).array(of: 1...40), Gen.int(in: 0...11), Gen.int(in: 2...6)
        ) { codes, variant, count in
            var pager = try! Self.pager(variant, count: count)
            var atRest = 0, notAtRest = 0
            func check(_ pager: Pager) {
                let tabs = pager.tabs, described = pager.tabAccessibility
                for position in pager.pages.indices {
                    guard pager.isTabAtRest(position) else {
                        notAtRest += 1
                        continue
                    }
                    atRest += 1
                    let (tab, accessibility) = pager.tabAtRest(position)
                    #expect(tab == tabs[position], "tab \(position) of \(pager.count)")
                    #expect(accessibility == described[position], "tab \(position) of \(pager.count)")
                }
            }
            check(pager)
            for code in codes {
                guard let outcome = try? pager.applying(command(from: code, count: pager.count)) else { continue }
                pager = outcome.pager
                check(pager)
            }
            // Both kinds occur: the property is about something.
            #expect(atRest > 0 && notAtRest > 0)
        }
    }

    @Test("walking the tabs gives the listed tabs and descriptors")
    func walkingTabs() throws {
        let pager = try Self.pager(1, count: 5).after(.beginTransition(to: 1)).after(.scroll(.progress(0.3)))
        var walked: [(Tab, TabAccessibility)] = []
        pager.forEachTab { position, describe in
            #expect(position == walked.count)
            walked.append(describe())
        }
        #expect(walked.map(\.0) == pager.tabs && walked.map(\.1) == pager.tabAccessibility)
        #expect(!pager.isTabAtRest(0) && !pager.isTabAtRest(1) && pager.isTabAtRest(2) && pager.isTabAtRest(4))
    }

    @Test("the key stays while only the position moves, and changes with the pages or the settings")
    func layoutKey() throws {
        let pager = try Self.pager(0, count: 4)
        let moved = try pager.after(.next).after(.scroll(.progress(0.4))).after(.endTransition(completed: true))
        #expect(moved.index != pager.index && moved.tabLayoutKey == pager.tabLayoutKey)
        let renamed = try pager.after(.update(pageID: "p1", PageUpdate(title: "Renamed")))
        #expect(renamed.tabLayoutKey != pager.tabLayoutKey)
        let inserted = try pager.after(.insert(Page(id: "n", title: "N"), at: 0))
        #expect(inserted.tabLayoutKey != pager.tabLayoutKey)
        var changed = pager.settings
        changed.viewportWidth = 500
        let resized = try pager.after(.updateSettings(changed))
        #expect(resized.tabLayoutKey != pager.tabLayoutKey)
        // The original is untouched by its copies' changes, and still has its own key.
        let twin = try Self.pager(0, count: 4)
        #expect(pager.tabLayoutKey == pager.tabLayoutKey && pager.tabs == twin.tabs)
        // Equal values made apart are not the same storage: a key names storage, not values.
        #expect(twin.tabLayoutKey != pager.tabLayoutKey)
    }

    @Test("a stored position laid on a pager gives what restoring it whole gives, and keeps the pager's key")
    func restoringAPosition() throws {
        let pager = try Self.pager(1, count: 5)
        let moved = try pager.after(.next).after(.beginTransition(to: 2)).after(.scroll(.progress(0.4)))
        let laid = try pager.restoring(
            index: moved.index, transition: moved.transition, overscroll: nil, version: moved.version,
            timer: moved.timer)
        let whole = try Pager(
            restoring: pager.pages, index: moved.index, transition: moved.transition, settings: pager.settings,
            catalog: pager.catalog, version: moved.version, timer: moved.timer)
        #expect(laid == whole && laid.tabs == moved.tabs && laid.index == 1)
        #expect(laid.tabLayoutKey == pager.tabLayoutKey && whole.tabLayoutKey != pager.tabLayoutKey)
        #expect(throws: PagerError.self) {
            try pager.restoring(index: 9, transition: nil, overscroll: nil, version: 3, timer: .idle)
        }
        #expect(throws: PagerError.self) {
            try pager.restoring(
                index: 0, transition: Transition(from: 0, to: 3, progress: 0.5, direction: .forward), overscroll: nil,
                version: 3, timer: .idle)
        }
    }
}
