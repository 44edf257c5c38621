import PagerModel
import Testing

/// docs/api.md «Overscroll and the trailing action» (on release) and «Indicator tracking», with
/// docs/api.md's worked numbers («Overscroll and the trailing action») and hand-worked ones.
@Suite("Overscroll, release, tracking")
struct OverscrollTests {
    /// `media` at index 2 with a rubber band and an indicator overscroll style.
    static func mediaAtEnd(
        _ style: RubberBandStyle, _ indicator: IndicatorOverscroll, initial: Int = 2,
        configure: (inout PagerSettings) -> Void = { _ in }
    ) throws -> Pager {
        try makePager(3, initial: initial) {
            $0.rubberBand.style = style
            $0.tabBar.indicatorOverscroll = indicator
            configure(&$0)
        }
    }

    @Test("linear bounce past the end: p 0.2 → D 78, pageOffset 858, indicator x 286, segments [{286, 104}]")
    func linearBounce() throws {
        let outcome = try Self.mediaAtEnd(.linear, .bounce).applying(.scroll(.windowOffset(468)))
        let pager = outcome.pager
        #expect(pager.overscroll == Overscroll(edge: .end, progress: 0.2))
        expectClose(pager.overscroll?.progress, 0.2)
        #expect(pager.transition == nil && pager.version == 2 && outcome.edge == .end)
        expectClose(pager.pageOffset, 858)
        expectClose(pager.indicator?.x, 286)
        expectClose(pager.indicator?.width, 130)
        expectFrames(pager.indicator?.segments, [(286, 104)])
    }

    @Test("resistance past the end: D = 78^0.85 − 1, pageOffset 819.5770446, x 273.1923482")
    func resistance() throws {
        let pager = try Self.mediaAtEnd(.resistance, .bounce).after(.scroll(.windowOffset(468)))
        expectClose(pager.pageOffset, 819.5770446)
        expectClose(pager.indicator?.x, 273.1923482)
    }

    @Test("at index 0, p −0.2: pageOffset −78; compress keeps the left edge (x 0, width 104); bounce x −26")
    func startEdge() throws {
        let compress = try Self.mediaAtEnd(.linear, .compress, initial: 0).after(.scroll(.progress(-0.2)))
        expectClose(compress.pageOffset, -78)
        expectClose(compress.indicator?.x, 0)
        expectClose(compress.indicator?.width, 104)
        let bounce = try Self.mediaAtEnd(.linear, .bounce, initial: 0).after(.scroll(.progress(-0.2)))
        expectClose(bounce.indicator?.x, -26)
        expectFrames(bounce.indicator?.segments, [(0, 104)])
        #expect(bounce.overscroll?.edge == .start)
    }

    @Test("compress at the end keeps the right edge: x 260 + 26, width 130·0.8 = 104")
    func compressEnd() throws {
        let pager = try Self.mediaAtEnd(.linear, .compress).after(.scroll(.progress(0.2)))
        expectClose(pager.indicator?.x, 286)
        expectClose(pager.indicator?.width, 104)
        expectClose((pager.indicator?.x ?? 0) + (pager.indicator?.width ?? 0), 390)
    }

    @Test("the indicator stays at rest with overscroll none, and under halfway or settled tracking")
    func indicatorAtRest() throws {
        let none = try Self.mediaAtEnd(.linear, .none).after(.scroll(.progress(0.2)))
        expectClose(none.indicator?.x, 260)
        expectClose(none.pageOffset, 858)
        for tracking in [IndicatorTracking.halfway, .settled] {
            let pager = try Self.mediaAtEnd(.linear, .bounce) { $0.tabBar.indicatorTracking = tracking }
                .after(.scroll(.progress(0.2)))
            expectClose(pager.indicator?.x, 260)
            expectFrames(pager.indicator?.segments, [(260, 130)])
        }
    }

    @Test("rtl mirrors an overscroll: pageOffset (n − 1)·W − 858, indicator at C − 286 − 130")
    func rtlOverscroll() throws {
        let pager = try Self.mediaAtEnd(.linear, .bounce) { $0.layoutDirection = .rtl }.after(.scroll(.progress(0.2)))
        expectClose(pager.pageOffset, 780 - 858)
        expectClose(pager.indicator?.x, 390 - 286 - 130)
        expectFrames(pager.indicator?.segments, [(0, 104)])
    }

    @Test("with the default rubber band nothing is recorded: a rest state («Swipes»), version unchanged")
    func defaultRubberBand() throws {
        let media = try makePager(3, initial: 2)
        let outcome = try media.applying(.scroll(.progress(0.2)))
        #expect(outcome.pager.overscroll == nil && !outcome.changed && outcome.edge == .end)
        expectClose(outcome.pager.pageOffset, 780)
    }

    @Test("repeating the same overscroll changes nothing; what clears it is a change")
    func clearing() throws {
        let past = try Self.mediaAtEnd(.linear, .bounce).after(.scroll(.progress(0.2)))
        #expect(try !past.applying(.scroll(.progress(0.2))).changed)
        let clears: [PagerCommand] = [
            .scroll(.progress(0)), .scroll(.progress(-0.3)), .beginTransition(to: 1), .endTransition(completed: false),
            .next, .previous, .select(.index(0), path: .direct), .remove(pageID: "p0"),
            .insert(Page(id: "x", title: "X"), at: nil),
        ]
        for command in clears {
            let outcome = try past.applying(command)
            #expect(outcome.pager.overscroll == nil && outcome.changed, "\(command)")
            #expect(outcome.pager.version == past.version + 1, "\(command)")
        }
        var settings = past.settings
        settings.viewportWidth = 400
        #expect(try past.applying(.updateSettings(settings)).pager.overscroll == nil)
        // A deeper pull replaces the overscroll: one change.
        let deeper = try past.applying(.scroll(.progress(0.5)))
        #expect(deeper.pager.overscroll?.progress == 0.5 && deeper.pager.version == past.version + 1)
    }

    @Test("an overscroll never moves the index and never coexists with a transition")
    func neverMovesIndex() throws {
        var pager = try Self.mediaAtEnd(.linear, .bounce, initial: 1)
        let inputs: [Double] = [0.4, 0.9, -0.3, 0, 0.7, 1.5, -2]
        for p in inputs {
            pager = try pager.after(.scroll(.progress(p)))
            #expect(pager.index == 1)
            #expect(pager.overscroll == nil || pager.transition == nil)
        }
        let end = try Self.mediaAtEnd(.linear, .bounce)
        for p in inputs {
            let after = try end.after(.scroll(.progress(p)))
            #expect(after.index == 2 || after.transition != nil)
        }
    }

    @Test("piggybank with one bottle: a swipe past the end released completed asks for the action, once")
    func releaseRequestsAction() throws {
        var settings = PagerSettings()
        settings.rubberBand.style = .linear
        settings.trailingAction = PagerAction(id: "add-bottle", title: "Add a bottle")
        let bank = try Pager(pages: [Page(id: "travel", title: "Travel")], settings: settings)
        let pulled = try bank.after(.scroll(.progress(0.3)))
        #expect(pulled.overscroll == Overscroll(edge: .end, progress: 0.3))
        let released = try pulled.applying(.endTransition(completed: true))
        #expect(released.moved == false && released.edge == .end && released.pager.overscroll == nil)
        #expect(released.actionRequested == PagerAction(id: "add-bottle", title: "Add a bottle"))
        #expect(released.pager.version == pulled.version + 1)
        // Not completed, or at the start: the page springs back and nothing is asked for.
        #expect(try pulled.applying(.endTransition(completed: false)).actionRequested == nil)
        let start = try bank.after(.scroll(.progress(-0.3))).applying(.endTransition(completed: true))
        #expect(start.actionRequested == nil && start.edge == .start)
        // A next at the end asks too, as before; a peek (a scroll) never does.
        #expect(try bank.applying(.next).actionRequested?.id == "add-bottle")
        #expect(try bank.applying(.scroll(.progress(0.3))).actionRequested == nil)
    }

    @Test("halfway shows the target tab from f ≥ 0.5; settled moves only with the index")
    func tracking() throws {
        let halfway = try makePager(3) { $0.tabBar.indicatorTracking = .halfway }
        expectClose(try halfway.after(.scroll(.progress(0.4))).indicator?.x, 0)
        expectClose(try halfway.after(.scroll(.progress(0.5))).indicator?.x, 130)
        let settled = try makePager(3) { $0.tabBar.indicatorTracking = .settled }
        let swiping = try settled.after(.scroll(.progress(0.9)))
        expectClose(swiping.indicator?.x, 0)
        expectFrames(swiping.indicator?.segments, [(0, 130)])
        expectClose(try swiping.after(.endTransition(completed: true)).indicator?.x, 130)
        // Across a loop's seam halfway takes the tab's own frame: no shift, one segment.
        let loop = try makePager(3, mode: .loop, initial: 2) { $0.tabBar.indicatorTracking = .halfway }
        let seam = try loop.after(.scroll(.progress(0.6)))
        expectClose(seam.indicator?.x, 0)
        expectFrames(seam.indicator?.segments, [(0, 130)])
    }
}
