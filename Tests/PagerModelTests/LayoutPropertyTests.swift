import PagerModel
import PropertyBased
import Testing

/// Invariants of the layout settings under random settings and command sequences.
@Suite("Layout settings: invariants under random commands")
struct LayoutPropertyTests {
    static let codes = Gen.int(in: 0...100_000).array(of: 1...30)

    /// A pager whose layout settings are drawn from `seed`, in `direction`.
    static func pager(_ seed: Int, count: Int, direction: LayoutDirection = .ltr) throws -> Pager {
        let positions = TabBarPosition.allCases
        let layouts: [TabLayout] = [.fixed, .scrollable, .auto, .scrollable]
        return try makePager(
            count, mode: seed % 2 == 0 ? .bounded : .loop, layout: layouts[seed % 4],
            width: [390, 200, 1000][seed % 3], style: [.linear, .elastic, .fade][seed / 3 % 3],
            titles: (0..<count).map { ["Chat", "상품", "최근 본 상품", "A"][($0 + seed) % 4] }
        ) {
            $0.layoutDirection = direction
            $0.tabBar.alignment = positions[seed / 2 % 3]
            $0.tabBar.selectedScrollPosition = positions[seed / 5 % 3]
            $0.tabBar.indicatorInset.leading = Double(seed % 7)
            $0.tabBar.indicatorInset.lastTrailing = Double(seed % 11)
            $0.tabBar.maxTabWidth = seed % 3 == 0 ? 70 : nil
            $0.tabBar.selectedTabWidth = seed % 5 < 2 ? 120 : nil
            $0.tabBar.indicatorTracking = [.continuous, .continuous, .halfway, .settled][seed / 7 % 4]
            $0.tabBar.indicatorOverscroll = [.bounce, .compress][seed % 2]
            $0.rubberBand.style = seed % 3 == 1 ? .none : .linear
            $0.pagesPerView = [1, 1.25, 2, 3.5][seed / 11 % 4]
            $0.pageSpacing = [0, 10][seed / 13 % 2]
            $0.pagesCentered = seed / 17 % 2 == 1
            $0.orientation = seed / 19 % 3 == 2 ? .vertical : .horizontal
        }
    }

    static func logical(_ code: Int, count: Int) -> PagerCommand {
        switch command(from: code, count: count) {
        case .scroll: return .scroll(.progress(Double(code % 41 - 20) / 20))
        case let other: return other
        }
    }

    @Test("rtl changes no logical value, and mirroring the bar and the pages back gives the ltr geometry")
    func rtlMirrorsOnly() async {
        await propertyCheck(count: 300, input: Self.codes, Gen.int(in: 0...400), Gen.int(in: 1...7)) {
            codes, seed, count in
            var ltr = try! Self.pager(seed, count: count)
            var rtl = try! Self.pager(seed, count: count, direction: .rtl)
            for code in codes {
                let command = Self.logical(code, count: ltr.count)
                let a = try? ltr.applying(command), b = try? rtl.applying(command)
                #expect((a == nil) == (b == nil))
                guard let a, let b else { continue }
                ltr = a.pager
                rtl = b.pager
                #expect(ltr.index == rtl.index && ltr.transition == rtl.transition && ltr.overscroll == rtl.overscroll)
                #expect(ltr.visible == rtl.visible && ltr.preloadIndices == rtl.preloadIndices)
                let width = rtl.tabBar.contentWidth
                #expect(abs(width - ltr.tabBar.contentWidth) < 1e-9)
                let mirrored = rtl.tabs.map { Frame(x: width - $0.frame.x - $0.frame.width, width: $0.frame.width) }
                #expect(zip(mirrored, ltr.tabs.map(\.frame)).allSatisfy { abs($0.x - $1.x) < 1e-6 })
                if let x = rtl.indicator?.x, let w = rtl.indicator?.width, let original = ltr.indicator?.x {
                    #expect(abs(width - x - w - original) < 1e-6)
                }
                let scrollable = (ltr.tabBar.effectiveLayout ?? ltr.settings.tabBar.layout) == .scrollable
                if scrollable {
                    let room = max(0, width - ltr.settings.viewportWidth)
                    #expect(abs(rtl.tabBar.offset - (room - ltr.tabBar.offset)) < 1e-6)
                }
                // Horizontal pages mirror about R = O_0 + O_{n−1}, the sum of the first and the last
                // rest offsets: the two offsets add up to R in every state. Vertical ones do not.
                guard !ltr.isEmpty else { continue }
                if ltr.settings.orientation == .vertical {
                    #expect(rtl.pageOffset == ltr.pageOffset)
                } else {
                    let first = try! ltr.after(.select(.index(0), path: .direct)).pageOffset
                    let last = try! ltr.after(.select(.index(ltr.count - 1), path: .direct)).pageOffset
                    #expect(abs(rtl.pageOffset + ltr.pageOffset - (first + last)) < 1e-6)
                }
            }
        }
    }

    @Test("the tabs of a moment touch one after another, spacing apart, and C holds them")
    func framesAreContiguous() async {
        await propertyCheck(count: 300, input: Self.codes, Gen.int(in: 0...400), Gen.int(in: 1...7)) {
            codes, seed, count in
            var pager = try! Self.pager(seed, count: count)
            for code in codes {
                guard let outcome = try? pager.applying(Self.logical(code, count: pager.count)) else { continue }
                pager = outcome.pager
                let tabs = pager.tabs
                guard let last = tabs.last, let first = tabs.first else { continue }
                let bar = pager.settings.tabBar
                for (a, b) in zip(tabs, tabs.dropFirst()) {
                    #expect(abs(a.frame.maxX + bar.spacing - b.frame.x) < 1e-6)
                }
                #expect(last.frame.maxX + bar.inset <= pager.tabBar.contentWidth + 1e-6)
                #expect(first.frame.x >= bar.inset - 1e-6)
                // At rest the selected tab of a scrollable bar has the selected width.
                if pager.transition == nil, let width = bar.selectedTabWidth, let index = pager.index,
                    tabs[index].baseWidth != nil
                {
                    #expect(abs(tabs[index].frame.width - width) < 1e-6)
                }
                // The indicator lies within its focus tab's span, never wider than the frames it joins.
                if let indicator = pager.indicator, pager.overscroll == nil, !bar.indicatorProgressive {
                    #expect(indicator.width >= -1e-9)
                    #expect(indicator.segments.allSatisfy { $0.width > 0 })
                }
            }
        }
    }

    @Test("an offset between the neighbours' rest offsets is followed exactly, unless they rest together")
    func offsetsAreFollowed() async {
        await propertyCheck(
            count: 400, input: Gen.int(in: 0...400), Gen.int(in: 2...9), Gen.int(in: 0...8), Gen.int(in: 0...100)
        ) { seed, count, start, share in
            let pager = try! Self.pager(seed, count: count)
            let current = start % count
            let rest = try! pager.after(.select(.index(current), path: .direct))
            // The neighbours' rest offsets, as keyframes of a jump to each report them.
            func restOffset(_ target: Int) -> Double? {
                guard let outcome = try? rest.applying(.select(.index(target), path: .direct)) else { return nil }
                return outcome.keyframes?.last?.pageOffset
            }
            let here = rest.pageOffset
            for target in [current - 1, current + 1] where (0..<count).contains(target) {
                guard let there = restOffset(target), abs(there - here) > 1e-6 else { continue }
                let offset = here + (there - here) * Double(share) / 100
                let moved = try! rest.applying(.scroll(.offset(offset))).pager
                #expect(abs(moved.pageOffset - offset) < 1e-6, "offset \(offset) from \(here) toward \(there)")
                if share > 0 { #expect(moved.transition?.to == target) }
            }
        }
    }
}
