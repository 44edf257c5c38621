import PagerModel
import Testing

/// docs/api.md «Right to left», «Vertical pagers», «Jump animation», «Swipe lock» and «Insert
/// then select» with the documented worked numbers and hand-worked ones.
@Suite("Right to left, vertical, jump animation, swipe lock, insert then select")
struct DirectionJumpLockTests {
    /// `media`: three fixed tabs in a bounded pager, W = 390.
    static func media(_ configure: (inout PagerSettings) -> Void = { _ in }, initial: Int = 0) throws -> Pager {
        try makePager(3, initial: initial, configure: configure)
    }

    static func rtl(_ settings: inout PagerSettings) { settings.layoutDirection = .rtl }

    // MARK: - Right to left

    @Test("media, rtl: tabs mirrored, at rest the indicator at 260 and pageOffset 780")
    func mediaAtRest() throws {
        let pager = try Self.media(Self.rtl)
        expectFrames(pager.tabs.map(\.frame), [(260, 130), (130, 130), (0, 130)])
        expectClose(pager.indicator?.x, 260)
        expectFrames(pager.indicator?.segments, [(260, 130)])
        expectClose(pager.pageOffset, 780)
        #expect(pager.index == 0 && pager.nextSummary?.index == 1)
    }

    @Test("media, rtl: progress, offset and windowOffset inputs give the same half-way state")
    func mediaHalfWay() throws {
        let base = try Self.media(Self.rtl)
        let inputs: [ScrollInput] = [.progress(0.5), .windowOffset(195), .offset(585)]
        let states = try inputs.map { try base.after(.scroll($0)) }
        for state in states {
            #expect(state.transition == Transition(from: 0, to: 1, progress: 0.5, direction: .forward))
            expectClose(state.indicator?.x, 195)
            expectClose(state.pageOffset, 585)
            #expect(state.version == 2)
        }
        #expect(states[0] == states[1] && states[1] == states[2])
    }

    @Test("mall, rtl, index 2, progress 0.5 across the seam: x −65, segments mirrored in order, pageOffset −195")
    func mallSeam() throws {
        let pager = try makePager(3, mode: .loop, initial: 2, configure: Self.rtl).after(.scroll(.progress(0.5)))
        expectClose(pager.indicator?.x, -65)
        expectFrames(pager.indicator?.segments, [(0, 65), (325, 65)])
        expectClose(pager.pageOffset, -195)
        // The same state left to right, for comparison: x 325, segments [{325, 65}, {0, 65}], 975.
        let ltr = try makePager(3, mode: .loop, initial: 2).after(.scroll(.progress(0.5)))
        expectClose(ltr.indicator?.x, 325)
        expectFrames(ltr.indicator?.segments, [(325, 65), (0, 65)])
        expectClose(ltr.pageOffset, 975)
    }

    @Test("scrollable, rtl: four tabs of 100 in W = 200 at index 1 sit at [300, 200, 100, 0], offset 150")
    func scrollableBar() throws {
        let pager = try makePager(
            4, layout: .scrollable, width: 200, widths: [100, 100, 100, 100], initial: 1, configure: Self.rtl)
        expectFrames(pager.tabs.map(\.frame), [(300, 100), (200, 100), (100, 100), (0, 100)])
        #expect(pager.tabBar.contentWidth == 400)
        expectClose(pager.tabBar.offset, 150)
        expectClose(pager.indicator?.x, 200)
        // Hand-worked: at index 3 the LTR offset is clamped to 200, so the mirrored one is 0; at
        // index 0 the LTR offset is 0 and the mirrored one 200.
        expectClose(try pager.after(.select(.index(3), path: .direct)).tabBar.offset, 0)
        expectClose(try pager.after(.select(.index(0), path: .direct)).tabBar.offset, 200)
    }

    @Test("rtl keyframes are mirrored: pageOffset (n − 1)·W − i·W, indicator and bar offset mirrored")
    func mirroredKeyframes() throws {
        let outcome = try Self.media(Self.rtl).applying(.select(.index(2), path: .direct))
        let frames = try #require(outcome.keyframes)
        #expect(frames.map(\.index) == [1, 2])
        expectClose(frames[0].pageOffset, 390)
        expectClose(frames[1].pageOffset, 0)
        expectClose(frames[0].indicator?.x, 130)
        expectClose(frames[1].indicator?.x, 0)
    }

    @Test("rtl changes no logical value: index, version, moves, edges and flags are as left to right")
    func rtlIsPhysicalOnly() throws {
        let commands: [PagerCommand] = [
            .next, .scroll(.progress(0.3)), .scroll(.progress(-0.2)), .endTransition(completed: false), .next, .next,
            .previous, .select(.index(0), path: .shortest), .beginTransition(to: 1), .endTransition(completed: true),
        ]
        for mode in PagerMode.allCases {
            var ltr = try makePager(4, mode: mode)
            var rtl = try makePager(4, mode: mode, configure: Self.rtl)
            for command in commands {
                let a = try ltr.applying(command), b = try rtl.applying(command)
                #expect(a.pager.index == b.pager.index && a.pager.version == b.pager.version)
                #expect(a.pager.transition == b.pager.transition && a.moved == b.moved && a.edge == b.edge)
                #expect(a.pager.canGoNext == b.pager.canGoNext && a.pager.canGoPrevious == b.pager.canGoPrevious)
                // Mirroring twice is the identity: mirror the rtl frames back and get the ltr ones.
                let width = b.pager.tabBar.contentWidth
                let back = b.pager.tabs.map { Frame(x: width - $0.frame.x - $0.frame.width, width: $0.frame.width) }
                #expect(zip(back, a.pager.tabs.map(\.frame)).allSatisfy { abs($0.x - $1.x) < 1e-9 })
                if let x = b.pager.indicator?.x, let w = b.pager.indicator?.width {
                    expectClose(width - x - w, a.pager.indicator?.x ?? .nan)
                }
                expectClose(b.pager.pageOffset, 3 * 390 - a.pager.pageOffset)
                ltr = a.pager
                rtl = b.pager
            }
        }
    }

    // MARK: - Vertical

    @Test("snap, vertical: pageOffset by H = 844; windowOffset 1055 → 0.25; offset 1266 → 0.5, rtl or not")
    func vertical() throws {
        let snap = try makePager(4, layout: .none, initial: 1) { $0.orientation = .vertical }
        expectClose(snap.pageOffset, 844)
        let quarter = try snap.after(.scroll(.windowOffset(1055)))
        expectClose(quarter.transition?.progress, 0.25)
        expectClose(quarter.pageOffset, 1055)
        for direction in LayoutDirection.allCases {
            var settings = snap.settings
            settings.layoutDirection = direction
            let half = try snap.after(.updateSettings(settings)).after(.scroll(.offset(1266)))
            expectClose(half.transition?.progress, 0.5)
            expectClose(half.pageOffset, 1266)
        }
    }

    @Test("vertical keyframes step by H; a bad height is refused naming viewport.height")
    func verticalKeyframesAndValidation() throws {
        let pager = try makePager(4, layout: .none) {
            $0.orientation = .vertical
            $0.viewportHeight = 600
        }
        let frames = try #require(try pager.applying(.select(.index(3), path: .direct)).keyframes)
        #expect(frames.map(\.pageOffset) == [600, 1200, 1800])
        for bad in [0, -1, .infinity, 2e9] {
            var settings = PagerSettings()
            settings.viewportHeight = bad
            do {
                _ = try Pager(pages: makePages(1), settings: settings)
                Issue.record("height \(bad) was accepted")
            } catch {
                #expect(error.field == "viewport.height" && error.kind == .invalid)
            }
        }
    }

    // MARK: - Jump animation

    @Test("media select index 2: direct keeps the target; stepped every step")
    func directJump() throws {
        let media = try Self.media()
        let direct = try media.applying(.select(.index(2), path: .direct, animation: .direct))
        #expect(direct.keyframes?.map(\.index) == [2] && direct.direction == .forward)
        #expect(direct.keyframes?.map(\.jump) == [false])
        let stepped = try media.applying(.select(.index(2), path: .direct))
        #expect(stepped.keyframes?.map(\.index) == [1, 2])
        #expect(direct.pager == stepped.pager)
    }

    @Test("capped jumps of k = 1…9 steps keep the last min(k, 4) steps, the first a jump when k > 3")
    func cappedJumps() throws {
        let ten = try makePager(10)
        for k in 1...9 {
            let stepped = try #require(try ten.applying(.select(.index(k), path: .direct)).keyframes)
            let capped = try #require(try ten.applying(.select(.index(k), path: .direct, animation: .capped)).keyframes)
            let direct = try #require(try ten.applying(.select(.index(k), path: .direct, animation: .direct)).keyframes)
            #expect(capped.map(\.index) == Array(max(1, k - 3)...k))
            #expect(capped.map(\.jump) == (0..<min(k, 4)).map { $0 == 0 && k > 3 })
            // Both are suffixes of the stepped keyframes, value for value apart from `jump`.
            #expect(Array(stepped.suffix(capped.count)).map(\.pageOffset) == capped.map(\.pageOffset))
            #expect(Array(stepped.suffix(1)) == direct)
        }
        let nine = try ten.applying(.select(.index(9), path: .direct, animation: .capped))
        #expect(nine.keyframes?.map(\.index) == [6, 7, 8, 9])
        #expect(nine.keyframes?.map(\.jump) == [true, false, false, false])
    }

    @Test("a capped jump the short way round a loop keeps the last steps of that path")
    func cappedLoop() throws {
        let loop = try makePager(12, mode: .loop, initial: 1)
        let outcome = try loop.applying(.select(.index(8), path: .shortest, animation: .capped))
        // 1 → 0 → 11 → 10 → 9 → 8 (five steps back, seven forward), capped to the last four.
        #expect(outcome.direction == .reverse)
        #expect(outcome.keyframes?.map(\.index) == [11, 10, 9, 8])
        #expect(outcome.keyframes?.first?.jump == true)
    }

    // MARK: - Swipe lock

    @Test("media with swipe none: a scroll is blocked and changes nothing; begin is swipe_locked; next moves")
    func swipeNone() throws {
        let media = try Self.media { $0.swipe = .none }
        let scrolled = try media.applying(.scroll(.progress(0.3)))
        #expect(scrolled.blocked == .forward && scrolled.pager == media && !scrolled.changed && scrolled.edge == nil)
        #expect(try media.applying(.scroll(.progress(-0.3))).blocked == .reverse)
        #expect(try media.applying(.scroll(.progress(0))).blocked == nil)
        do {
            _ = try media.applying(.beginTransition(to: 1))
            Issue.record("a locked begin was accepted")
        } catch {
            #expect(error.kind == .swipeLocked && error.field == "to")
        }
        let moved = try media.applying(.next)
        #expect(moved.moved == true && moved.pager.index == 1)
    }

    @Test("swipe forward blocks only reverse scrolls, and keeps a transition in flight as it was")
    func swipeForward() throws {
        let media = try Self.media({ $0.swipe = .forward }, initial: 1)
        let swiping = try media.after(.scroll(.progress(0.4)))
        let blocked = try swiping.applying(.scroll(.progress(-0.2)))
        #expect(blocked.blocked == .reverse && blocked.pager == swiping)
        #expect(try swiping.applying(.scroll(.progress(0.6))).pager.transition?.progress == 0.6)
        #expect(try media.applying(.beginTransition(to: 2)).pager.transition?.to == 2)
        #expect(throws: PagerError.self) { try media.applying(.beginTransition(to: 0)) }
    }

    // MARK: - Insert then select

    @Test("piggybank: inserting gift after travel with then select shows it, with the trailing action")
    func insertThenSelect() throws {
        var settings = PagerSettings()
        settings.trailingAction = PagerAction(id: "add-bottle", title: "Add a bottle")
        let catalog = [Page(id: "travel", title: "Travel"), Page(id: "gift", title: "Gift")]
        let bank = try Pager(pages: [], settings: settings, catalog: catalog).after(
            .insertFromCatalog(id: "travel", at: nil))
        let selected = try bank.applying(.insertFromCatalog(id: "gift", at: nil, then: .select))
        #expect(selected.pager.index == 1 && selected.pager.currentPage?.id == "gift")
        #expect(selected.pager.reportedTrailingAction?.id == "add-bottle")
        #expect(selected.pager.version == bank.version + 1)
        let stayed = try bank.applying(.insertFromCatalog(id: "gift", at: nil))
        #expect(stayed.pager.index == 0 && stayed.pager.reportedTrailingAction == nil)
    }

    @Test("insert then select cancels a transition in flight and lands on the inserted position")
    func insertThenSelectMidSwipe() throws {
        let swiping = try Self.media(initial: 1).after(.scroll(.progress(0.5)))
        let outcome = try swiping.applying(.insert(Page(id: "new", title: "New"), at: 0, then: .select))
        #expect(
            outcome.pager.index == 0 && outcome.pager.transition == nil && outcome.pager.version == swiping.version + 1)
    }
}
