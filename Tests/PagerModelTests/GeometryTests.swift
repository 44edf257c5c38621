import Foundation
import PagerModel
import Testing

@Suite("Tab geometry, indicator and offsets (docs/api.md, «Tab geometry», «The indicator», «Page offset»)")
struct GeometryTests {
    @Test("fixed tabs: w = (W − 2e − s(n−1))/n, x_i = e + i(w + s), contentWidth = W")
    func fixedTabs() throws {
        let plain = try makePager(4)
        expectFrames(plain.tabs.map(\.frame), [(0, 97.5), (97.5, 97.5), (195, 97.5), (292.5, 97.5)])
        #expect(plain.tabBar == TabBarState(layout: .fixed, contentWidth: 390, offset: 0))

        let spaced = try makePager(3) {
            $0.tabBar.inset = 10; $0.tabBar.spacing = 4
        }
        // w = (390 − 20 − 8) / 3 = 120.666…; x = 10, 134.666…, 259.333…
        let w = 362.0 / 3
        expectFrames(spaced.tabs.map(\.frame), [(10, w), (10 + w + 4, w), (10 + 2 * (w + 4), w)])
        expectFrames(spaced.indicator?.segments, [(10, w)])
    }

    @Test("a fixed layout whose tabs would be 0 wide or less is refused, naming tabBar")
    func fixedTooNarrow() {
        #expect(throws: PagerError.self) { try makePager(3) { $0.tabBar.inset = 195 } }
        do {
            _ = try makePager(4) { $0.tabBar.spacing = 130 }
            Issue.record("expected a refusal")
        } catch let error as PagerError {
            #expect(error.kind == .invalid)
            #expect(error.field == "tabBar")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(
        "scrollable widths count East Asian Wide graphemes as 2",
        arguments: [
            ("포즈픽", 80.0),  // u = 6: 2·16 + 8·6
            ("포즈피드", 96.0),  // u = 8
            ("최근 본 상품", 128.0),  // 5 wide + 2 spaces = 12
            ("찜", 48.0),  // u = 2: 32 + 16 = 48 = minTabWidth
            ("상품", 64.0),
            ("Chat", 64.0),
            ("A한", 56.0),  // 1 + 2
            ("Hi", 48.0),  // 32 + 16 = 48
            ("👍🏽", 48.0),  // one grapheme (emoji + modifier), wide: 32 + 16
            ("ｶﾀｶﾅ", 64.0),  // halfwidth katakana are narrow: 4 cells
            ("ＡＢ", 64.0),  // fullwidth letters: 4 cells
            ("e\u{301}", 48.0),  // one grapheme
            ("\u{1FAE8}\u{1FAEA}", 64.0),  // emoji of Unicode 15 and 17, wide: 4 cells
            ("\u{2630}\u{4DC0}", 64.0),  // trigram and hexagram symbols, wide since Unicode 16
        ])
    func scrollableEstimate(title: String, expected: Double) throws {
        let pager = try makePager(1, layout: .scrollable, titles: [title])
        expectClose(pager.tabs.first?.frame.width, expected)
    }

    @Test("scrollable tabs: prefix sums with spacing and inset, explicit tabWidth wins")
    func scrollableLayout() throws {
        let pager = try makePager(3, layout: .scrollable, titles: ["상품", "최근 본 상품", "찜"], widths: [nil, nil, 70]) {
            $0.tabBar.spacing = 8
            $0.tabBar.inset = 12
        }
        // x0 = 12 (w 64); x1 = 12 + 64 + 8 = 84 (w 128); x2 = 84 + 128 + 8 = 220 (w 70); content = 220 + 70 + 12
        expectFrames(pager.tabs.map(\.frame), [(12, 64), (84, 128), (220, 70)])
        expectClose(pager.tabBar.contentWidth, 302)
    }

    @Test("the tab bar offset centres the indicator, clamped at both ends")
    func tabBarOffsetClamped() throws {
        // Five 100-point tabs in a 200-point viewport: contentWidth 500, offsets clamp to [0, 300].
        let pager = try makePager(5, layout: .scrollable, width: 200, widths: [100, 100, 100, 100, 100])
        let expected: [Double] = [0, 50, 150, 250, 300]  // raw: −50, 50, 150, 250, 350
        for (index, offset) in expected.enumerated() {
            let at = try pager.after(.select(.index(index), path: .direct))
            expectClose(at.tabBar.offset, offset)
        }
        // A bar narrower than the viewport never scrolls.
        let narrow = try makePager(2, layout: .scrollable, width: 390, widths: [100, 100], initial: 1)
        expectClose(narrow.tabBar.offset, 0)
        // Fixed tabs never scroll either.
        expectClose(try makePager(4, initial: 3).tabBar.offset, 0)
    }

    @Test("linear indicator: x and w interpolate, pageOffset = (c + σf)W")
    func linearIndicator() throws {
        let pager = try makePager(4, initial: 1).after(.scroll(.progress(0.25)))
        expectClose(pager.indicator?.x, 121.875)  // 97.5 + 97.5·0.25
        expectClose(pager.indicator?.width, 97.5)
        expectClose(pager.pageOffset, 487.5)  // (1 + 0.25)·390
        let back = try pager.after(.scroll(.progress(-0.5)))
        expectClose(back.indicator?.x, 48.75)
        expectClose(back.pageOffset, 195)
        let scrollable = try makePager(2, layout: .scrollable, widths: [60, 100]).after(.scroll(.progress(0.5)))
        expectClose(scrollable.indicator?.x, 30)
        expectClose(scrollable.indicator?.width, 80)
    }

    @Test("elastic indicator at f = 0.5, both directions")
    func elasticHalfway() throws {
        let a = 1 - cos(Double.pi / 4), d = sin(Double.pi / 4)  // 0.2928932…, 0.7071067…
        // Tabs (0, 60) and (60, 100). Right: L = 0 + 60a, R = 60 + 100d.
        let right = try makePager(2, layout: .scrollable, style: .elastic, widths: [60, 100]).after(
            .scroll(.progress(0.5)))
        expectClose(right.indicator?.x, 17.573593128807147)
        expectClose(right.indicator?.width, 60 + 100 * d - 60 * a)  // 113.137084…
        // Left from tab 1: L = lerp(60, 0, d), R = lerp(160, 60, a).
        let left = try makePager(2, layout: .scrollable, style: .elastic, widths: [60, 100], initial: 1)
            .after(.scroll(.progress(-0.5)))
        expectClose(left.indicator?.x, 60 - 60 * d)
        expectClose(left.indicator?.width, (160 - 100 * a) - (60 - 60 * d))
        // Asymmetric widths: tabs (0, 40), (40, 120), moving right from 0 at f = 0.5.
        let wide = try makePager(2, layout: .scrollable, style: .elastic, widths: [40, 120]).after(
            .scroll(.progress(0.5)))
        expectClose(wide.indicator?.x, 40 * a)  // 11.715728…
        expectClose(wide.indicator?.width, 40 + 120 * d - 40 * a)  // 113.137084… (R = 40 + 120d)
        // At f = 0 and f = 1 elastic equals the endpoints.
        let end = try makePager(2, layout: .scrollable, style: .elastic, widths: [40, 120]).after(.scroll(.progress(1)))
        expectClose(end.indicator?.x, 40)
        expectClose(end.indicator?.width, 120)
    }

    @Test("loop seam: forward from the last tab keeps moving right and wraps (docs/api.md, «The indicator»)")
    func seamForward() throws {
        let pager = try makePager(3, mode: .loop, initial: 2).after(.scroll(.progress(0.5)))
        #expect(pager.transition == Transition(from: 2, to: 0, progress: 0.5, direction: .forward))
        expectClose(pager.indicator?.x, 325)
        expectClose(pager.indicator?.width, 130)
        expectFrames(pager.indicator?.segments, [(325, 65), (0, 65)])
        expectClose(pager.pageOffset, 975)
    }

    @Test("loop seam: back from the first tab keeps moving left and wraps (docs/api.md, «The indicator»)")
    func seamReverse() throws {
        let pager = try makePager(3, mode: .loop).after(.scroll(.progress(-0.25)))
        #expect(pager.transition == Transition(from: 0, to: 2, progress: 0.25, direction: .reverse))
        expectClose(pager.indicator?.x, -32.5)
        expectFrames(pager.indicator?.segments, [(0, 97.5), (357.5, 32.5)])
        expectClose(pager.pageOffset, -97.5)
        // Fully across: the frame is one period left of tab 2, visible entirely at tab 2.
        let full = try pager.after(.scroll(.progress(-1)))
        expectClose(full.indicator?.x, -130)
        expectFrames(full.indicator?.segments, [(260, 130)])
    }

    @Test("no tab bar: tabs empty, indicator null, tabBar all zero")
    func noTabBar() throws {
        let pager = try makePager(3, layout: .none, initial: 1).after(.scroll(.progress(0.5)))
        #expect(pager.tabs.isEmpty)
        #expect(pager.indicator == nil)
        #expect(pager.tabBar == TabBarState(layout: .none, contentWidth: 0, offset: 0))
        expectClose(pager.pageOffset, 585)
    }

    @Test("an empty pager has no indicator, pageOffset 0 and tab bar offset 0")
    func emptyGeometry() throws {
        let pager = try makePager(0)
        #expect(pager.indicator == nil)
        #expect(pager.tabs.isEmpty)
        #expect(pager.pageOffset == 0)
        #expect(pager.tabBar.offset == 0)
    }
}

@Suite("Geometry stays finite")
struct FiniteGeometryTests {
    @Test("lengths above 1e9 points are refused, so no derived position can overflow")
    func lengthBound() throws {
        #expect(throws: PagerError.self) { try Pager(pages: [Page(id: "a", title: "A", tabWidth: 1.3e308)]) }
        var settings = PagerSettings()
        settings.viewportWidth = 2e9
        #expect(throws: PagerError.self) { try Pager(pages: makePages(2), settings: settings) }
        let widest = try makePager(1000, layout: .scrollable, width: 1e9, widths: Array(repeating: 1e9, count: 1000)) {
            $0.tabBar.spacing = 1e9
            $0.tabBar.inset = 1e9
        }
        let end = try widest.after(.select(.index(999), path: .direct)).after(.scroll(.progress(1)))
        #expect(end.tabBar.contentWidth.isFinite && end.pageOffset.isFinite)
        #expect(end.indicator.map { $0.x.isFinite && $0.width.isFinite } == true)
    }

    @Test("an offset that overflows the ratio still scrolls fully in its direction")
    func hugeOffset() throws {
        let pager = try makePager(3, width: 1e-300, initial: 1)
        let forward = try pager.after(.scroll(.offset(1e300)))
        #expect(forward.transition == Transition(from: 1, to: 2, progress: 1, direction: .forward))
        let back = try pager.after(.scroll(.windowOffset(-1e300)))
        #expect(back.transition?.direction == .reverse)
    }
}
