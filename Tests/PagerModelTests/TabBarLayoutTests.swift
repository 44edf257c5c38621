import PagerModel
import Testing

/// The tab bar layout settings with the worked numbers of the device libraries' own tests
/// (PagingKit, Parchment, Material Components) and hand-worked ones for each interplay: tab
/// alignment, where the selected tab scrolls to, the indicator inset, bounded widths with the
/// automatic layout, and a selected tab of its own width.
@Suite("Tab bar layouts: alignment, scroll position, indicator inset, bounded widths, selected width")
struct TabBarLayoutTests {
    /// `count` scrollable tabs of `width` in a viewport `viewport` wide.
    static func bar(
        _ count: Int, of width: Double, viewport: Double, mode: PagerMode = .bounded, initial: Int? = nil,
        configure: (inout PagerSettings) -> Void = { _ in }
    ) throws -> Pager {
        try makePager(
            count, mode: mode, layout: .scrollable, width: viewport, widths: Array(repeating: width, count: count),
            initial: initial, configure: configure)
    }

    static func xs(_ pager: Pager) -> [Double] { pager.tabs.map(\.frame.x) }

    // MARK: - Alignment

    struct AlignmentCase: CustomTestStringConvertible, Sendable {
        var name: String
        var count: Int
        var width: Double
        var viewport: Double
        var alignment: TabBarPosition
        var inset: Double = 0
        var spacing: Double = 0
        var xs: [Double]
        var contentWidth: Double
        var testDescription: String { name }
    }

    @Test(
        "tabs narrower than the bar sit at its leading edge, centre or trailing edge",
        arguments: [
            AlignmentCase(
                name: "PagingKit leading", count: 3, width: 50, viewport: 320, alignment: .leading, xs: [0, 50, 100],
                contentWidth: 150),
            AlignmentCase(
                name: "PagingKit center", count: 3, width: 50, viewport: 320, alignment: .center, xs: [85, 135, 185],
                contentWidth: 320),
            AlignmentCase(
                name: "PagingKit trailing", count: 3, width: 50, viewport: 320, alignment: .trailing,
                xs: [170, 220, 270], contentWidth: 320),
            AlignmentCase(
                name: "center, inset 10 (C_0 170, Δ 75)", count: 3, width: 50, viewport: 320, alignment: .center,
                inset: 10, xs: [85, 135, 185], contentWidth: 320),
            AlignmentCase(
                name: "Parchment center: 3 tabs of 10 in 390", count: 3, width: 10, viewport: 390, alignment: .center,
                xs: [180, 190, 200], contentWidth: 390),
            AlignmentCase(
                name: "hand-worked trailing, inset 10 and spacing 5 (C_0 180)", count: 3, width: 50, viewport: 320,
                alignment: .trailing, inset: 10, spacing: 5, xs: [150, 205, 260], contentWidth: 320),
        ])
    func alignment(_ example: AlignmentCase) throws {
        let pager = try Self.bar(example.count, of: example.width, viewport: example.viewport) {
            $0.tabBar.alignment = example.alignment
            $0.tabBar.inset = example.inset
            $0.tabBar.spacing = example.spacing
        }
        expectFrames(pager.tabs.map(\.frame), example.xs.map { ($0, example.width) })
        expectClose(pager.tabBar.contentWidth, example.contentWidth)
        expectClose(pager.indicator?.x, example.xs[0])
        expectClose(pager.tabBar.offset, 0)
    }

    @Test("a row wider than the bar is not moved: twenty tabs of 100 centred start at 0")
    func overflowingRow() throws {
        let pager = try Self.bar(20, of: 100, viewport: 320) { $0.tabBar.alignment = .center }
        expectClose(pager.tabs.first?.frame.x, 0)
        expectClose(pager.tabBar.contentWidth, 2000)
        // Fixed tabs fill the bar already: the setting changes nothing.
        let fixed = try makePager(3, width: 320) { $0.tabBar.alignment = .trailing }
        #expect(Self.xs(fixed) == Self.xs(try makePager(3, width: 320)))
    }

    @Test("alignment: the indicator moves between the shifted frames; right to left mirrors within C = W")
    func alignmentInterplay() throws {
        let centred = try Self.bar(3, of: 50, viewport: 320) { $0.tabBar.alignment = .center }
        expectClose(try centred.after(.scroll(.progress(0.5))).indicator?.x, 110)
        // RTL: trailing tabs sit at the left; centred ones stay centred.
        let trailing = try Self.bar(3, of: 50, viewport: 320) {
            $0.tabBar.alignment = .trailing
            $0.layoutDirection = .rtl
        }
        #expect(Self.xs(trailing) == [100, 50, 0])
        expectClose(trailing.indicator?.x, 100)
        var rtlCentred = centred.settings
        rtlCentred.layoutDirection = .rtl
        #expect(Self.xs(try centred.after(.updateSettings(rtlCentred))) == [185, 135, 85])
        // A loop's seam period is C = W: from 185 toward 85 + 320.
        let loop = try Self.bar(3, of: 50, viewport: 320, mode: .loop, initial: 2) { $0.tabBar.alignment = .center }
            .after(.scroll(.progress(0.5)))
        expectClose(loop.indicator?.x, 295)
        expectFrames(loop.indicator?.segments, [(295, 25), (0, 25)])
        // Hand-worked: halfway tracking jumps between the shifted frames; keyframes use them too.
        var halfway = centred.settings
        halfway.tabBar.indicatorTracking = .halfway
        let tracking = try centred.after(.updateSettings(halfway))
        expectClose(try tracking.after(.scroll(.progress(0.4))).indicator?.x, 85)
        expectClose(try tracking.after(.scroll(.progress(0.5))).indicator?.x, 135)
        let jump = try centred.applying(.select(.index(2), path: .direct))
        #expect(jump.keyframes?.map { $0.indicator?.x } == [135, 185])
        #expect(jump.keyframes?.map(\.tabBarOffset) == [0, 0])
    }

    @Test("alignment with progressive: the fill grows from Δ (hand-worked: Δ 85, tab 1 at 135)")
    func alignmentProgressive() throws {
        let pager = try Self.bar(3, of: 50, viewport: 320, initial: 1) {
            $0.tabBar.alignment = .center
            $0.tabBar.indicatorProgressive = true
        }
        expectClose(pager.indicator?.x, 85)
        expectClose(pager.indicator?.width, 100)
        expectFrames(pager.indicator?.segments, [(85, 100)])
        // Mirrored: 320 − 85 − 100 = 135.
        var rtl = pager.settings
        rtl.layoutDirection = .rtl
        let mirrored = try pager.after(.updateSettings(rtl))
        expectClose(mirrored.indicator?.x, 135)
        expectFrames(mirrored.indicator?.segments, [(135, 100)])
        // Pulled back past the first tab with a bounce: F's right edge before Δ leaves no fill.
        let start = try Self.bar(3, of: 50, viewport: 320) {
            $0.tabBar.alignment = .trailing
            $0.tabBar.indicatorProgressive = true
            $0.rubberBand.style = .linear
            $0.tabBar.indicatorOverscroll = .bounce
            $0.viewportWidth = 320
        }
        // Tab 0 at 170; −1 pulls G a whole tab back to 120; the fill from 170 has no width.
        let pulled = try start.after(.scroll(.progress(-1)))
        expectClose(pulled.indicator?.x, 170)
        expectClose(pulled.indicator?.width, 0)
        #expect(pulled.indicator?.segments == [])
    }

    @Test("alignment in an overscroll: the bounce moves the shifted frame and clips to C = W")
    func alignmentOverscroll() throws {
        // Hand-worked: trailing tabs at [170, 220, 270] in 320, index 2 pulled 0.2 past the end:
        // x = 270 + 0.2·50 = 280, one segment [280, 320].
        let pager = try Self.bar(3, of: 50, viewport: 320, initial: 2) {
            $0.tabBar.alignment = .trailing
            $0.rubberBand.style = .linear
            $0.tabBar.indicatorOverscroll = .bounce
        }.after(.scroll(.progress(0.2)))
        expectClose(pager.indicator?.x, 280)
        expectFrames(pager.indicator?.segments, [(280, 40)])
        expectClose(pager.tabBar.offset, 0)
    }

    @Test("alignment applies to an auto bar that resolved to scrollable yet is narrower than the bar")
    func alignmentAuto() throws {
        // Hand-worked: widths 200, 50, 50 in 390 (share 130 < 200, so scrollable), C_0 300, Δ 45.
        let pager = try makePager(3, layout: .auto, widths: [200, 50, 50]) { $0.tabBar.alignment = .center }
        #expect(pager.tabBar.effectiveLayout == .scrollable)
        #expect(Self.xs(pager) == [45, 245, 295])
        expectClose(pager.tabBar.contentWidth, 390)
    }

    // MARK: - Selected scroll position

    struct ScrollCase: CustomTestStringConvertible, Sendable {
        var name: String
        var position: TabBarPosition
        var inset: Double = 0
        var initial: Int
        var commands: [PagerCommand]
        var offset: Double
        var rtl = false
        var testDescription: String { name }
    }

    @Test(
        "the selected tab scrolls to the bar's leading edge, centre or trailing edge",
        arguments: [
            ScrollCase(
                name: "Parchment distanceLeft at index 0", position: .leading, initial: 0, commands: [], offset: 0),
            ScrollCase(
                name: "Parchment distanceLeft", position: .leading, initial: 0,
                commands: [.select(.index(1), path: .direct)], offset: 100),
            ScrollCase(
                name: "Parchment distanceLeftWithItemsBetween", position: .leading, initial: 0,
                commands: [.select(.index(2), path: .direct)], offset: 200),
            ScrollCase(
                name: "leading, clamped at the end", position: .leading, initial: 0,
                commands: [.select(.index(9), path: .direct)], offset: 500),
            ScrollCase(name: "trailing at index 4", position: .trailing, initial: 4, commands: [], offset: 0),
            ScrollCase(
                name: "trailing, half way to 5", position: .trailing, initial: 4, commands: [.scroll(.progress(0.5))],
                offset: 50),
            ScrollCase(
                name: "Parchment distanceRight", position: .trailing, initial: 4,
                commands: [.scroll(.progress(0.5)), .endTransition(completed: true)], offset: 100),
            ScrollCase(
                name: "Parchment distanceRightWithItemsBetween", position: .trailing, initial: 5,
                commands: [.select(.index(6), path: .direct)], offset: 200),
            ScrollCase(
                name: "leading with inset 20", position: .leading, inset: 20, initial: 3, commands: [], offset: 300),
            ScrollCase(name: "leading, rtl", position: .leading, initial: 1, commands: [], offset: 400, rtl: true),
            ScrollCase(
                name: "hand-worked: trailing, rtl at index 4 (LTR 0)", position: .trailing, initial: 4, commands: [],
                offset: 500, rtl: true),
            ScrollCase(
                name: "hand-worked: center (today's rule)", position: .center, initial: 5, commands: [], offset: 300),
        ])
    func scrollPosition(_ example: ScrollCase) throws {
        var pager = try Self.bar(10, of: 100, viewport: 500, initial: example.initial) {
            $0.tabBar.selectedScrollPosition = example.position
            $0.tabBar.inset = example.inset
            if example.rtl { $0.layoutDirection = .rtl }
        }
        for command in example.commands { pager = try pager.after(command) }
        expectClose(pager.tabBar.offset, example.offset)
    }

    @Test("scroll position: rtl puts the leading tab's x′ at 800; keyframes and elastic follow G")
    func scrollPositionInterplay() throws {
        let rtl = try Self.bar(10, of: 100, viewport: 500, initial: 1) {
            $0.tabBar.selectedScrollPosition = .leading
            $0.layoutDirection = .rtl
        }
        expectClose(rtl.tabs[1].frame.x, 800)
        // Hand-worked keyframes: leading, from 0 to 3, the offsets of tabs 1, 2 and 3.
        let leading = try Self.bar(10, of: 100, viewport: 500) { $0.tabBar.selectedScrollPosition = .leading }
        let jump = try leading.applying(.select(.index(3), path: .direct))
        #expect(jump.keyframes?.map(\.tabBarOffset) == [100, 200, 300])
        // Hand-worked elastic: leading at index 2, half way forward, L = 200 + 100·(1 − cos π/4).
        var elastic = leading.settings
        elastic.tabBar.indicatorStyle = .elastic
        let stretched = try leading.after(.updateSettings(elastic)).after(.select(.index(2), path: .direct))
            .after(.scroll(.progress(0.5)))
        expectClose(stretched.tabBar.offset, 229.2893219)
        // Trailing at index 6, half way: R = 700 + 100·sin π/4, offset R − 500.
        elastic.tabBar.selectedScrollPosition = .trailing
        let trailing = try leading.after(.updateSettings(elastic)).after(.select(.index(6), path: .direct))
            .after(.scroll(.progress(0.5)))
        expectClose(trailing.tabBar.offset, 270.7106781)
        // A bar no wider than the viewport never scrolls, whatever the position.
        let narrow = try Self.bar(3, of: 50, viewport: 320, initial: 2) {
            $0.tabBar.selectedScrollPosition = .trailing
            $0.tabBar.alignment = .center
        }
        expectClose(narrow.tabBar.offset, 0)
    }

    // MARK: - Indicator inset

    static func inset(
        leading: Double = 0, trailing: Double = 0, firstLeading: Double = 0, lastTrailing: Double = 0
    ) -> IndicatorInset {
        var inset = IndicatorInset()
        inset.leading = leading
        inset.trailing = trailing
        inset.firstLeading = firstLeading
        inset.lastTrailing = lastTrailing
        return inset
    }

    struct InsetCase: CustomTestStringConvertible, Sendable {
        var name: String
        var make: @Sendable () throws -> Pager
        var commands: [PagerCommand]
        var frame: (Double, Double)
        var segments: [(Double, Double)]
        var testDescription: String { name }
    }

    static let insetCases: [InsetCase] = [
        InsetCase(
            name: "Parchment indicatorFrameWithSpacing", make: { try tabsOf100(inset(leading: 20, trailing: 20)) },
            commands: [], frame: (20, 60), segments: [(20, 60)]),
        InsetCase(
            name: "Parchment indicatorFrameWithInsets, tab 0",
            make: { try tabsOf100(inset(firstLeading: 20, lastTrailing: 20)) }, commands: [], frame: (20, 80),
            segments: [(20, 80)]),
        InsetCase(
            name: "insets, tab 1", make: { try tabsOf100(inset(firstLeading: 20, lastTrailing: 20), initial: 1) },
            commands: [], frame: (100, 100), segments: [(100, 100)]),
        InsetCase(
            name: "insets, tab 2", make: { try tabsOf100(inset(firstLeading: 20, lastTrailing: 20), initial: 2) },
            commands: [], frame: (200, 80), segments: [(200, 80)]),
        InsetCase(
            name: "Parchment tweening at rest", make: { try tweening() }, commands: [], frame: (50, 150),
            segments: [(50, 150)]),
        InsetCase(
            name: "tweening at 0.5", make: { try tweening() }, commands: [.scroll(.progress(0.5))], frame: (125, 100),
            segments: [(125, 100)]),
        InsetCase(
            name: "tweening at 1", make: { try tweening() }, commands: [.scroll(.progress(1))], frame: (200, 50),
            segments: [(200, 50)]),
        InsetCase(
            name: "media 16/16", make: { try media(inset(leading: 16, trailing: 16)) }, commands: [],
            frame: (16, 98), segments: [(16, 98)]),
        InsetCase(
            name: "media 16/16 at 0.5", make: { try media(inset(leading: 16, trailing: 16)) },
            commands: [.scroll(.progress(0.5))], frame: (81, 98), segments: [(81, 98)]),
        InsetCase(
            name: "media 16/16 elastic at 0.5",
            make: { try media(inset(leading: 16, trailing: 16)) { $0.tabBar.indicatorStyle = .elastic } },
            commands: [.scroll(.progress(0.5))], frame: (54.0761184, 151.8477631),
            segments: [(54.0761184, 151.8477631)]),
        InsetCase(
            name: "media at 2, bounce past the end",
            make: { try media(inset(leading: 16, trailing: 16), initial: 2, overscroll: .bounce) },
            commands: [.scroll(.windowOffset(468))], frame: (302, 98), segments: [(302, 88)]),
        InsetCase(
            name: "media at 2, compress past the end",
            make: { try media(inset(leading: 16, trailing: 16), initial: 2, overscroll: .compress) },
            commands: [.scroll(.windowOffset(468))], frame: (302, 72), segments: [(302, 72)]),
        InsetCase(
            name: "mall at 2 across the seam",
            make: { try media(inset(leading: 16, trailing: 16), initial: 2) { $0.mode = .loop } },
            commands: [.scroll(.progress(0.5))], frame: (341, 98), segments: [(341, 49), (0, 49)]),
        InsetCase(
            name: "mall at 2 across the seam, rtl",
            make: {
                try media(inset(leading: 16, trailing: 16), initial: 2) {
                    $0.mode = .loop
                    $0.layoutDirection = .rtl
                }
            }, commands: [.scroll(.progress(0.5))], frame: (-49, 98), segments: [(0, 49), (341, 49)]),
        InsetCase(
            name: "four fixed tabs, progressive, 10/10",
            make: {
                try makePager(4, width: 400, initial: 1) {
                    $0.tabBar.indicatorProgressive = true
                    $0.tabBar.indicatorInset = inset(leading: 10, trailing: 10)
                }
            }, commands: [.scroll(.progress(0.5))], frame: (0, 240), segments: [(0, 240)]),
        InsetCase(
            // G (−65, 130) pulled half a page past the start; F (−65, 10) ends at −55: nothing to fill.
            name: "progressive, a trailing inset of 120, pulled past the start: an empty fill",
            make: { try media(inset(trailing: 120), overscroll: .bounce) { $0.tabBar.indicatorProgressive = true } },
            commands: [.scroll(.progress(-0.5))], frame: (0, 0), segments: []),
        InsetCase(
            name: "the same right to left: an empty fill at the bar's right end",
            make: {
                try media(inset(trailing: 120), overscroll: .bounce) {
                    $0.tabBar.indicatorProgressive = true
                    $0.layoutDirection = .rtl
                }
            }, commands: [.scroll(.progress(-0.5))], frame: (390, 0), segments: []),
        InsetCase(
            name: "ten tabs of 100, leading position, 30/10, index 2",
            make: {
                try bar(10, of: 100, viewport: 500, initial: 2) {
                    $0.tabBar.selectedScrollPosition = .leading
                    $0.tabBar.indicatorInset = inset(leading: 30, trailing: 10)
                }
            }, commands: [], frame: (230, 60), segments: [(230, 60)]),
        // Hand-worked interplays.
        InsetCase(
            name: "halfway: tab 0's rest frame at 0.4",
            make: { try media(inset(leading: 16, trailing: 16)) { $0.tabBar.indicatorTracking = .halfway } },
            commands: [.scroll(.progress(0.4))], frame: (16, 98), segments: [(16, 98)]),
        InsetCase(
            name: "halfway: tab 1's rest frame at 0.5",
            make: { try media(inset(leading: 16, trailing: 16)) { $0.tabBar.indicatorTracking = .halfway } },
            commands: [.scroll(.progress(0.5))], frame: (146, 98), segments: [(146, 98)]),
        InsetCase(
            name: "settled: tab 0's rest frame at 0.9",
            make: { try media(inset(firstLeading: 20)) { $0.tabBar.indicatorTracking = .settled } },
            commands: [.scroll(.progress(0.9))], frame: (20, 110), segments: [(20, 110)]),
        InsetCase(
            name: "fade: the shown tab's inset at 0.75",
            make: { try media(inset(leading: 10)) { $0.tabBar.indicatorStyle = .fade } },
            commands: [.scroll(.progress(0.75))], frame: (140, 120), segments: [(140, 120)]),
        InsetCase(
            name: "an inset wider than the tab collapses it in the insets' ratio (40 + 120 > 100)",
            make: { try tabsOf100(inset(leading: 40, trailing: 120)) }, commands: [], frame: (25, 0), segments: []),
        InsetCase(
            name: "compress at the start keeps the left edge: G (0, 104), F (16, 72)",
            make: { try media(inset(leading: 16, trailing: 16), overscroll: .compress) },
            commands: [.scroll(.progress(-0.2))], frame: (16, 72), segments: [(16, 72)]),
        InsetCase(
            name: "bounce past the start: G (−26, 130), F (−10, 98) clipped at 0",
            make: { try media(inset(leading: 16, trailing: 16), overscroll: .bounce) },
            commands: [.scroll(.progress(-0.2))], frame: (-10, 98), segments: [(0, 88)]),
        InsetCase(
            name: "first and last insets across the loop's seam interpolate: from 2 (0, 20) to 0 (20, 0)",
            make: { try tabsOf100(inset(firstLeading: 20, lastTrailing: 20), initial: 2) { $0.mode = .loop } },
            commands: [.scroll(.progress(0.5))], frame: (260, 80), segments: [(260, 40), (0, 40)]),
    ]

    /// Three scrollable tabs of 100 in the default viewport.
    static func tabsOf100(
        _ inset: IndicatorInset, initial: Int = 0, configure: (inout PagerSettings) -> Void = { _ in }
    ) throws -> Pager {
        try bar(3, of: 100, viewport: 390, initial: initial) {
            $0.tabBar.indicatorInset = inset
            configure(&$0)
        }
    }

    /// Parchment's tweening tabs: 200 and 100 with first and last insets of 50.
    static func tweening() throws -> Pager {
        try makePager(2, layout: .scrollable, widths: [200, 100]) {
            $0.tabBar.indicatorInset = inset(firstLeading: 50, lastTrailing: 50)
        }
    }

    /// `media` (three fixed tabs in 390) with `inset`; past an end with a linear rubber band.
    static func media(
        _ inset: IndicatorInset, initial: Int = 0, overscroll: IndicatorOverscroll = .none,
        configure: (inout PagerSettings) -> Void = { _ in }
    ) throws -> Pager {
        try makePager(3, initial: initial) {
            $0.tabBar.indicatorInset = inset
            $0.rubberBand.style = .linear
            $0.tabBar.indicatorOverscroll = overscroll
            configure(&$0)
        }
    }

    @Test("the indicator is its tab's frame less the inset", arguments: insetCases)
    func indicatorInset(_ example: InsetCase) throws {
        var pager = try example.make()
        for command in example.commands { pager = try pager.after(command) }
        let indicator = try #require(pager.indicator)
        expectClose(indicator.x, example.frame.0)
        expectClose(indicator.width, example.frame.1)
        expectFrames(indicator.segments, example.segments)
    }

    @Test("the inset: the bar's offset follows G, keyframes are rest frames less their own insets")
    func insetInterplay() throws {
        let ten = try Self.bar(10, of: 100, viewport: 500, initial: 2) {
            $0.tabBar.selectedScrollPosition = .leading
            $0.tabBar.indicatorInset = Self.inset(leading: 30, trailing: 10)
        }
        expectClose(ten.tabBar.offset, 200)
        let jump = try Self.tabsOf100(Self.inset(firstLeading: 20, lastTrailing: 20)).applying(
            .select(.index(2), path: .direct))
        let frames = try #require(jump.keyframes)
        #expect(frames.map { $0.indicator?.x } == [100, 200])
        #expect(frames.map { $0.indicator?.width } == [100, 80])
        // Vertical pagers change nothing in the bar.
        let vertical = try Self.media(Self.inset(leading: 16, trailing: 16)) { $0.orientation = .vertical }
            .after(.scroll(.progress(0.5)))
        expectClose(vertical.indicator?.x, 81)
        // Alpha is unchanged by the inset: the fade's alpha at 0.25 is 0.5.
        let fade = try Self.media(Self.inset(leading: 10)) { $0.tabBar.indicatorStyle = .fade }
            .after(.scroll(.progress(0.25)))
        expectClose(fade.indicator?.alpha, 0.5)
        expectClose(fade.indicator?.x, 10)
    }
}
