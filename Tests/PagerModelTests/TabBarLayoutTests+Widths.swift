import PagerModel
import Testing

// Bounded tab widths with the automatic layout, and a selected tab of its own width.
extension TabBarLayoutTests {
    // MARK: - Bounded widths and auto

    @Test(
        "Material's bounds: an estimate above maxTabWidth is cut to it; a tabWidth is taken as given",
        arguments: [
            (100.0, 48.0, [String(repeating: "a", count: 41)], [100.0]),
            (
                120.0, 80.0, ["ab", "abcdefgh", "abcdefghijk", "abcdefghijkl", String(repeating: "a", count: 41)],
                [80.0, 96, 120, 120, 120]
            ),
        ])
    func boundedWidths(maximum: Double, minimum: Double, titles: [String], widths: [Double]) throws {
        let pager = try makePager(titles.count, layout: .scrollable, titles: titles) {
            $0.tabBar.maxTabWidth = maximum
            $0.tabBar.minTabWidth = minimum
        }
        #expect(pager.tabs.map(\.frame.width) == widths)
        // A page's own width is not bounded; fixed tabs ignore both bounds.
        let given = try makePager(1, layout: .scrollable, widths: [300]) { $0.tabBar.maxTabWidth = maximum }
        #expect(given.tabs.map(\.frame.width) == [300])
        let fixed = try makePager(titles.count, titles: titles) { $0.tabBar.maxTabWidth = maximum }
        #expect(fixed.tabs.map(\.frame.width) == Array(repeating: 390 / Double(titles.count), count: titles.count))
    }

    @Test(
        "auto is fixed when the widest tab fits an equal share, else scrollable",
        arguments: [
            ("media, 390", 390.0, ["Photos", "Videos", "Music"], 48.0, 16.0, TabLayout.fixed, [0.0, 130, 260], 390.0),
            ("media, 200", 200, ["Photos", "Videos", "Music"], 48, 16, .scrollable, [0, 80, 160], 232),
            (
                "MDC fixed-width layout", 160, (0..<8).map { "Tab \($0)" }, 72, 12, .scrollable,
                (0..<8).map { Double($0) * 72 }, 576
            ),
            ("MDC, its first two tabs", 160, ["Tab 0", "Tab 1"], 72, 12, .fixed, [0, 80], 160),
        ])
    func auto(
        name: String, viewport: Double, titles: [String], minimum: Double, padding: Double, effective: TabLayout,
        xs: [Double], contentWidth: Double
    ) throws {
        let pager = try makePager(titles.count, layout: .auto, width: viewport, titles: titles) {
            $0.tabBar.minTabWidth = minimum
            $0.tabBar.tabPadding = padding
        }
        #expect(pager.tabBar.layout == .auto && pager.tabBar.effectiveLayout == effective)
        #expect(Self.xs(pager) == xs)
        expectClose(pager.tabBar.contentWidth, contentWidth)
    }

    @Test("auto: no pages is an empty fixed bar; re-decided by page changes and settings, never by a swipe")
    func autoDecisions() throws {
        let empty = try makePager(0, layout: .auto)
        #expect(empty.tabBar.effectiveLayout == .fixed && empty.tabBar.contentWidth == 390)
        var pager = try makePager(3, layout: .auto, titles: ["Photos", "Videos", "Music"])
        #expect(pager.tabBar.effectiveLayout == .fixed)
        pager = try pager.after(.insert(Page(id: "long", title: String(repeating: "x", count: 30)), at: nil))
        #expect(pager.tabBar.effectiveLayout == .scrollable)
        pager = try pager.after(.scroll(.progress(0.5)))
        #expect(pager.tabBar.effectiveLayout == .scrollable)
        var wide = pager.settings
        wide.viewportWidth = 2000
        #expect(try pager.after(.updateSettings(wide)).tabBar.effectiveLayout == .fixed)
        // Without auto there is no effective layout to report.
        #expect(try makePager(3).tabBar.effectiveLayout == nil)
        // An auto bar never refuses: fixed tabs that would be 0 wide make it scrollable.
        let crowded = try makePager(3, layout: .auto, width: 100) { $0.tabBar.inset = 60 }
        #expect(crowded.tabBar.effectiveLayout == .scrollable)
    }

    @Test("a maximum below the minimum is refused naming tabBar.maxTabWidth; bad values name their path")
    func boundErrors() throws {
        let pager = try makePager(3, layout: .scrollable)
        func refusal(_ change: (inout PagerSettings) -> Void) -> String? {
            var settings = pager.settings
            change(&settings)
            do {
                _ = try pager.applying(.updateSettings(settings))
                return nil
            } catch {
                return error.field
            }
        }
        #expect(refusal { $0.tabBar.maxTabWidth = 40 } == "tabBar.maxTabWidth")
        #expect(
            refusal {
                $0.tabBar.maxTabWidth = 100; $0.tabBar.minTabWidth = 120
            } == "tabBar.maxTabWidth")
        #expect(refusal { $0.tabBar.maxTabWidth = 0 } == "tabBar.maxTabWidth")
        #expect(refusal { $0.tabBar.selectedTabWidth = -1 } == "tabBar.selectedTabWidth")
        #expect(refusal { $0.tabBar.selectedTabWidth = .infinity } == "tabBar.selectedTabWidth")
        #expect(refusal { $0.tabBar.indicatorInset.firstLeading = -1 } == "tabBar.indicator.inset.firstLeading")
        #expect(refusal { $0.tabBar.indicatorInset.trailing = .nan } == "tabBar.indicator.inset.trailing")
        #expect(refusal { $0.tabBar.maxTabWidth = 48 } == nil)
        // The comparison allows 1e-9, as every one that picks a case does.
        #expect(refusal { $0.tabBar.maxTabWidth = 48 - 1e-12 } == nil)
        #expect(refusal { $0.tabBar.maxTabWidth = 48 - 1e-8 } == "tabBar.maxTabWidth")
    }

    // MARK: - Selected tab width

    /// Parchment's size-delegate pages: "Page 0" to "Page 2", each 50 wide, the selected 100.
    static func sized(
        initial: Int = 0, mode: PagerMode = .bounded, configure: (inout PagerSettings) -> Void = { _ in }
    ) throws -> Pager {
        try makePager(3, mode: mode, layout: .scrollable, initial: initial) {
            $0.tabBar.selectedTabWidth = 100
            $0.tabBar.minTabWidth = 50
            $0.tabBar.tabPadding = 0
            $0.tabBar.charWidth = 1
            configure(&$0)
        }
    }

    @Test("Parchment cellFramesForSizeDelegate: the selected tab is 100, the others 50, across a swipe")
    func selectedWidth() throws {
        let pager = try Self.sized()
        expectFrames(pager.tabs.map(\.frame), [(0, 100), (100, 50), (150, 50)])
        #expect(pager.tabs.map(\.baseWidth) == [50, 50, 50])
        expectClose(pager.tabBar.contentWidth, 200)
        let half = try pager.after(.scroll(.progress(0.5)))
        expectFrames(half.tabs.map(\.frame), [(0, 75), (75, 75), (150, 50)])
        expectClose(half.indicator?.x, 37.5)
        expectClose(half.indicator?.width, 75)
        let done = try half.after(.endTransition(completed: true))
        expectFrames(done.tabs.map(\.frame), [(0, 50), (50, 100), (150, 50)])
        expectClose(done.indicator?.x, 50)
        expectClose(done.indicator?.width, 100)
        let jump = try pager.applying(.select(.index(2), path: .direct))
        #expect(jump.keyframes?.map { $0.indicator?.x } == [50, 100])
        #expect(jump.keyframes?.map { $0.indicator?.width } == [100, 100])
        // Right to left at rest, mirrored within C = 200.
        #expect(Self.xs(try Self.sized { $0.layoutDirection = .rtl }) == [100, 50, 0])
        // In a loop at index 2 half way to 0, C stays 200 and the indicator wraps.
        let loop = try Self.sized(initial: 2, mode: .loop).after(.scroll(.progress(0.5)))
        expectFrames(loop.tabs.map(\.frame), [(0, 75), (75, 50), (125, 75)])
        expectClose(loop.indicator?.x, 162.5)
        expectFrames(loop.indicator?.segments, [(162.5, 37.5), (0, 37.5)])
    }

    @Test(
        "Parchment PagingDistanceCentered with a size delegate: the end points of each scroll",
        arguments: [
            (20, 50.0, 100.0, 3, [PagerCommand](), 0.0),
            (20, 50, 100, 3, [.scroll(.progress(0.5))], 25),
            (20, 50, 100, 3, [.scroll(.progress(0.5)), .endTransition(completed: true)], 50),
            (20, 50, 100, 3, [.select(.index(2), path: .direct)], 0),
            (11, 50, 500, 6, [], 350),
        ])
    func centredDistance(
        count: Int, width: Double, selected: Double, initial: Int, commands: [PagerCommand], offset: Double
    )
        throws
    {
        var pager = try Self.bar(count, of: width, viewport: 400, initial: initial) {
            $0.tabBar.selectedTabWidth = selected
        }
        expectClose(pager.tabBar.contentWidth, Double(count - 1) * width + selected)
        for command in commands { pager = try pager.after(command) }
        expectClose(pager.tabBar.offset, offset)
    }

    @Test("a huge selected width: keyframes each lay the bar out with their own tab selected")
    func hugeSelectedWidth() throws {
        let pager = try Self.bar(11, of: 50, viewport: 400, initial: 6) { $0.tabBar.selectedTabWidth = 500 }
        let jump = try pager.applying(.select(.index(10), path: .direct))
        #expect(jump.keyframes?.map(\.tabBarOffset) == [400, 450, 500, 550])
    }

    @Test("selected width with tracking, elastic, fade, overscroll, alignment and a fixed bar (hand-worked)")
    func selectedWidthInterplay() throws {
        // Halfway: the widths swap at 0.5.
        let halfway = try Self.sized { $0.tabBar.indicatorTracking = .halfway }
        expectFrames(try halfway.after(.scroll(.progress(0.4))).tabs.map(\.frame), [(0, 100), (100, 50), (150, 50)])
        let swapped = try halfway.after(.scroll(.progress(0.5)))
        expectFrames(swapped.tabs.map(\.frame), [(0, 50), (50, 100), (150, 50)])
        expectClose(swapped.indicator?.x, 50)
        // Settled: nothing moves until the index changes.
        let settled = try Self.sized { $0.tabBar.indicatorTracking = .settled }.after(.scroll(.progress(0.9)))
        expectFrames(settled.tabs.map(\.frame), [(0, 100), (100, 50), (150, 50)])
        expectFrames(
            try settled.after(.endTransition(completed: true)).tabs.map(\.frame), [(0, 50), (50, 100), (150, 50)])
        // Elastic between the frames of the moment, (0, 75) and (75, 75): L = 75·(1 − cos π/4),
        // R = 75 + 75·sin π/4.
        let elastic = try Self.sized { $0.tabBar.indicatorStyle = .elastic }.after(.scroll(.progress(0.5)))
        expectClose(elastic.indicator?.x, 21.9669914)
        expectClose(elastic.indicator?.width, 106.0660172)
        // Fade shows a tab's frame of the moment: at 0.75 tab 0 is 62.5 wide, so tab 1 is (62.5, 87.5).
        let fade = try Self.sized { $0.tabBar.indicatorStyle = .fade }.after(.scroll(.progress(0.75)))
        expectClose(fade.indicator?.x, 62.5)
        expectClose(fade.indicator?.width, 87.5)
        // An overscroll keeps the rest widths: index 2 pulled 0.2 with a bounce, x 100 + 0.2·100.
        let pulled = try Self.sized(initial: 2) {
            $0.rubberBand.style = .linear
            $0.tabBar.indicatorOverscroll = .bounce
        }.after(.scroll(.progress(0.2)))
        expectFrames(pulled.tabs.map(\.frame), [(0, 50), (50, 50), (100, 100)])
        expectClose(pulled.indicator?.x, 120)
        // With alignment, C_0 (and so Δ) changes during the swipe: widths 50, 80, 50 and S 100 in 320.
        let centred = try makePager(3, layout: .scrollable, width: 320, widths: [50, 80, 50]) {
            $0.tabBar.selectedTabWidth = 100
            $0.tabBar.alignment = .center
        }
        #expect(Self.xs(centred) == [45, 145, 225])
        let moving = try centred.after(.scroll(.progress(0.5)))
        #expect(Self.xs(moving) == [52.5, 127.5, 217.5])
        expectClose(moving.indicator?.x, 90)
        expectClose(moving.indicator?.width, 82.5)
        // A fixed bar ignores the selected width and reports no base width.
        let fixed = try makePager(3) { $0.tabBar.selectedTabWidth = 100 }
        #expect(fixed.tabs.map(\.frame.width) == [130, 130, 130] && fixed.tabs.allSatisfy { $0.baseWidth == nil })
        let sized = try Self.sized()
        #expect(fixed.hasTabsAtRest && !sized.hasTabsAtRest)
    }
}
