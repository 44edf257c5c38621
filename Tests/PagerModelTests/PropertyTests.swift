import PagerModel
import PropertyBased
import Testing

/// Turns a generated integer into a command, so sequences shrink like integer arrays.
func command(from code: Int, count: Int) -> PagerCommand {
    let target = count == 0 ? 0 : (code / 16) % max(count, 1)
    switch code % 16 {
    case 0, 1: return .next
    case 2, 3: return .previous
    case 4: return .select(.index(target), path: .direct)
    case 5: return .select(.index(target), path: .shortest)
    case 6: return .scroll(.progress(Double(code % 41 - 20) / 20))
    case 7: return .scroll(.offset(Double(code % 997) * 1.7))
    case 8: return .beginTransition(to: target)
    case 9: return .endTransition(completed: code % 2 == 0)
    case 10: return .insert(Page(id: "n\(code)", title: "New \(code)"), at: count == 0 ? 0 : code % (count + 1))
    case 11: return .remove(pageID: "p\(target)")
    case 12: return .update(pageID: "p\(target)", PageUpdate(moveTo: target == 0 ? nil : code % max(count, 1)))
    case 13: return .push(pageID: "p\(target)", Screen(id: "s\(code)"))
    case 14: return .pop(pageID: "p\(target)", toRoot: code % 2 == 0)
    default: return .scroll(.windowOffset(Double(code % 800)))
    }
}

@Suite("Pager invariants under random command sequences")
struct PropertyTests {
    static let codes = Gen.int(in: 0...100_000).array(of: 1...60)
    static let modes = Gen.int(in: 0...5)

    /// A pager of 0–5 pages in one of six mode/layout combinations.
    static func start(_ variant: Int, count: Int) throws -> Pager {
        let layouts: [TabLayout] = [.fixed, .scrollable, .none]
        return try makePager(
            count, mode: variant % 2 == 0 ? .bounded : .loop, layout: layouts[variant % 3],
            style: variant < 3 ? .linear : .elastic,
            titles: (0..<count).map { ["상품", "Chat", "최근 본 상품", "A", "찜"][$0 % 5] })
    }

    @Test("the index is always valid or null; a version bumps exactly when a command changed something")
    func indexAndVersion() async {
        await propertyCheck(count: 300, input: Self.codes, Self.modes, Gen.int(in: 0...5)) { codes, variant, count in
            var pager = try! Self.start(variant, count: count)
            for code in codes {
                let before = pager
                // A refusal throws and leaves `pager` as it was by construction (a value); that the
                // engine keeps nothing of a refused command is tested against the engine.
                if let outcome = try? pager.applying(command(from: code, count: pager.count)) {
                    #expect(outcome.pager.version == before.version + (outcome.changed ? 1 : 0))
                    pager = outcome.pager
                }
                if let index = pager.index {
                    #expect(pager.pages.indices.contains(index))
                } else {
                    #expect(pager.isEmpty)
                }
                #expect(pager.version >= before.version)
            }
        }
    }

    @Test("n nexts in a loop of n pages return to the start")
    func loopReturns() async {
        await propertyCheck(count: 100, input: Gen.int(in: 1...40), Gen.int(in: 0...39)) { count, start in
            var pager = try! makePager(count, mode: .loop, initial: start % count)
            for _ in 0..<count { pager = try! pager.after(.next) }
            #expect(pager.index == start % count)
        }
    }

    @Test("keyframes are contiguous single steps ending at the target")
    func keyframesAreSteps() async {
        await propertyCheck(
            count: 300, input: Gen.int(in: 1...30), Gen.int(in: 0...29), Gen.int(in: 0...29), Gen.int(in: 0...3)
        ) {
            count, from, to, variant in
            let pager = try! makePager(count, mode: variant % 2 == 0 ? .bounded : .loop, initial: from % count)
            let path: JumpPath = variant < 2 ? .direct : .shortest
            let outcome = try! pager.applying(.select(.index(to % count), path: path))
            guard let keyframes = outcome.keyframes else {
                #expect(from % count == to % count)
                return
            }
            #expect(keyframes.last?.index == to % count)
            var previous = from % count
            for frame in keyframes {
                let step = (frame.index - previous + count) % count
                #expect(step == 1 || step == count - 1, "step from \(previous) to \(frame.index)")
                if pager.settings.mode == .bounded || path == .direct { #expect(abs(frame.index - previous) == 1) }
                previous = frame.index
            }
            if path == .shortest, pager.settings.mode == .loop {
                #expect(keyframes.count <= count / 2)
            }
        }
    }

    @Test("at rest the indicator lies inside [0, contentWidth]; its segments always do")
    func indicatorInside() async {
        await propertyCheck(count: 300, input: Self.codes, Self.modes, Gen.int(in: 1...6)) { codes, variant, count in
            var pager = try! Self.start(variant, count: count)
            for code in codes {
                pager = (try? pager.applying(command(from: code, count: pager.count)).pager) ?? pager
                guard let indicator = pager.indicator else { continue }
                let contentWidth = pager.tabBar.contentWidth
                if pager.transition == nil {
                    #expect(indicator.x >= -1e-9 && indicator.x + indicator.width <= contentWidth + 1e-9)
                }
                for segment in indicator.segments {
                    #expect(segment.width > 0)
                    #expect(segment.x >= -1e-9 && segment.x + segment.width <= contentWidth + 1e-9)
                }
                let visible = indicator.segments.reduce(0) { $0 + $1.width }
                #expect(abs(visible - min(indicator.width, contentWidth)) < 1e-6)
            }
        }
    }

    @Test("inserting then removing a page restores everything but the version")
    func insertRemoveRoundTrip() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...8), Gen.int(in: 0...8), Gen.int(in: 0...8), Self.modes) {
            count, current, position, variant in
            let pager = try! Self.start(variant, count: count)
            let start = count == 0 ? pager : try! pager.after(.select(.index(current % count), path: .direct))
            let inserted = try! start.after(.insert(Page(id: "inserted", title: "찜 New"), at: position % (count + 1)))
            let removed = try! inserted.after(.remove(pageID: "inserted"))
            #expect(removed.pages == start.pages)
            #expect(removed.index == start.index)
            #expect(removed.tabs == start.tabs)
            #expect(removed.indicator == start.indicator)
            #expect(removed.version == start.version + 2)
        }
    }
}
