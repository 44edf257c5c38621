import PagerModel
import Testing

/// The auto-advance state machine (docs/api.md, «Auto-advance») on the pure model: every transition between
/// running, paused (by interaction or by control) and halted, with times given to each command as the engine's
/// clock would give them.
@Suite("Auto-advance")
struct AutoAdvanceTests {
    /// The creation time of every pager here, in wall-clock milliseconds.
    static let t0: Int64 = 1_700_000_000_000

    /// `media` (three pages) with auto-advance configured by `configure` (enabled, 200 ms).
    static func media(
        pages: Int = 3, mode: PagerMode = .bounded, initial: Int? = nil,
        _ configure: (inout AutoAdvanceSettings) -> Void = { _ in }
    ) throws -> Pager {
        var settings = PagerSettings()
        settings.mode = mode
        settings.autoAdvance.enabled = true
        settings.autoAdvance.interval = 200
        configure(&settings.autoAdvance)
        return try Pager(
            pages: makePages(pages), initialPage: initial.map { .index($0) }, settings: settings, now: t0)
    }

    /// Applies `command` at `t0 + at`, failing the test on a refusal.
    static func apply(_ pager: Pager, _ command: PagerCommand, at: Int64) throws -> PagerOutcome {
        try pager.applying(command, now: t0 + at)
    }

    @Test("creation starts the timer: due one interval later, live region off")
    func creationStarts() throws {
        let pager = try Self.media()
        #expect(pager.autoAdvanceRuns)
        #expect(pager.timer == .due(at: Self.t0 + 200))
        #expect(pager.pagerAccessibility.liveRegion == "off")
        let disabled = try Pager(pages: makePages(3), now: Self.t0)
        #expect(!disabled.autoAdvanceRuns && disabled.timer == .idle)
        #expect(disabled.pagerAccessibility.liveRegion == "polite")
    }

    @Test("one page: enabled but not running, never paused; a second page starts it")
    func needsTwoPages() throws {
        let one = try Self.media(pages: 1)
        #expect(!one.autoAdvanceRuns && one.timer == .idle)
        let paused = try Self.apply(one, .autoAdvance(.pause), at: 10)
        #expect(!paused.changed && paused.pager.timer == .idle)
        let grown = try Self.apply(one, .insert(Page(id: "x", title: "X"), at: nil), at: 50)
        #expect(grown.pager.timer == .due(at: Self.t0 + 250))
        #expect(grown.pager.version == 2)
        let shrunk = try Self.apply(grown.pager, .remove(pageID: "x"), at: 60)
        #expect(shrunk.pager.timer == .idle && shrunk.pager.settings.autoAdvance.enabled)
    }

    @Test("atEnd stop: ticks move 0 → 1 → 2, the last one halts in the same change; nothing after")
    func ticksThenHalt() throws {
        let pager = try Self.media { $0.atEnd = .stop }
        let early = try Self.apply(pager, .tick, at: 199)
        #expect(!early.changed && early.pager.version == 1)
        let first = try Self.apply(pager, .tick, at: 200)
        #expect(first.pager.index == 1 && first.moved == true && first.direction == .forward && first.edge == nil)
        #expect(first.pager.version == 2 && first.pager.timer == .due(at: Self.t0 + 400))
        let second = try Self.apply(first.pager, .tick, at: 400)
        #expect(second.pager.index == 2 && second.edge == .end && second.pager.version == 3)
        #expect(!second.pager.settings.autoAdvance.enabled && !second.pager.autoAdvanceRuns)
        #expect(second.pager.timer == .idle && second.keyframes == nil)
        let third = try Self.apply(second.pager, .tick, at: 600)
        #expect(!third.changed)
    }

    @Test("atEnd rewind: at the last page a tick jumps directly to 0, reverse, one keyframe")
    func rewind() throws {
        let atEnd = try Self.media(initial: 2)
        let tick = try Self.apply(atEnd, .tick, at: 250)
        #expect(tick.pager.index == 0 && tick.moved == true && tick.direction == .reverse)
        #expect(tick.keyframes?.map(\.index) == [0] && tick.edge == .start)
        #expect(tick.pager.timer == .due(at: Self.t0 + 450) && tick.pager.version == 2)
        #expect(tick.actionRequested == nil && tick.announcement == nil)
    }

    @Test("atEnd stop at the far end already: the tick halts without moving")
    func haltWithoutMoving() throws {
        let atEnd = try Self.media(initial: 2) { $0.atEnd = .stop }
        let tick = try Self.apply(atEnd, .tick, at: 200)
        #expect(tick.changed && tick.onlyTimerChanged && tick.moved == false && tick.edge == .end)
        #expect(tick.pager.index == 2 && !tick.pager.settings.autoAdvance.enabled && tick.pager.timer == .idle)
    }

    @Test("reverse: previous on every tick; the far end is index 0; a trailing action is never asked")
    func reverse() throws {
        var settings = PagerSettings()
        settings.autoAdvance.enabled = true
        settings.autoAdvance.interval = 1000
        settings.autoAdvance.direction = .reverse
        settings.trailingAction = PagerAction(id: "more", title: "More")
        let pager = try Pager(pages: makePages(3), initialPage: .index(1), settings: settings, now: Self.t0)
        let first = try Self.apply(pager, .tick, at: 1000)
        #expect(first.pager.index == 0 && first.direction == .reverse && first.edge == .start)
        let rewind = try Self.apply(first.pager, .tick, at: 2000)
        #expect(rewind.pager.index == 2 && rewind.direction == .forward && rewind.keyframes?.map(\.index) == [2])
        #expect(rewind.actionRequested == nil)
    }

    @Test("a loop always moves, across the seam, whatever atEnd says")
    func loopAlwaysMoves() throws {
        let pager = try Self.media(mode: .loop, initial: 2) { $0.atEnd = .stop }
        let tick = try Self.apply(pager, .tick, at: 200)
        #expect(tick.pager.index == 0 && tick.moved == true && tick.edge == nil && tick.pager.autoAdvanceRuns)
    }

    @Test("docs/api.md's example: a scroll pauses by interaction; an end without completing runs it again")
    func interactionPause() throws {
        let pager = try Self.media()
        let swipe = try Self.apply(pager, .scroll(.progress(0.3)), at: 20)
        #expect(swipe.pager.version == 2)
        #expect(swipe.pager.timer == .paused(by: .interaction, remaining: 200))
        #expect(swipe.pager.pagerAccessibility.liveRegion == "polite")
        let tickDuringSwipe = try Self.apply(swipe.pager, .tick, at: 500)
        #expect(!tickDuringSwipe.changed)
        let release = try Self.apply(swipe.pager, .endTransition(completed: false), at: 90)
        #expect(release.pager.timer == .due(at: Self.t0 + 290) && release.pager.index == 0)
        let completed = try Self.apply(swipe.pager, .endTransition(completed: true), at: 90)
        #expect(completed.pager.timer == .due(at: Self.t0 + 290) && completed.pager.index == 1)
    }

    @Test("scroll back to p = 0 ends an interaction pause; a blocked scroll is no interaction")
    func restingAndBlockedScrolls() throws {
        // Back at p = 0 the transition is still in flight (progress 0), so the pause holds.
        let swipe = try Self.apply(try Self.media(), .scroll(.progress(0.5)), at: 0).pager
        let back = try Self.apply(swipe, .scroll(.offset(0)), at: 40)
        #expect(back.pager.transition?.progress == 0 && back.pager.timer == swipe.timer)
        // A pull past the start leaves nothing in flight; p = 0 then ends the pause.
        let pull = try Self.apply(try Self.media(), .scroll(.progress(-0.5)), at: 0).pager
        let rest = try Self.apply(pull, .scroll(.offset(0)), at: 40)
        #expect(rest.pager.timer == .due(at: Self.t0 + 240) && rest.onlyTimerChanged)
        var settings = PagerSettings()
        settings.autoAdvance.enabled = true
        settings.swipe = .none
        let locked = try Pager(pages: makePages(3), settings: settings, now: Self.t0)
        let blocked = try Self.apply(locked, .scroll(.progress(0.4)), at: 10)
        #expect(!blocked.changed && blocked.blocked == .forward && blocked.pager.timer == locked.timer)
    }

    @Test("a rubber band under none at an edge only pauses: the version moves, timer only")
    func pauseAtEdgeWithoutRubberBand() throws {
        let pager = try Self.media()
        let pull = try Self.apply(pager, .scroll(.progress(-0.2)), at: 30)
        #expect(pull.changed && pull.onlyTimerChanged && pull.edge == .start && pull.pager.transition == nil)
        #expect(pull.pager.timer == .paused(by: .interaction, remaining: 200) && pull.pager.version == 2)
        // An end with nothing in flight ends the pause; that too changes only the timer.
        let end = try Self.apply(pull.pager, .endTransition(completed: false), at: 70)
        #expect(end.onlyTimerChanged && end.pager.timer == .due(at: Self.t0 + 270) && end.pager.version == 3)
        // Without auto-advance, the same end changes nothing.
        let plain = try Pager(pages: makePages(3))
        #expect(!(try plain.applying(.endTransition(completed: false))).changed)
        // A PATCH that leaves every setting as it was changes nothing, the pause included; one that
        // changes a setting ends it (nothing is in flight) and restarts the interval.
        let same = try Self.apply(pull.pager, .updateSettings(pull.pager.settings), at: 50)
        #expect(!same.changed && same.pager.timer == .paused(by: .interaction, remaining: 200))
        var preload = pull.pager.settings
        preload.preload = 2
        let patched = try Self.apply(pull.pager, .updateSettings(preload), at: 60)
        #expect(patched.changed && patched.pager.timer == .due(at: Self.t0 + 260) && patched.pager.version == 3)
    }

    @Test("onInteraction stop: a transition begin halts in the same change")
    func interactionHalts() throws {
        let pager = try Self.media { $0.onInteraction = .stop }
        let begin = try Self.apply(pager, .beginTransition(to: 1), at: 10)
        #expect(begin.pager.transition != nil && !begin.pager.settings.autoAdvance.enabled)
        #expect(begin.pager.timer == .idle && begin.pager.version == 2)
    }

    @Test("next, previous and select end an interaction pause and restart the interval on a new page")
    func movesEndThePause() throws {
        let paused = try Self.apply(try Self.media(), .scroll(.progress(-0.2)), at: 0).pager
        let next = try Self.apply(paused, .next, at: 120)
        #expect(next.pager.index == 1 && next.pager.timer == .due(at: Self.t0 + 320))
        let selectSame = try Self.apply(paused, .select(.index(0), path: .direct), at: 120)
        #expect(selectSame.moved == false && selectSame.onlyTimerChanged)
        #expect(selectSame.pager.timer == .due(at: Self.t0 + 320))
    }

    @Test("control pause keeps what is left; resume counts it from now; a swipe does not undo it")
    func controlPause() throws {
        let pager = try Self.media()
        let pause = try Self.apply(pager, .autoAdvance(.pause), at: 150)
        #expect(pause.onlyTimerChanged && pause.pager.timer == .paused(by: .control, remaining: 50))
        #expect(pause.pager.version == 2)
        let again = try Self.apply(pause.pager, .autoAdvance(.pause), at: 160)
        #expect(!again.changed)
        // A swipe and its end leave a control pause as it is.
        let swipe = try Self.apply(pause.pager, .scroll(.progress(0.3)), at: 170)
        #expect(swipe.pager.timer == .paused(by: .control, remaining: 50))
        let release = try Self.apply(swipe.pager, .endTransition(completed: false), at: 180)
        #expect(release.pager.timer == .paused(by: .control, remaining: 50))
        // A page change while paused restarts the interval, still paused.
        let moved = try Self.apply(release.pager, .next, at: 190)
        #expect(moved.pager.timer == .paused(by: .control, remaining: 200))
        let resume = try Self.apply(release.pager, .autoAdvance(.resume), at: 1000)
        #expect(resume.pager.timer == .due(at: Self.t0 + 1050) && resume.pager.pagerAccessibility.liveRegion == "off")
        let overdue = try Self.apply(pager, .autoAdvance(.pause), at: 900)
        #expect(overdue.pager.timer == .paused(by: .control, remaining: 0))
    }

    @Test("pausing over an interaction pause keeps its remaining time and makes it a control pause")
    func pauseOverInteraction() throws {
        let swipe = try Self.apply(try Self.media(), .scroll(.progress(0.3)), at: 0).pager
        let pause = try Self.apply(swipe, .autoAdvance(.pause), at: 50)
        #expect(pause.pager.timer == .paused(by: .control, remaining: 200))
        // Resumed with the swipe still in flight: paused by interaction again, remaining kept.
        let resume = try Self.apply(pause.pager, .autoAdvance(.resume), at: 60)
        #expect(resume.pager.timer == .paused(by: .interaction, remaining: 200) && resume.pager.transition != nil)
        // Resume over an interaction pause with the swipe in flight changes nothing.
        let noop = try Self.apply(resume.pager, .autoAdvance(.resume), at: 70)
        #expect(!noop.changed)
    }

    @Test("stop halts; start turns it on and counts a full interval; start over a control pause resumes")
    func startAndStop() throws {
        let pager = try Self.media()
        let stop = try Self.apply(pager, .autoAdvance(.stop), at: 10)
        #expect(!stop.pager.settings.autoAdvance.enabled && stop.pager.timer == .idle && stop.pager.version == 2)
        #expect(!(try Self.apply(stop.pager, .autoAdvance(.stop), at: 20)).changed)
        let start = try Self.apply(stop.pager, .autoAdvance(.start), at: 30)
        #expect(start.pager.timer == .due(at: Self.t0 + 230) && start.pager.settings.autoAdvance.enabled)
        #expect(!(try Self.apply(start.pager, .autoAdvance(.start), at: 40)).changed)
        let paused = try Self.apply(start.pager, .autoAdvance(.pause), at: 50).pager
        let restart = try Self.apply(paused, .autoAdvance(.start), at: 60)
        #expect(restart.pager.timer == .due(at: Self.t0 + 260))
        // Start with a swipe in flight: running, paused by interaction with a full interval.
        let swiping = try Self.apply(stop.pager, .scroll(.progress(0.2)), at: 70).pager
        let startSwiping = try Self.apply(swiping, .autoAdvance(.start), at: 80)
        #expect(startSwiping.pager.timer == .paused(by: .interaction, remaining: 200))
        #expect(startSwiping.pager.transition == swiping.transition)
    }

    @Test("control on an empty pager answers with no change; start enables it without running")
    func controlOnEmpty() throws {
        let empty = try Pager(pages: [], now: Self.t0)
        let start = try Self.apply(empty, .autoAdvance(.start), at: 0)
        #expect(start.changed && start.pager.settings.autoAdvance.enabled && !start.pager.autoAdvanceRuns)
        #expect(!(try Self.apply(empty, .autoAdvance(.resume), at: 0)).changed)
    }

    @Test("a settings change to autoAdvance restarts the interval; halted stays halted on an interval PATCH")
    func settingsRestart() throws {
        let pager = try Self.media()
        var settings = pager.settings
        settings.autoAdvance.interval = 1000
        let patched = try Self.apply(pager, .updateSettings(settings), at: 100)
        #expect(patched.pager.timer == .due(at: Self.t0 + 1100))
        let halted = try Self.apply(pager, .autoAdvance(.stop), at: 10).pager
        var longer = halted.settings
        longer.autoAdvance.interval = 3000
        let repatched = try Self.apply(halted, .updateSettings(longer), at: 20)
        #expect(!repatched.pager.settings.autoAdvance.enabled && repatched.pager.timer == .idle)
        var bad = pager.settings
        bad.autoAdvance.interval = 99
        #expect(throws: PagerError.self) { try pager.applying(.updateSettings(bad)) }
        #expect(AutoAdvanceSettings.intervals == 100...86_400_000)
    }

    @Test("push and pop leave the timer alone")
    func stacksDoNotTouchTheTimer() throws {
        let pager = try Self.media()
        let push = try Self.apply(pager, .push(pageID: "p0", Screen(id: "s", title: nil, content: nil)), at: 100)
        #expect(push.pager.timer == pager.timer && !push.onlyTimerChanged)
    }
}
