import PagerModel
import Testing

@Suite("Navigation, transitions and jumps (docs/api.md, «Navigation», «Swipes», «The transition lifecycle», «Jumps»)")
struct NavigationTests {
    @Test("bounded next walks to the end, then stops with edge end and the trailing action")
    func boundedNext() throws {
        var pager = try makePager(3) { $0.trailingAction = PagerAction(id: "add", title: "Add") }
        #expect(pager.reportedTrailingAction == nil)
        var outcome = try pager.applying(.next)
        #expect(outcome.moved == true && outcome.edge == nil && outcome.pager.index == 1 && outcome.pager.version == 2)
        outcome = try outcome.pager.applying(.next)
        #expect(outcome.moved == true && outcome.edge == .end && outcome.pager.index == 2 && outcome.pager.version == 3)
        pager = outcome.pager
        #expect(pager.reportedTrailingAction == PagerAction(id: "add", title: "Add"))
        #expect(!pager.canGoNext && pager.canGoPrevious)
        outcome = try pager.applying(.next)
        #expect(outcome.moved == false && outcome.edge == .end && !outcome.changed)
        #expect(outcome.pager.version == 3 && outcome.pager.index == 2)
    }

    @Test("bounded previous at 0 stops with edge start; previous onto 0 reports it too")
    func boundedPrevious() throws {
        let pager = try makePager(3, initial: 1)
        let onto = try pager.applying(.previous)
        #expect(onto.moved == true && onto.edge == .start && onto.pager.index == 0)
        let stopped = try onto.pager.applying(.previous)
        #expect(stopped.moved == false && stopped.edge == .start && !stopped.changed)
    }

    @Test("loop: n nexts return to the start, previous from 0 wraps, no edges")
    func loopWraps() throws {
        var pager = try makePager(5, mode: .loop)
        for step in 1...5 {
            let outcome = try pager.applying(.next)
            #expect(outcome.moved == true && outcome.edge == nil)
            pager = outcome.pager
            #expect(pager.index == step % 5)
        }
        #expect(pager.version == 6)
        #expect(try pager.after(.previous).index == 4)
        #expect(pager.previousSummary?.id == "p4" && pager.nextSummary?.id == "p1")
        #expect(pager.reportedTrailingAction == nil)
    }

    @Test("a loop of one page has no neighbour and reports edges like a bounded pager")
    func loopOfOne() throws {
        let pager = try makePager(1, mode: .loop)
        let next = try pager.applying(.next)
        #expect(next.moved == false && next.edge == .end && !next.changed)
        #expect(try pager.applying(.previous).edge == .start)
        #expect(!pager.canGoNext && !pager.canGoPrevious && pager.nextSummary == nil)
    }

    @Test("every move on an empty pager answers empty_pager")
    func emptyPager() throws {
        let pager = try makePager(0)
        #expect(pager.index == nil && pager.isEmpty)
        let commands: [PagerCommand] = [
            .next, .previous, .select(.index(0), path: .direct), .scroll(.progress(0.5)),
            .beginTransition(to: 0),
        ]
        for command in commands {
            #expect(throws: PagerError.self) { try pager.applying(command) }
            do { _ = try pager.applying(command) } catch { #expect(error.kind == .emptyPager) }
        }
    }

    @Test("initial page by index or id; out of range and unknown ids are refused")
    func initialPage() throws {
        #expect(try Pager(pages: makePages(3), initialPage: .id("p2")).index == 2)
        #expect(try Pager(pages: makePages(3), initialPage: .index(1)).index == 1)
        do {
            _ = try Pager(pages: makePages(3), initialPage: .index(3))
            Issue.record("expected a refusal")
        } catch { #expect(error.kind == .indexOutOfRange && error.field == "initialPage") }
        do {
            _ = try Pager(pages: makePages(3), initialPage: .id("zz"))
            Issue.record("expected a refusal")
        } catch { #expect(error.kind == .pageNotFound && error.field == "initialPage") }
    }

    // MARK: Jumps

    @Test("select 0 → 3 steps through 1, 2, 3 with rest keyframes")
    func directJump() throws {
        let outcome = try makePager(4).applying(.select(.index(3), path: .direct))
        #expect(outcome.keyframes?.map(\.index) == [1, 2, 3])
        #expect(outcome.keyframes?.map(\.pageOffset) == [390, 780, 1170])
        #expect(outcome.keyframes?.map { $0.indicator?.x } == [97.5, 195, 292.5])
        #expect(outcome.keyframes?.map(\.tabBarOffset) == [0, 0, 0])
        #expect(outcome.direction == .forward && outcome.moved == true && outcome.edge == .end)
        #expect(outcome.pager.index == 3 && outcome.pager.version == 2)
    }

    @Test(
        "loop shortest path picks the shorter way round; a tie goes forward",
        arguments: [
            (4, 0, 3, [3], Direction.reverse),
            (4, 0, 2, [1, 2], Direction.forward),  // tie
            (4, 3, 0, [0], Direction.forward),
            (5, 1, 4, [0, 4], Direction.reverse),
            (5, 4, 1, [0, 1], Direction.forward),
            (6, 1, 4, [2, 3, 4], Direction.forward),  // tie
        ])
    func shortestJump(count: Int, from: Int, to: Int, steps: [Int], direction: Direction) throws {
        let outcome = try makePager(count, mode: .loop, initial: from).applying(.select(.index(to), path: .shortest))
        #expect(outcome.keyframes?.map(\.index) == steps)
        #expect(outcome.direction == direction)
        #expect(outcome.pager.index == to)
    }

    @Test("loop direct path never crosses the seam; bounded shortest behaves as direct")
    func directInLoop() throws {
        let loop = try makePager(4, mode: .loop).applying(.select(.index(3), path: .direct))
        #expect(loop.keyframes?.map(\.index) == [1, 2, 3])
        let bounded = try makePager(4).applying(.select(.index(3), path: .shortest))
        #expect(bounded.keyframes?.map(\.index) == [1, 2, 3])
    }

    @Test("select by id; select of the current page is a no-op; errors for bad targets")
    func selectRules() throws {
        let pager = try makePager(3)
        #expect(try pager.after(.select(.id("p2"), path: .direct)).index == 2)
        let same = try pager.applying(.select(.index(0), path: .direct))
        #expect(same.moved == false && same.keyframes == nil && !same.changed && same.pager.version == 1)
        do {
            _ = try pager.applying(.select(.index(3), path: .direct))
            Issue.record("expected a refusal")
        } catch { #expect(error.kind == .indexOutOfRange && error.field == "index") }
        do {
            _ = try pager.applying(.select(.id("nope"), path: .direct))
            Issue.record("expected a refusal")
        } catch { #expect(error.kind == .pageNotFound) }
    }

    // MARK: Swipes

    @Test("scroll in three forms; sign flips retarget; |p| is clamped to 1; each change bumps once")
    func scrollForms() throws {
        let pager = try makePager(4, initial: 1)
        let forward = try pager.applying(.scroll(.progress(0.3)))
        #expect(forward.pager.transition == Transition(from: 1, to: 2, progress: 0.3, direction: .forward))
        #expect(forward.pager.version == 2 && forward.pager.index == 1)
        let back = try forward.pager.applying(.scroll(.progress(-0.2)))
        #expect(back.pager.transition == Transition(from: 1, to: 0, progress: 0.2, direction: .reverse))
        #expect(back.pager.version == 3)
        let offset = try pager.after(.scroll(.offset(487.5)))  // 487.5/390 − 1 = 0.25
        #expect(offset.transition == Transition(from: 1, to: 2, progress: 0.25, direction: .forward))
        let window = try pager.after(.scroll(.windowOffset(292.5)))  // (292.5 − 390)/390 = −0.25
        #expect(window.transition == Transition(from: 1, to: 0, progress: 0.25, direction: .reverse))
        let clamped = try pager.after(.scroll(.progress(7)))
        #expect(clamped.transition?.progress == 1)
        let same = try forward.pager.applying(.scroll(.progress(0.3)))
        #expect(!same.changed && same.pager.version == 2)
    }

    @Test("p = 0 keeps a transition at progress 0 and otherwise changes nothing")
    func scrollZero() throws {
        let pager = try makePager(3)
        let idle = try pager.applying(.scroll(.progress(0)))
        #expect(!idle.changed && idle.pager.transition == nil)
        let moving = try pager.after(.scroll(.progress(0.4)))
        let zero = try moving.applying(.scroll(.progress(0)))
        #expect(zero.changed && zero.pager.transition == Transition(from: 0, to: 1, progress: 0, direction: .forward))
    }

    @Test("rubber band at either end of a bounded pager: no transition, edge, rest geometry")
    func rubberBand() throws {
        let start = try makePager(3).after(.scroll(.progress(0.5)))
        let band = try start.applying(.scroll(.progress(-0.3)))
        #expect(band.pager.transition == nil && band.edge == .start && band.changed)
        expectClose(band.pager.pageOffset, 0)
        expectClose(band.pager.indicator?.x, 0)
        let end = try makePager(3, initial: 2).applying(.scroll(.offset(900)))
        #expect(end.pager.transition == nil && end.edge == .end && !end.changed)
    }

    @Test("begin/end follow UIPageViewController: neighbours only, retarget, complete or cancel")
    func transitionLifecycle() throws {
        let pager = try makePager(4, initial: 1)
        do {
            _ = try pager.applying(.beginTransition(to: 3))
            Issue.record("expected a refusal")
        } catch { #expect(error.kind == .notANeighbor && error.field == "to") }
        do {
            _ = try pager.applying(.beginTransition(to: 9))
            Issue.record("expected a refusal")
        } catch { #expect(error.kind == .indexOutOfRange) }
        let begun = try pager.applying(.beginTransition(to: 2))
        #expect(begun.pager.transition == Transition(from: 1, to: 2, progress: 0, direction: .forward))
        #expect(begun.pager.version == 2)
        let again = try begun.pager.applying(.beginTransition(to: 2))
        #expect(!again.changed)
        let retarget = try begun.pager.after(.beginTransition(to: 0))
        #expect(retarget.transition?.direction == .reverse && retarget.version == 3)
        let completed = try begun.pager.applying(.endTransition(completed: true))
        #expect(completed.pager.index == 2 && completed.pager.transition == nil && completed.moved == true)
        let cancelled = try begun.pager.applying(.endTransition(completed: false))
        #expect(cancelled.pager.index == 1 && cancelled.pager.transition == nil && cancelled.changed)
        let nothing = try pager.applying(.endTransition(completed: true))
        #expect(!nothing.changed && nothing.pager.index == 1)
    }

    @Test("next, previous and select cancel a transition in flight, bumping the version once")
    func commandsSupersede() throws {
        let swiping = try makePager(3, initial: 2).after(.scroll(.progress(-0.4)))
        #expect(swiping.version == 2)
        let blocked = try swiping.applying(.next)
        #expect(
            blocked.moved == false && blocked.changed && blocked.pager.version == 3 && blocked.pager.transition == nil)
        let moved = try swiping.applying(.previous)
        #expect(moved.pager.index == 1 && moved.pager.version == 3)
        let same = try swiping.applying(.select(.index(2), path: .direct))
        #expect(same.moved == false && same.changed && same.pager.version == 3)
    }

    @Test("peeking at neighbours reads state without changing it")
    func peek() throws {
        let pager = try makePager(3, mode: .loop)
        #expect(pager.previousSummary == PageSummary(index: 2, id: "p2", title: "Page 2"))
        #expect(pager.nextSummary == PageSummary(index: 1, id: "p1", title: "Page 1"))
        #expect(pager.version == 1)
    }

    @Test("preload lists neighbours nearest first, wrapping in a loop without repeats")
    func preload() throws {
        #expect(try makePager(5, initial: 2) { $0.preload = 2 }.preloadIndices == [1, 3, 0, 4])
        #expect(try makePager(5, initial: 0) { $0.preload = 2 }.preloadIndices == [1, 2])
        #expect(try makePager(5, mode: .loop) { $0.preload = 2 }.preloadIndices == [4, 1, 3, 2])
        #expect(try makePager(3, mode: .loop) { $0.preload = 5 }.preloadIndices == [2, 1])
        #expect(try makePager(3) { $0.preload = 0 }.preloadIndices == [])
        #expect(try makePager(2, mode: .loop) { $0.preload = 3 }.preloadIndices == [1])
        #expect(try makePager(4, mode: .loop) { $0.preload = 3 }.preloadIndices == [3, 1, 2])
        #expect(try makePager(1, mode: .loop) { $0.preload = 3 }.preloadIndices == [])
        for count in 1...9 {
            for initial in 0..<count {
                let listed = try makePager(count, mode: .loop, initial: initial) { $0.preload = 4 }.preloadIndices
                #expect(Set(listed).count == listed.count && !listed.contains(initial))
                #expect(listed.count == min(count - 1, 8))
            }
        }
    }
}
