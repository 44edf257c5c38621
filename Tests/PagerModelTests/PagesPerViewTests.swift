import PagerModel
import Testing

/// Several pages per viewport, a gap between pages and a centred current page, with Swiper's and
/// ViewPager2's worked numbers and hand-worked ones for right to left, vertical, loops,
/// overscroll and keyframes.
@Suite("Pages per view: page size, offsets, scroll inputs, visible, preload, keyframes")
struct PagesPerViewTests {
    /// `count` pages without a tab bar, laid out with `perView`, `spacing` and `centered`.
    static func pager(
        _ count: Int, width: Double = 390, perView: Double = 1, spacing: Double = 0, centered: Bool = false,
        mode: PagerMode = .bounded, initial: Int? = nil, configure: (inout PagerSettings) -> Void = { _ in }
    ) throws -> Pager {
        try makePager(count, mode: mode, layout: .none, width: width, initial: initial) {
            $0.pagesPerView = perView
            $0.pageSpacing = spacing
            $0.pagesCentered = centered
            configure(&$0)
        }
    }

    /// `visible` as (index, fraction) pairs.
    static func visible(_ pager: Pager) -> [(Int, Double)] { pager.visible.map { ($0.index, $0.fraction) } }

    static func expectVisible(
        _ pager: Pager, _ expected: [(Int, Double)], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let found = visible(pager)
        #expect(found.map(\.0) == expected.map(\.0), sourceLocation: sourceLocation)
        for ((_, fraction), (_, wanted)) in zip(found, expected) {
            expectClose(fraction, wanted, sourceLocation: sourceLocation)
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var make: @Sendable () throws -> Pager
        var commands: [PagerCommand] = []
        var pageSize: Double
        var pageOffset: Double
        var visible: [(Int, Double)]
        var preload: [Int]? = nil
        var progress: Double? = nil
        var testDescription: String { name }
    }

    /// Swiper's 'slidesPerView': ten pages, two per view 10 apart.
    static func swiper(initial: Int = 0, configure: (inout PagerSettings) -> Void = { _ in }) throws -> Pager {
        try pager(10, perView: 2, spacing: 10, initial: initial, configure: configure)
    }
    /// ViewPager2 with padding, Swiper's centeredSlides: `media` peeking at its neighbours.
    static func peeking(
        initial: Int = 0, rtl: Bool = false, configure: (inout PagerSettings) -> Void = { _ in }
    ) throws -> Pager {
        try pager(3, perView: 1.25, spacing: 10, centered: true, initial: initial) {
            if rtl { $0.layoutDirection = .rtl }
            configure(&$0)
        }
    }
    /// `snap`, vertical, two pages per view 4 apart.
    static func snap(rtl: Bool = false) throws -> Pager {
        try pager(4, perView: 2, spacing: 4, initial: 1) {
            $0.orientation = .vertical
            if rtl { $0.layoutDirection = .rtl }
        }
    }

    static let cases: [Case] = [
        Case(
            name: "Swiper: 2 per view, 10 apart, at rest", make: { try swiper() }, pageSize: 190, pageOffset: 0,
            visible: [(0, 1), (1, 1)], preload: [1, 2]),
        Case(
            name: "Swiper: offset 100 is half way", make: { try swiper() }, commands: [.scroll(.offset(100))],
            pageSize: 190, pageOffset: 100, visible: [(0, 0.4736842), (1, 1), (2, 0.4736842)], progress: 0.5),
        Case(
            name: "Swiper: select 9 rests at M, where index 8 rests too", make: { try swiper() },
            commands: [.select(.index(9), path: .direct)], pageSize: 190, pageOffset: 1600, visible: [(9, 1), (8, 1)]),
        Case(
            name: "Swiper: at 9, progress −0.5 does not move the view", make: { try swiper(initial: 9) },
            commands: [.scroll(.progress(-0.5))], pageSize: 190, pageOffset: 1600, visible: [(9, 1), (8, 1)],
            progress: 0.5),
        Case(
            name: "Swiper: at 9, offset 1500 is half way back (divided by D, as O_8 = O_9)",
            make: { try swiper(initial: 9) }, commands: [.scroll(.offset(1500))], pageSize: 190, pageOffset: 1600,
            visible: [(9, 1), (8, 1)], progress: 0.5),
        Case(
            name: "three per view", make: { try pager(10, perView: 3, spacing: 10) }, pageSize: 123.3333333,
            pageOffset: 0, visible: [(0, 1), (1, 1), (2, 1)]),
        Case(
            name: "2.5 per view, from 7 toward the limited 8: offset 1160 is half way",
            make: { try pager(10, width: 400, perView: 2.5, initial: 7) }, commands: [.scroll(.offset(1160))],
            pageSize: 160, pageOffset: 1160, visible: [(7, 0.75), (8, 1), (9, 0.75)], progress: 0.5),
        Case(
            name: "peeking, index 0", make: { try peeking() }, pageSize: 310, pageOffset: -40,
            visible: [(0, 1), (1, 0.0967742)], preload: [1, 2]),
        Case(
            name: "peeking, index 1", make: { try peeking(initial: 1) }, pageSize: 310, pageOffset: 280,
            visible: [(1, 1), (0, 0.0967742), (2, 0.0967742)]),
        Case(
            name: "peeking, rtl, index 0", make: { try peeking(rtl: true) }, pageSize: 310, pageOffset: 600,
            visible: [(0, 1), (1, 0.0967742)]),
        Case(
            name: "spacing only: windowOffset 600 is half way", make: { try pager(3, spacing: 10) },
            commands: [.scroll(.windowOffset(600))], pageSize: 390, pageOffset: 200,
            visible: [(0, 0.4871795), (1, 0.4871795)], progress: 0.5),
        Case(
            name: "spacing only, rtl at rest", make: { try pager(3, spacing: 10) { $0.layoutDirection = .rtl } },
            pageSize: 390, pageOffset: 800, visible: [(0, 1)], preload: [1]),
        Case(
            name: "spacing only, rtl: offset 600 is half way",
            make: { try pager(3, spacing: 10) { $0.layoutDirection = .rtl } }, commands: [.scroll(.offset(600))],
            pageSize: 390, pageOffset: 600, visible: [(0, 0.4871795), (1, 0.4871795)], progress: 0.5),
        Case(
            name: "overscroll: spacing 10, pulled 0.2 past the last page",
            make: {
                try pager(3, spacing: 10, initial: 2) {
                    $0.rubberBand.style = .linear
                }
            }, commands: [.scroll(.progress(0.2))], pageSize: 390, pageOffset: 880, visible: [(2, 1)]),
        Case(
            name: "vertical snap at 1", make: { try snap() }, pageSize: 420, pageOffset: 424,
            visible: [(1, 1), (2, 1)],
            preload: [0, 2, 3]),
        Case(
            name: "vertical snap: offset 636 is half way", make: { try snap() }, commands: [.scroll(.offset(636))],
            pageSize: 420, pageOffset: 636, visible: [(1, 0.4952381), (2, 1), (3, 0.4952381)], progress: 0.5),
        Case(
            name: "vertical snap, rtl: offset 636 is half way (vertical pages are not mirrored)",
            make: { try snap(rtl: true) }, commands: [.scroll(.offset(636))], pageSize: 420, pageOffset: 636,
            visible: [(1, 0.4952381), (2, 1), (3, 0.4952381)], progress: 0.5),
        // Hand-worked.
        Case(
            name: "Swiper, rtl: R = O_0 + O_9 = 1600; offset 1500 means 100 from the start",
            make: { try pager(10, perView: 2, spacing: 10) { $0.layoutDirection = .rtl } },
            commands: [.scroll(.offset(1500))], pageSize: 190, pageOffset: 1500,
            visible: [(0, 0.4736842), (1, 1), (2, 0.4736842)], progress: 0.5),
        Case(
            name: "Swiper at 9 pulled 0.2 past the end: O_9 + δ·D = 1640, visible at rest",
            make: { try swiper(initial: 9) { $0.rubberBand.style = .linear } },
            commands: [.scroll(.progress(0.2))], pageSize: 190, pageOffset: 1640, visible: [(9, 1), (8, 1)]),
        Case(
            name: "peeking pulled 0.2 before the first page: (0 − 0.2)·320 − 40",
            make: { try peeking() { $0.rubberBand.style = .linear } }, commands: [.scroll(.progress(-0.2))],
            pageSize: 310, pageOffset: -104, visible: [(0, 1), (1, 0.0967742)]),
        Case(
            name: "peeking with resistance: 64^0.85 − 1 before the first page",
            make: { try peeking() { $0.rubberBand.style = .resistance } }, commands: [.scroll(.progress(-0.2))],
            pageSize: 310, pageOffset: -73.2967508, visible: [(0, 1), (1, 0.0967742)]),
        Case(
            name: "a loop of 3, two per view: the seam is crossed unwrapped, page 0 at position 3",
            make: { try pager(3, perView: 2, spacing: 10, mode: .loop, initial: 2) },
            commands: [.scroll(.progress(0.5))], pageSize: 190, pageOffset: 500,
            visible: [(2, 0.4736842), (0, 1), (1, 0.4736842)], preload: [1, 0]),
        Case(
            name: "a loop of 2, three per view, lists page 0 twice", make: { try pager(2, perView: 3, mode: .loop) },
            pageSize: 130, pageOffset: 0, visible: [(0, 1), (1, 1), (0, 1)], preload: [1]),
        Case(
            name: "a loop back across the seam, rtl: R = 0 + 400, P′ = 400 − (−100)",
            make: {
                try pager(3, perView: 2, spacing: 10, mode: .loop) { $0.layoutDirection = .rtl }
            }, commands: [.scroll(.progress(-0.5))], pageSize: 190, pageOffset: 500,
            visible: [(0, 1), (2, 0.4736842), (1, 0.4736842)]),
        Case(
            name: "centred, not limited: the last page rests mid-view with the space after it",
            make: { try pager(3, perView: 2, centered: true, initial: 2) }, pageSize: 195, pageOffset: 292.5,
            visible: [(2, 1), (1, 0.5)]),
        Case(
            name: "preload 2 counts from the last page on screen",
            make: { try pager(10, perView: 2, spacing: 10, initial: 3) { $0.preload = 2 } }, pageSize: 190,
            pageOffset: 600, visible: [(3, 1), (4, 1)], preload: [2, 4, 1, 5, 6]),
        Case(
            name: "preload 0 with tabs lists the other pages on screen",
            make: {
                try makePager(10, initial: 3) {
                    $0.pagesPerView = 2
                    $0.pageSpacing = 10
                    $0.preload = 0
                }
            }, pageSize: 190, pageOffset: 600, visible: [(3, 1), (4, 1)], preload: [4]),
        Case(
            name: "preload 0 without tabs reaches one past the pages on screen: a swipe can show them",
            make: { try pager(10, perView: 2, spacing: 10, initial: 3) { $0.preload = 0 } }, pageSize: 190,
            pageOffset: 600, visible: [(3, 1), (4, 1)], preload: [2, 4, 5]),
        Case(
            name: "preload 0 without tabs, peeking from the first page: the page past the peek",
            make: { try pager(5, perView: 1.25, initial: 1) { $0.preload = 0 } }, pageSize: 312,
            pageOffset: 312, visible: [(1, 1), (2, 0.25)], preload: [0, 2, 3]),
        Case(
            name: "preload 0 without tabs and only the current page on screen: previous and next name the rest",
            make: { try pager(5, spacing: 10, initial: 1) { $0.preload = 0 } }, pageSize: 390,
            pageOffset: 400, visible: [(1, 1)], preload: []),
    ]

    @Test("page size, pageOffset, visible, preload and the progress a scroll input gives", arguments: cases)
    func layout(_ example: Case) throws {
        var pager = try example.make()
        for command in example.commands { pager = try pager.after(command) }
        expectClose(pager.pageSize, example.pageSize)
        expectClose(pager.pageOffset, example.pageOffset)
        Self.expectVisible(pager, example.visible)
        if let preload = example.preload { #expect(pager.preloadIndices == preload) }
        if let progress = example.progress { expectClose(pager.transition?.progress, progress) }
    }

    @Test("an offset beside pages resting at one offset counts strides, however the stride rounds")
    func offsetBesideOneRestOffset() throws {
        // E 390, k 3, g 10: D = 133.33…, and positions 7, 8 and 9 rest at M = 7·D, computed two
        // ways that round apart (by about 1e-13): a point's drag is 1/D of a page, not a page.
        let stride = (390.0 - 20) / 3 + 10
        let forward = try Self.pager(10, perView: 3, spacing: 10, initial: 7).after(.scroll(.offset(7 * stride + 1)))
        #expect(forward.transition?.to == 8)
        expectClose(forward.transition?.progress, 1 / stride)
        expectClose(forward.pageOffset, 7 * stride)
        let back = try Self.pager(10, perView: 3, spacing: 10, initial: 8).after(.scroll(.offset(7 * stride - 1)))
        #expect(back.transition?.to == 7)
        expectClose(back.transition?.progress, 1 / stride)
    }

    @Test("keyframes rest at each index's offset, limited ones at M, mirrored right to left")
    func keyframes() throws {
        let jump = try Self.swiper().applying(.select(.index(9), path: .direct))
        #expect(jump.keyframes?.map(\.pageOffset) == [200, 400, 600, 800, 1000, 1200, 1400, 1600, 1600])
        for rtl in [false, true] {
            let snap = try Self.snap(rtl: rtl).applying(.select(.index(3), path: .direct))
            #expect(snap.keyframes?.map(\.pageOffset) == [848, 848])
        }
        // Hand-worked: peeking, rtl, R = −40 + 600; from 0 to 2 the keyframes are R − 280, R − 600.
        let peek = try Self.peeking(rtl: true).applying(.select(.index(2), path: .direct))
        #expect(peek.keyframes?.map(\.pageOffset) == [280, -40])
        // The tab bar's keyframes are unchanged by the pages' layout.
        let tabs = try makePager(3) { $0.pagesPerView = 2 }.applying(.select(.index(2), path: .direct))
        #expect(tabs.keyframes?.map { $0.indicator?.x } == [130, 260])
    }

    @Test("an overscroll moves by strides: media 10 apart pulled 0.2 past the last page, indicator x 286")
    func overscrollInStrides() throws {
        let pager = try makePager(3, initial: 2) {
            $0.pageSpacing = 10
            $0.rubberBand.style = .linear
            $0.tabBar.indicatorOverscroll = .bounce
        }.after(.scroll(.progress(0.2)))
        expectClose(pager.pageOffset, 880)
        expectClose(pager.indicator?.x, 286)
        #expect(pager.overscroll == Overscroll(edge: .end, progress: 0.2))
    }

    @Test("a page's share on screen is never above 1, though (start + P) − start can round above P")
    func sharesNeverAboveOne() throws {
        // Found by fuzzing the API: a loop of 3, right to left, 13.799194528652293 pages per view
        // at rest showed a page at 1.0000000000000004.
        var perViews = [13.799194528652293]
        for step in 1...60 { perViews.append(1 + Double(step) * 0.237) }
        for perView in perViews {
            for mode in PagerMode.allCases {
                for direction in LayoutDirection.allCases {
                    var pager = try Self.pager(3, perView: perView, mode: mode) { $0.layoutDirection = direction }
                    for progress in [0, 0.3, 0.71, -0.45] {
                        pager = try pager.applying(.scroll(.progress(progress))).pager
                        for page in pager.visible {
                            #expect(
                                page.fraction > 0 && page.fraction <= 1,
                                "\(perView) per view, \(mode), \(direction), progress \(progress): \(page.fraction)")
                        }
                    }
                }
            }
        }
    }

    @Test("navigation, edges, can-go flags and the tab bar are as with one page per view")
    func logicUnchanged() throws {
        let commands: [PagerCommand] = [
            .next, .scroll(.progress(0.3)), .scroll(.progress(-0.2)), .endTransition(completed: true), .next,
            .select(.index(0), path: .shortest), .beginTransition(to: 1), .endTransition(completed: false), .previous,
        ]
        for mode in PagerMode.allCases {
            var one = try makePager(5, mode: mode)
            var several = try makePager(5, mode: mode) {
                $0.pagesPerView = 2.5
                $0.pageSpacing = 8
                $0.pagesCentered = mode == .loop
            }
            for command in commands {
                let a = try one.applying(command), b = try several.applying(command)
                #expect(a.pager.index == b.pager.index && a.pager.version == b.pager.version)
                #expect(a.pager.transition == b.pager.transition && a.moved == b.moved && a.edge == b.edge)
                #expect(a.pager.canGoNext == b.pager.canGoNext && a.pager.tabs == b.pager.tabs)
                #expect(a.pager.indicator == b.pager.indicator && a.pager.tabBar == b.pager.tabBar)
                one = a.pager
                several = b.pager
            }
        }
    }

    @Test("a page size not above 0 is refused naming viewport.pageSpacing, whichever member made it so")
    func errors() throws {
        let pager = try Self.pager(3, perView: 2, spacing: 10)
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
        #expect(refusal { $0.pageSpacing = 390 } == "viewport.pageSpacing")
        #expect(refusal { $0.pagesPerView = 40 } == "viewport.pageSpacing")
        #expect(refusal { $0.viewportWidth = 10 } == "viewport.pageSpacing")
        #expect(
            refusal {
                $0.orientation = .vertical; $0.viewportHeight = 10
            } == "viewport.pageSpacing")
        #expect(refusal { $0.pagesPerView = 0.5 } == "viewport.pagesPerView")
        #expect(refusal { $0.pagesPerView = 101 } == "viewport.pagesPerView")
        #expect(refusal { $0.pagesPerView = .nan } == "viewport.pagesPerView")
        #expect(refusal { $0.pageSpacing = -1 } == "viewport.pageSpacing")
        #expect(
            refusal {
                $0.pagesPerView = 100; $0.pageSpacing = 0
            } == nil)
    }

    @Test("with one page per view, a centred page changes nothing but what the state reports")
    func centredAlone() throws {
        let plain = try makePager(4, initial: 1).after(.scroll(.progress(0.3)))
        let centred = try makePager(4, initial: 1) { $0.pagesCentered = true }.after(.scroll(.progress(0.3)))
        #expect(plain.pageOffset == centred.pageOffset && plain.visible == centred.visible)
        #expect(plain.preloadIndices == centred.preloadIndices)
        #expect(!plain.settings.reportsPageLayout && centred.settings.reportsPageLayout)
    }

    @Test(
        "an offset scroll to the page offset just reported changes nothing, whatever its rounding",
        arguments: [
            (width: 390.0, perView: 3.0, spacing: 10.0, centered: true),
            (width: 390, perView: 2.5, spacing: 7.3, centered: true),
            (width: 375, perView: 1.5, spacing: 7.3, centered: false),
            (width: 411.43, perView: 1, spacing: 0, centered: false),
            (width: 411.43, perView: 1.25, spacing: 10, centered: true),
        ])
    func reportedOffsetIsRest(layout: (width: Double, perView: Double, spacing: Double, centered: Bool)) throws {
        for rtl in [false, true] {
            for initial in 0..<50 {
                let pager = try Self.pager(
                    50, width: layout.width, perView: layout.perView, spacing: layout.spacing,
                    centered: layout.centered, initial: initial
                ) { if rtl { $0.layoutDirection = .rtl } }
                let outcome = try pager.applying(.scroll(.offset(pager.pageOffset)))
                #expect(
                    outcome.pager == pager && outcome.pager.transition == nil,
                    "\(layout) rtl \(rtl) at \(initial): \(String(describing: outcome.pager.transition))")
            }
        }
    }

    @Test(
        "on a long right-to-left pager the page offset sent back is still the rest: it is compared as it was reported",
        arguments: [(width: 411.43, perView: 1.0, spacing: 0.0), (width: 375, perView: 1.5, spacing: 7.3)])
    func reportedOffsetOfLongPager(layout: (width: Double, perView: Double, spacing: Double)) throws {
        let count = 100_000
        var settings = PagerSettings()
        settings.tabBar.layout = .none
        settings.viewportWidth = layout.width
        settings.pagesPerView = layout.perView
        settings.pageSpacing = layout.spacing
        settings.layoutDirection = .rtl
        let limits = PagerLimits(maxPages: count, sessionBudgetBytes: 1 << 30)
        let base = try Pager(pages: makePages(count), settings: settings, limits: limits)
        for initial in stride(from: count - 1, to: count / 2, by: -997) {
            let pager = try base.applying(.select(.index(initial), path: .direct, animation: .direct), limits: limits)
                .pager
            let outcome = try pager.applying(.scroll(.offset(pager.pageOffset)))
            // (Compared member by member: a failure printing 100,000 pages would say nothing.)
            #expect(
                outcome.pager.version == pager.version && outcome.pager.transition == nil
                    && outcome.pager.overscroll == nil,
                "\(layout) at \(initial): \(String(describing: outcome.pager.transition))")
        }
    }
}
