import PropertyBased
import Testing

@testable import PagerModel

/// The tab bar and the pages are computed from what a state document reports (each tab's width,
/// or its base width while a selected width applies, the layout in effect, the index, the swipe
/// in flight) and the settings, never from the titles: laying the bar out again from the reported
/// widths gives the same answer bit for bit.
@Suite("Layouts are a function of the reported widths, not of the titles")
struct TitleFreeLayoutTests {
    @Test("the tab bar laid out from the reported widths answers as the pager does")
    func fromReportedWidths() async {
        await propertyCheck(
            count: 300, input: LayoutPropertyTests.codes, Gen.int(in: 0...400), Gen.int(in: 1...7)
        ) { codes, seed, count in
            var pager = try! LayoutPropertyTests.pager(seed, count: count)
            for code in codes {
                guard let outcome = try? pager.applying(LayoutPropertyTests.logical(code, count: pager.count))
                else { continue }
                pager = outcome.pager
                guard pager.hasTabBar, let index = pager.index else { continue }
                let settings = pager.settings
                let tabs = pager.tabs
                let effective = pager.tabBar.effectiveLayout ?? settings.tabBar.layout
                let geometry = try! TabGeometry.make(
                    layout: effective, widths: tabs.map { $0.baseWidth ?? $0.frame.width }, settings: settings)
                let layout = TabBarLayout(
                    geometry: geometry, bar: settings.tabBar, viewportWidth: settings.viewportWidth,
                    count: pager.count, mirrored: settings.layoutDirection == .rtl)
                let strip = layout.strip(
                    TabHighlight(
                        current: index, transition: pager.transition, tracking: settings.tabBar.indicatorTracking))
                let pages = PageStrip(settings: settings, count: pager.count)
                let placed = layout.indicatorAndBar(
                    current: index, transition: pager.transition,
                    overscroll: pager.overscroll.map { (edge: $0.edge, shift: pages.shift(of: $0)) }, strip: strip)
                #expect(placed.indicator == pager.indicator && placed.tabBar == pager.tabBar)
                #expect(tabs.indices.map { layout.reportedFrame($0, in: strip) } == tabs.map(\.frame))
                #expect(
                    pages.reportedOffset(current: index, transition: pager.transition, overscroll: pager.overscroll)
                        == pager.pageOffset)
            }
        }
    }
}
