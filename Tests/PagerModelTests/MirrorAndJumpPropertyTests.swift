import PagerModel
import PropertyBased
import Testing

/// Invariants of right to left, vertical pagers and jumps (docs/api.md) under random command sequences and jumps.
@Suite("Mirroring, scrolls and jumps under random commands")
struct MirrorAndJumpPropertyTests {
    static let codes = Gen.int(in: 0...100_000).array(of: 1...40)

    /// The same pager in both directions, with a rubber band so overscrolls happen.
    static func pair(_ variant: Int, count: Int) throws -> (ltr: Pager, rtl: Pager) {
        let layouts: [TabLayout] = [.fixed, .scrollable, .none]
        func make(_ direction: LayoutDirection) throws -> Pager {
            try makePager(
                count, mode: variant % 2 == 0 ? .bounded : .loop, layout: layouts[variant % 3],
                style: variant < 3 ? .linear : .elastic, titles: (0..<count).map { "Tab \($0 * 7 % 5)" }
            ) {
                $0.layoutDirection = direction
                $0.rubberBand.style = variant % 3 == 0 ? .none : .linear
                $0.tabBar.indicatorOverscroll = variant % 2 == 0 ? .bounce : .compress
            }
        }
        return (try make(.ltr), try make(.rtl))
    }

    /// A command with its progress inputs sent as `progress`: physical inputs differ by design
    /// between the two directions.
    static func logical(_ code: Int, count: Int) -> PagerCommand {
        switch command(from: code, count: count) {
        case .scroll: return .scroll(.progress(Double(code % 41 - 20) / 20))
        case let other: return other
        }
    }

    @Test("rtl changes no logical value and mirroring it back gives the ltr geometry")
    func rtlMirrorsOnly() async {
        await propertyCheck(count: 200, input: Self.codes, Gen.int(in: 0...5), Gen.int(in: 0...6)) {
            codes, variant, count in
            var (ltr, rtl) = try! Self.pair(variant, count: count)
            for code in codes {
                let command = Self.logical(code, count: ltr.count)
                let a = try? ltr.applying(command), b = try? rtl.applying(command)
                #expect((a == nil) == (b == nil))
                guard let a, let b else { continue }
                #expect(a.pager.index == b.pager.index && a.pager.version == b.pager.version)
                #expect(a.pager.transition == b.pager.transition && a.pager.overscroll == b.pager.overscroll)
                #expect(a.moved == b.moved && a.edge == b.edge && a.actionRequested == b.actionRequested)
                #expect(a.keyframes?.map(\.index) == b.keyframes?.map(\.index))
                ltr = a.pager
                rtl = b.pager
                let width = rtl.tabBar.contentWidth
                let mirrored = rtl.tabs.map { Frame(x: width - $0.frame.x - $0.frame.width, width: $0.frame.width) }
                #expect(zip(mirrored, ltr.tabs.map(\.frame)).allSatisfy { abs($0.x - $1.x) < 1e-6 })
                if let x = rtl.indicator?.x, let w = rtl.indicator?.width, let original = ltr.indicator?.x {
                    #expect(abs(width - x - w - original) < 1e-6)
                }
                if !ltr.isEmpty {
                    #expect(abs(rtl.pageOffset - (Double(ltr.count - 1) * 390 - ltr.pageOffset)) < 1e-6)
                }
            }
        }
    }

    @Test("a scroll never moves the index, and an overscroll never coexists with a transition")
    func overscrollKeepsIndex() async {
        await propertyCheck(count: 200, input: Self.codes, Gen.int(in: 0...5), Gen.int(in: 1...6)) {
            codes, variant, count in
            var pager = try! Self.pair(variant, count: count).ltr
            for code in codes {
                let command = Self.logical(code, count: pager.count)
                guard let outcome = try? pager.applying(command) else { continue }
                if case .scroll = command { #expect(outcome.pager.index == pager.index) }
                #expect(outcome.pager.overscroll == nil || outcome.pager.transition == nil)
                if let overscroll = outcome.pager.overscroll {
                    #expect(overscroll.progress > 0 && overscroll.progress <= 1)
                }
                pager = outcome.pager
            }
        }
    }

    @Test("direct and capped keyframes are suffixes of the stepped ones")
    func jumpSuffixes() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: 1...30), Gen.int(in: 0...29), Gen.int(in: 0...29), Gen.int(in: 0...3)
        ) {
            count, from, to, variant in
            let pager = try! makePager(count, mode: variant % 2 == 0 ? .bounded : .loop, initial: from % count)
            let path: JumpPath = variant < 2 ? .direct : .shortest
            let target = PageReference.index(to % count)
            let stepped = try! pager.applying(.select(target, path: path)).keyframes ?? []
            for animation in [JumpAnimation.direct, .capped] {
                let outcome = try! pager.applying(.select(target, path: path, animation: animation))
                let frames = outcome.keyframes ?? []
                #expect(frames.count == min(stepped.count, animation == .direct ? 1 : 4))
                var unjumped = frames
                for index in unjumped.indices { unjumped[index].jump = false }
                #expect(Array(stepped.suffix(frames.count)) == unjumped)
                #expect(frames.filter(\.jump).count == (animation == .capped && stepped.count > 3 ? 1 : 0))
                #expect(outcome.pager == (try! pager.applying(.select(target, path: path))).pager)
            }
        }
    }
}
