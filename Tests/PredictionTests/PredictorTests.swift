import PagerModel
import Testing

/// The typed entry point in-process: a state and settings built from a pager's own reported
/// values predict, bit for bit, what the pager reports after the scroll.
struct PredictorTests {
    /// The state a client would decode from `pager`'s state document.
    static func scrollState(of pager: Pager) -> ScrollState {
        var ids: [Int: String] = [:]
        for (position, page) in pager.pages.enumerated() { ids[position] = page.id }
        return ScrollState(
            index: pager.index, pageCount: pager.count, transition: pager.transition, overscroll: pager.overscroll,
            tabs: pager.tabs.map { ScrollState.Tab(width: $0.frame.width, baseWidth: $0.baseWidth) },
            effectiveLayout: pager.tabBar.effectiveLayout, pageIDs: ids)
    }

    /// `settings` with the title-width estimate's settings changed: prediction must not read
    /// them (the widths come with the state).
    static func scrollSettings(of settings: PagerSettings) -> PagerSettings {
        var scroll = settings
        scroll.tabBar.minTabWidth = 1
        scroll.tabBar.charWidth = 1000
        return scroll
    }

    static let settings: [(String, PagerSettings)] = {
        var list: [(String, PagerSettings)] = [("defaults", PagerSettings())]
        var loop = PagerSettings()
        loop.mode = .loop
        loop.layoutDirection = .rtl
        loop.tabBar.layout = .scrollable
        loop.tabBar.indicatorStyle = .elastic
        loop.tabBar.indicatorInset.leading = 6
        list.append(("scrollable rtl loop, elastic, inset", loop))
        var widened = PagerSettings()
        widened.tabBar.layout = .auto
        widened.viewportWidth = 200
        widened.tabBar.selectedTabWidth = 140
        widened.tabBar.alignment = .center
        widened.tabBar.title = TitleStyle()
        widened.rubberBand.style = .resistance
        widened.tabBar.indicatorOverscroll = .compress
        list.append(("auto, selected width, titles, resistance", widened))
        var spread = PagerSettings()
        spread.pagesPerView = 2.5
        spread.pageSpacing = 8
        spread.orientation = .vertical
        spread.rubberBand.style = .linear
        spread.tabBar.indicatorOverscroll = .bounce
        spread.tabBar.indicatorProgressive = true
        spread.swipe = .forward
        list.append(("pages per view, vertical, progressive, forward only", spread))
        return list
    }()

    @Test("predicts what the pager reports after each scroll, bit for bit", arguments: settings.indices)
    func predictsThePagersOwnAnswer(setting: Int) throws {
        let (name, settings) = Self.settings[setting]
        let pages = ["Home", "최근 본 상품", "Wishlist and more", "찜", "Settings"].enumerated().map {
            Page(id: "p\($0.offset)", title: $0.element)
        }
        var checked = 0
        for index in [0, 2, 4] {
            let start = try Pager(pages: pages, initialPage: .index(index), settings: settings)
            for first in stride(from: -1.25, through: 1.25, by: 0.25) {
                // From rest, then from the swipe that left.
                let swiping = try start.applying(.scroll(.progress(first))).pager
                for from in [start, swiping] {
                    let predictor = try ScrollPredictor(
                        state: Self.scrollState(of: from), settings: Self.scrollSettings(of: settings))
                    for input in [
                        ScrollInput.progress(-first / 2), .offset(Double(index) * 300 + 37), .windowOffset(500),
                    ] {
                        let predicted = try predictor.predict(input)
                        let outcome = try from.applying(.scroll(input))
                        let after = outcome.pager
                        let (indicator, bar) = after.indicatorAndTabBar
                        let context = "\(name), \(from.transition.map { "\($0)" } ?? "at rest") on \(index), \(input)"
                        #expect(predicted.transition == after.transition, "\(context)")
                        #expect(predicted.overscroll == after.overscroll, "\(context)")
                        #expect(predicted.pageOffset == after.pageOffset, "\(context)")
                        #expect(predicted.visible == after.visible, "\(context)")
                        #expect(predicted.indicator == indicator, "\(context)")
                        #expect(
                            predicted.tabBar == ScrollMembers.TabBar(contentWidth: bar.contentWidth, offset: bar.offset)
                        )
                        #expect(
                            predicted.tabs
                                == after.tabs.map {
                                    ScrollMembers.Tab(
                                        x: $0.frame.x, width: $0.frame.width, selection: $0.selection,
                                        selected: $0.selected, color: $0.color, scale: $0.scale)
                                }, "\(context)")
                        #expect(predicted.edge == outcome.edge && predicted.blocked == outcome.blocked, "\(context)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 3 * 11 * 2 * 3)
    }

    @Test("refuses as the server does: an empty pager, a NaN progress, a document that disagrees")
    func refusals() throws {
        let empty = ScrollState(index: nil, pageCount: 0, tabs: [], pageIDs: [:])
        #expect(throws: PredictionError(code: .emptyPager, detail: "The pager has no pages.")) {
            try predictScroll(state: empty, settings: PagerSettings(), input: .progress(0.5))
        }
        let pager = try Pager(pages: [Page(id: "a", title: "A"), Page(id: "b", title: "B")])
        let state = Self.scrollState(of: pager)
        do {
            _ = try predictScroll(state: state, settings: PagerSettings(), input: .progress(.nan))
            Issue.record("a NaN progress was predicted")
        } catch {
            #expect(error.code == .invalidRequest && error.field == "progress")
        }
        var tooFew = state
        tooFew.tabs.removeLast()
        do {
            _ = try ScrollPredictor(state: tooFew, settings: PagerSettings())
            Issue.record("a state with a tab missing was read")
        } catch {
            #expect(error.code == .unexpectedDocument)
            #expect(error.code.rawValue == "unexpected_response")
        }
        var unnamed = state
        unnamed.pageIDs = [0: "a"]
        do {
            _ = try predictScroll(state: unnamed, settings: PagerSettings(), input: .progress(0.5))
            Issue.record("a page with no id was shown")
        } catch {
            #expect(error.code == .unexpectedDocument)
        }
    }
}
