import PagerModel
import Testing

// Where the selected tab scrolls to, under tracking, across the loop's seam, in an overscroll and
// with a progressive indicator: hand-worked on ten scrollable tabs of 100 in a bar 500 wide
// (C = 1000, so the offset is clamped to [0, 500]) unless a case says otherwise.
extension TabBarLayoutTests {
    struct ScrollInterplayCase: CustomTestStringConvertible, Sendable {
        var name: String
        var make: @Sendable () throws -> Pager
        var commands: [PagerCommand]
        var offset: Double
        /// The indicator's x where it differs from the frame the offset follows.
        var indicatorX: Double?
        var testDescription: String { name }
    }

    /// Ten tabs of 100 in 500 at `initial`, the selected tab scrolled to `position`.
    static func tenOf100(
        _ position: TabBarPosition, initial: Int, mode: PagerMode = .bounded,
        configure: (inout PagerSettings) -> Void = { _ in }
    ) throws -> Pager {
        try bar(10, of: 100, viewport: 500, mode: mode, initial: initial) {
            $0.tabBar.selectedScrollPosition = position
            configure(&$0)
        }
    }

    static let scrollInterplayCases: [ScrollInterplayCase] = [
        // Under halfway the reported frame is tab 2's (x 200) below 0.5 and tab 3's (x 300) from it on.
        ScrollInterplayCase(
            name: "leading, halfway at index 2, progress 0.4: tab 2's frame",
            make: { try tenOf100(.leading, initial: 2) { $0.tabBar.indicatorTracking = .halfway } },
            commands: [.scroll(.progress(0.4))], offset: 200, indicatorX: 200),
        ScrollInterplayCase(
            name: "leading, halfway at index 2, progress 0.5: tab 3's frame",
            make: { try tenOf100(.leading, initial: 2) { $0.tabBar.indicatorTracking = .halfway } },
            commands: [.scroll(.progress(0.5))], offset: 300, indicatorX: 300),
        // Across the seam G runs from 900 toward 0 + C = 1000: x 950, clamped to C − W = 500.
        ScrollInterplayCase(
            name: "loop, leading at index 9 half way across the seam: 950 clamped to 500",
            make: { try tenOf100(.leading, initial: 9, mode: .loop) }, commands: [.scroll(.progress(0.5))],
            offset: 500, indicatorX: 950),
        // Under settled the frame is tab 6's (600 + 100 − 500 = 200) until the index changes to 7.
        ScrollInterplayCase(
            name: "trailing, settled at index 6, progress 0.9: tab 6's frame",
            make: { try tenOf100(.trailing, initial: 6) { $0.tabBar.indicatorTracking = .settled } },
            commands: [.scroll(.progress(0.9))], offset: 200, indicatorX: 600),
        ScrollInterplayCase(
            name: "trailing, settled at index 6, after end: tab 7's frame",
            make: { try tenOf100(.trailing, initial: 6) { $0.tabBar.indicatorTracking = .settled } },
            commands: [.scroll(.progress(0.9)), .endTransition(completed: true)], offset: 300, indicatorX: 700),
        // Progressive: F is (0, 350), but the offset keeps step 3's value, G's x 250.
        ScrollInterplayCase(
            name: "leading, progressive at index 2 half way: 250 from G, not 0 from F",
            make: { try tenOf100(.leading, initial: 2) { $0.tabBar.indicatorProgressive = true } },
            commands: [.scroll(.progress(0.5))], offset: 250, indicatorX: 0),
        // Overscroll: the last tab is 600 wide (C = 1500, offsets up to 1000), so at index 9 the
        // leading offset 900 is not clamped. Pulled 0.1 past the end, bounce moves G by
        // 0.1·600 = 60 to 960; the inset of 30 moves F, not the offset, to 990.
        ScrollInterplayCase(
            name: "leading, bounce 0.1 past the end of a bar with a last tab of 600: 960",
            make: { try lastTabOf600(overscroll: .bounce) }, commands: [.scroll(.progress(0.1))], offset: 960,
            indicatorX: 990),
        // Compress at the end keeps G's right edge: x 960 as well, width 540.
        ScrollInterplayCase(
            name: "leading, compress 0.1 past the end of a bar with a last tab of 600: 960",
            make: { try lastTabOf600(overscroll: .compress) }, commands: [.scroll(.progress(0.1))], offset: 960,
            indicatorX: 990),
        // With the indicator at rest in an overscroll, the offset stays at its rest value.
        ScrollInterplayCase(
            name: "leading, no indicator overscroll 0.1 past the end: 900",
            make: { try lastTabOf600(overscroll: .none) }, commands: [.scroll(.progress(0.1))], offset: 900,
            indicatorX: 930),
        // Bounce 0.2 past either end of the ten tabs of 100: G at 920 or −20, both clamped.
        ScrollInterplayCase(
            name: "trailing, bounce 0.2 past the end: 920 + 100 − 500 clamped to 500",
            make: {
                try tenOf100(.trailing, initial: 9) {
                    $0.rubberBand.style = .linear
                    $0.tabBar.indicatorOverscroll = .bounce
                }
            }, commands: [.scroll(.progress(0.2))], offset: 500, indicatorX: 920),
        ScrollInterplayCase(
            name: "trailing, bounce 0.2 past the start: −20 + 100 − 500 clamped to 0",
            make: {
                try tenOf100(.trailing, initial: 0) {
                    $0.rubberBand.style = .linear
                    $0.tabBar.indicatorOverscroll = .bounce
                }
            }, commands: [.scroll(.progress(-0.2))], offset: 0, indicatorX: -20),
    ]

    /// Nine tabs of 100 and a last one of 600 in 500, at index 9, the selected tab scrolled to the
    /// leading edge, a linear rubber band, `overscroll` and an indicator inset of 30 at the leading side.
    static func lastTabOf600(overscroll: IndicatorOverscroll) throws -> Pager {
        let widths: [Double] = Array(repeating: 100, count: 9) + [600]
        return try makePager(10, layout: .scrollable, width: 500, widths: widths, initial: 9) {
            $0.tabBar.selectedScrollPosition = .leading
            $0.rubberBand.style = .linear
            $0.tabBar.indicatorOverscroll = overscroll
            $0.tabBar.indicatorInset = Self.inset(leading: 30)
        }
    }

    @Test(
        "the bar's offset follows G under tracking, across the seam, in an overscroll and under progressive",
        arguments: scrollInterplayCases)
    func scrollPositionFollowsG(_ example: ScrollInterplayCase) throws {
        var pager = try example.make()
        for command in example.commands { pager = try pager.after(command) }
        expectClose(pager.tabBar.offset, example.offset)
        if let x = example.indicatorX { expectClose(pager.indicator?.x, x) }
    }

    @Test("under linear tracking the offset moves linearly between two unclamped rest offsets")
    func scrollPositionLinear() throws {
        // Leading at index 2: rest offsets 200 and 300, so 200 + 100·f.
        let pager = try Self.tenOf100(.leading, initial: 2)
        expectClose(pager.tabBar.offset, 200)
        for f in [0.25, 0.5, 0.75] {
            expectClose(try pager.after(.scroll(.progress(f))).tabBar.offset, 200 + 100 * f)
        }
    }
}
