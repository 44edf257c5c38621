import PagerModel
import Testing

/// docs/api.md «Tab rendering» (highlight, title colours and scales, fade, progressive) and
/// «Visibility», with
/// docs/api.md's numbers («Tab rendering») and hand-worked ones.
@Suite("Tab rendering and visibility")
struct TabRenderingTests {
    static func media(_ configure: (inout PagerSettings) -> Void = { _ in }) throws -> Pager {
        try makePager(3, configure: configure)
    }

    @Test("at rest tab c has selection 1 and is the selected tab; no colours without tabBar.title")
    func atRest() throws {
        let tabs = try Self.media().tabs
        #expect(tabs.map(\.selection) == [1, 0, 0] && tabs.map(\.selected) == [true, false, false])
        #expect(tabs.allSatisfy { $0.color == nil && $0.scale == nil })
    }

    @Test("media with title scale 0.8, scroll 0.25: #025EAFFF 0.95 selected, #011F3AFF 0.85, #000000FF 0.8")
    func titles() throws {
        var title = TitleStyle()
        title.scale = 0.8
        let pager = try Self.media { $0.tabBar.title = title }.after(.scroll(.progress(0.25)))
        let tabs = pager.tabs
        #expect(tabs.map(\.selection) == [0.75, 0.25, 0])
        #expect(tabs.map { $0.color?.hex } == ["#025EAFFF", "#011F3AFF", "#000000FF"])
        expectClose(tabs[0].scale, 0.95)
        expectClose(tabs[1].scale, 0.85)
        expectClose(tabs[2].scale, 0.8)
        #expect(tabs.map(\.selected) == [true, false, false])
    }

    @Test("colours round half up with 1e-9: 0→255 at selection 0.5 is 128; 1→2 at 0.5 is 2; alpha mixes too")
    func rounding() {
        let black = RGBA(red: 0, green: 1, blue: 10, alpha: 0)
        let white = RGBA(red: 255, green: 2, blue: 11, alpha: 255)
        #expect(black.mixed(with: white, 0.5) == RGBA(red: 128, green: 2, blue: 11, alpha: 128))
        #expect(black.mixed(with: white, 0) == black && black.mixed(with: white, 1) == white)
        #expect(RGBA(hex: "#037de9") == RGBA(red: 3, green: 125, blue: 233) && RGBA(hex: "#037DE980")?.alpha == 128)
        #expect(RGBA(hex: "037DE9") == nil && RGBA(hex: "#037DE") == nil && RGBA(hex: "#03GDE9") == nil)
        #expect(RGBA(red: 3, green: 125, blue: 233).hex == "#037DE9FF")
    }

    @Test("selected switches at f ≥ 0.5 − 1e-9 under continuous; halfway and settled hold one tab at 1")
    func trackingHighlight() throws {
        let continuous = try Self.media()
        #expect(try continuous.after(.scroll(.progress(0.5 - 2e-9))).tabs.map(\.selected) == [true, false, false])
        #expect(try continuous.after(.scroll(.progress(0.5 - 5e-10))).tabs.map(\.selected) == [false, true, false])
        let halfway = try Self.media { $0.tabBar.indicatorTracking = .halfway }
        #expect(try halfway.after(.scroll(.progress(0.4))).tabs.map(\.selection) == [1, 0, 0])
        #expect(try halfway.after(.scroll(.progress(0.6))).tabs.map(\.selection) == [0, 1, 0])
        let settled = try Self.media { $0.tabBar.indicatorTracking = .settled }
        let late = try settled.after(.scroll(.progress(0.9))).tabs
        #expect(late.map(\.selection) == [1, 0, 0] && late.map(\.selected) == [true, false, false])
    }

    @Test("across a loop's seam tab c has 1 − f and tab t has f")
    func seamHighlight() throws {
        let pager = try makePager(3, mode: .loop, initial: 2).after(.scroll(.progress(0.3)))
        let selections = pager.tabs.map(\.selection)
        expectClose(selections[2], 0.7)
        expectClose(selections[0], 0.3)
        #expect(selections[1] == 0)
    }

    @Test("fade: x 0 with alpha 0.5 at f 0.25, x 130 alpha 0.5 at 0.75; alpha 1 at 0, 0 at 0.5, 1 at rest")
    func fade() throws {
        let media = try Self.media { $0.tabBar.indicatorStyle = .fade }
        let quarter = try media.after(.scroll(.progress(0.25))).indicator
        expectClose(quarter?.x, 0)
        expectClose(quarter?.alpha, 0.5)
        let threeQuarters = try media.after(.scroll(.progress(0.75))).indicator
        expectClose(threeQuarters?.x, 130)
        expectClose(threeQuarters?.alpha, 0.5)
        expectFrames(threeQuarters?.segments, [(130, 130)])
        expectClose(try media.after(.beginTransition(to: 1)).indicator?.alpha, 1)
        expectClose(try media.after(.scroll(.progress(0.5))).indicator?.alpha, 0)
        expectClose(try media.after(.scroll(.progress(1))).indicator?.alpha, 1)
        #expect(media.indicator?.alpha == 1)
        // Under halfway tracking the style does not apply: alpha stays 1.
        let halfway = try Self.media {
            $0.tabBar.indicatorStyle = .fade
            $0.tabBar.indicatorTracking = .halfway
        }
        #expect(try halfway.after(.scroll(.progress(0.25))).indicator?.alpha == 1)
    }

    @Test("progressive: four tabs, W 400, index 1, scroll 0.5 → x 0, width 250, segments [{0, 250}]")
    func progressive() throws {
        let pager = try makePager(4, width: 400, initial: 1) { $0.tabBar.indicatorProgressive = true }
        let swiping = try pager.after(.scroll(.progress(0.5)))
        expectClose(swiping.indicator?.x, 0)
        expectClose(swiping.indicator?.width, 250)
        expectFrames(swiping.indicator?.segments, [(0, 250)])
        expectClose(pager.indicator?.width, 200)
        // Scrollable: the bar's offset follows the frame before the fill, here tab 3's centre.
        let scrollable = try makePager(
            6, layout: .scrollable, width: 200, widths: [100, 100, 100, 100, 100, 100], initial: 3
        ) { $0.tabBar.indicatorProgressive = true }
        expectClose(scrollable.indicator?.width, 400)
        expectFrames(scrollable.indicator?.segments, [(0, 400)])
        expectClose(scrollable.tabBar.offset, 250)
        // Right to left, the fill is mirrored: it runs from the bar's right end.
        let rtl = try makePager(4, width: 400, initial: 1) {
            $0.tabBar.indicatorProgressive = true
            $0.layoutDirection = .rtl
        }
        expectClose(rtl.indicator?.x, 200)
        expectFrames(rtl.indicator?.segments, [(200, 200)])
    }

    @Test("a progressive loop and bad title scales are refused naming the member")
    func validation() throws {
        for (configure, field) in [
            (
                { (s: inout PagerSettings) in
                    s.tabBar.indicatorProgressive = true; s.mode = .loop
                }, "tabBar.indicator.progressive"
            ),
            (
                { (s: inout PagerSettings) in
                    var t = TitleStyle(); t.scale = 0; s.tabBar.title = t
                }, "tabBar.title.scale"
            ),
            (
                { (s: inout PagerSettings) in
                    var t = TitleStyle(); t.selectedScale = 101; s.tabBar.title = t
                }, "tabBar.title.selectedScale"
            ),
        ] as [((inout PagerSettings) -> Void, String)] {
            do {
                _ = try makePager(3, configure: configure)
                Issue.record("\(field) accepted")
            } catch let error as PagerError {
                #expect(error.field == field)
            }
        }
    }

    @Test("visible: at rest [c 1]; media scroll 0.25 → [0 0.75, 1 0.25]; an entry of 1 point or less is left out")
    func visible() throws {
        let media = try Self.media()
        #expect(media.visible == [VisiblePage(index: 0, id: "p0", fraction: 1)])
        let quarter = try media.after(.scroll(.progress(0.25))).visible
        #expect(quarter.map(\.index) == [0, 1])
        expectClose(quarter[0].fraction, 0.75)
        expectClose(quarter[1].fraction, 0.25)
        // 1/390 of a page is exactly 1 point: left out; a little more is kept.
        #expect(try media.after(.scroll(.progress(1.0 / 390))).visible.map(\.index) == [0])
        #expect(try media.after(.scroll(.progress(1.5 / 390))).visible.map(\.index) == [0, 1])
        // Vertical pages measure by the height.
        let tall = try makePager(3) { $0.orientation = .vertical }
        #expect(try tall.after(.scroll(.progress(1.0 / 844))).visible.map(\.index) == [0])
        #expect(try Pager(pages: []).visible.isEmpty)
        var band = PagerSettings()
        band.rubberBand.style = .linear
        let pulled = try Pager(pages: makePages(2), settings: band).after(.next).after(.scroll(.progress(0.3)))
        #expect(pulled.visible == [VisiblePage(index: 1, id: "p1", fraction: 1)])
        #expect(pulled.tabs.map(\.selection) == [0, 1] && pulled.tabs.map(\.selected) == [false, true])
    }
}
