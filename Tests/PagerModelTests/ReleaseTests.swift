import PagerModel
import Testing

/// Releasing a swipe by velocity, giving up a swipe nobody touches, and the settings' version.
@Suite("Release by velocity and abandoned swipes")
struct ReleaseTests {
    static let t0: Int64 = 1_700_000_000_000

    /// `media`'s three pages at `index`, with `configure` applied to the settings.
    static func media(index: Int = 1, _ configure: (inout PagerSettings) -> Void = { _ in }) throws -> Pager {
        var settings = PagerSettings()
        configure(&settings)
        return try Pager(pages: makePages(3), initialPage: .index(index), settings: settings, now: t0)
    }

    @Test(
        "the worked examples: a flick completes, past half way a swipe completes unless flicked back",
        arguments: [
            (0.3, 0.8, true), (0.6, -0.7, false), (0.6, 0.0, true), (0.4, 0.2, false), (-0.55, -0.1, true),
            (0.5, -0.4, true), (0.5, -0.5, false), (0.1, 0.5, true), (-0.2, -0.5, true), (-0.2, 0.5, false),
        ])
    func decisions(progress: Double, velocity: Double, completes: Bool) throws {
        let start = try Self.media()
        let swiping = try start.applying(.scroll(.progress(progress)), now: Self.t0).pager
        let released = try swiping.applying(.release(velocity: velocity), now: Self.t0 + 100)
        #expect(released.settle == Settle(completed: completes, progress: progress, velocity: velocity))
        #expect(released.pager.transition == nil && released.changed && released.pager.version == 3)
        #expect(released.moved == completes)
        #expect(released.pager.index == (completes ? (progress > 0 ? 2 : 0) : 1))
        // The same as the completed or cancelled end it decided.
        let ended = try swiping.applying(.endTransition(completed: completes), now: Self.t0 + 100)
        #expect(ended.pager == released.pager)
    }

    @Test("a flick velocity of 2 pages per second needs a faster flick")
    func flickSetting() throws {
        let start = try Self.media { $0.release.flickVelocity = 2 }
        let swiping = try start.applying(.scroll(.progress(0.3)), now: Self.t0).pager
        #expect(try swiping.applying(.release(velocity: 1.9), now: Self.t0).settle?.completed == false)
        #expect(try swiping.applying(.release(velocity: 2), now: Self.t0).settle?.completed == true)
        let back = try start.applying(.scroll(.progress(0.7)), now: Self.t0).pager
        #expect(try back.applying(.release(velocity: -1.9), now: Self.t0).settle?.completed == true)
        #expect(try back.applying(.release(velocity: -2), now: Self.t0).settle?.completed == false)
    }

    @Test("an overscroll released completes by its signed progress, and asks for the trailing action")
    func overscrollRelease() throws {
        let start = try Self.media(index: 2) {
            $0.rubberBand.style = .linear
            $0.trailingAction = PagerAction(id: "add", title: "Add")
        }
        let pulled = try start.applying(.scroll(.progress(0.3)), now: Self.t0).pager
        #expect(pulled.overscroll == Overscroll(edge: .end, progress: 0.3))
        let flicked = try pulled.applying(.release(velocity: 0.6), now: Self.t0)
        #expect(flicked.settle == Settle(completed: true, progress: 0.3, velocity: 0.6))
        #expect(flicked.actionRequested == PagerAction(id: "add", title: "Add") && flicked.pager.overscroll == nil)
        let eased = try pulled.applying(.release(velocity: 0.1), now: Self.t0)
        #expect(eased.settle?.completed == false && eased.actionRequested == nil && eased.edge == .end)
        // At the start the signed progress is negative: a flick toward it is negative too.
        let first = try Self.media(index: 0) { $0.rubberBand.style = .linear }
        let pulledBack = try first.applying(.scroll(.progress(-0.2)), now: Self.t0).pager
        #expect(try pulledBack.applying(.release(velocity: -1), now: Self.t0).settle?.progress == -0.2)
    }

    @Test("with nothing in flight a release changes nothing and reports no settle; a bad velocity is refused")
    func nothingInFlight() throws {
        let start = try Self.media()
        let released = try start.applying(.release(velocity: 3), now: Self.t0)
        #expect(!released.changed && released.settle == nil && released.moved == false)
        for velocity in [1000.5, -1001, .infinity, .nan] {
            #expect(throws: PagerError.self) { try start.applying(.release(velocity: velocity)) }
        }
        do {
            _ = try start.applying(.release(velocity: 2000))
        } catch {
            #expect(error.field == "velocity")
        }
    }

    @Test("an untouched swipe is given up dragTimeout after the change that set it; a touch starts it again")
    func dragTimeout() throws {
        let start = try Self.media()
        #expect(start.dragDeadline == nil && start.nextDue == nil)
        let swiping = try start.applying(.scroll(.progress(0.3)), now: Self.t0 + 1000).pager
        #expect(swiping.dragDeadline == Self.t0 + 16_000 && swiping.nextDue == Self.t0 + 16_000)
        // The same progress again changes nothing and keeps the deadline.
        let same = try swiping.applying(.scroll(.progress(0.3)), now: Self.t0 + 9000)
        #expect(!same.changed && same.pager.dragDeadline == Self.t0 + 16_000)
        // A new progress starts it again.
        let moved = try swiping.applying(.scroll(.progress(0.4)), now: Self.t0 + 5000).pager
        #expect(moved.dragDeadline == Self.t0 + 20_000)
        let early = try moved.applying(.tick, now: Self.t0 + 19_999)
        #expect(!early.changed && !early.timedOut)
        let givenUp = try moved.applying(.tick, now: Self.t0 + 20_000)
        #expect(givenUp.changed && givenUp.timedOut && givenUp.pager.transition == nil)
        #expect(givenUp.pager.index == 1 && givenUp.pager.version == moved.version + 1)
        #expect(givenUp.pager.dragDeadline == nil && givenUp.pager.nextDue == nil)
        // An end clears it; with dragTimeout 0 there is none.
        #expect(try swiping.applying(.endTransition(completed: false), now: Self.t0).pager.dragDeadline == nil)
        let never = try Self.media { $0.dragTimeout = 0 }
        #expect(try never.applying(.scroll(.progress(0.3)), now: Self.t0).pager.dragDeadline == nil)
    }

    @Test("a blocked scroll or a refused begin leaves the drag deadline where the change that set it put it")
    func blockedKeepsDeadline() throws {
        // Under a forward-only swipe lock, a reverse scroll and a reverse begin are refused; a
        // begin toward the target in flight changes nothing. None of them moves the deadline.
        let locked = try Self.media { $0.swipe = .forward }
        let swiping = try locked.applying(.scroll(.progress(0.3)), now: Self.t0 + 1000).pager
        #expect(swiping.dragDeadline == Self.t0 + 16_000)
        let blocked = try swiping.applying(.scroll(.progress(-0.3)), now: Self.t0 + 9000)
        #expect(blocked.blocked == .reverse && !blocked.changed && blocked.pager.version == swiping.version)
        #expect(blocked.pager.dragDeadline == Self.t0 + 16_000)
        do {
            _ = try swiping.applying(.beginTransition(to: 0), now: Self.t0 + 9000)
            Issue.record("a locked begin was accepted")
        } catch {
            #expect(error.kind == .swipeLocked)
        }
        let again = try blocked.pager.applying(.beginTransition(to: 2), now: Self.t0 + 9000)
        #expect(!again.changed && again.pager.dragDeadline == Self.t0 + 16_000)
        #expect(try again.pager.applying(.tick, now: Self.t0 + 15_999).timedOut == false)
        let givenUp = try again.pager.applying(.tick, now: Self.t0 + 16_000)
        #expect(givenUp.timedOut && givenUp.pager.transition == nil && givenUp.pager.index == 1)
        #expect(givenUp.pager.version == swiping.version + 1)

        // An overscroll in flight at the last page: the same pull again changes nothing, and a
        // begin toward page 0, no neighbour of page 2, is refused.
        let last = try Self.media(index: 2) { $0.rubberBand.style = .linear }
        let pulled = try last.applying(.scroll(.progress(0.3)), now: Self.t0 + 1000).pager
        #expect(pulled.overscroll == Overscroll(edge: .end, progress: 0.3))
        let repeated = try pulled.applying(.scroll(.progress(0.3)), now: Self.t0 + 9000)
        #expect(!repeated.changed && repeated.edge == .end && repeated.pager.dragDeadline == Self.t0 + 16_000)
        do {
            _ = try pulled.applying(.beginTransition(to: 0), now: Self.t0 + 9000)
            Issue.record("a begin toward a page that is no neighbour was accepted")
        } catch {
            #expect(error.kind == .notANeighbor)
        }
        let released = try repeated.pager.applying(.tick, now: Self.t0 + 16_000)
        #expect(released.timedOut && released.pager.overscroll == nil && released.pager.index == 2)

        // An interaction pause with nothing in flight (no rubber band): pulling past the end
        // again is refused with its edge and changes nothing, so the pause still ends at the
        // deadline of the first pull.
        let paused = try Self.media(index: 2) {
            $0.autoAdvance.enabled = true
            $0.autoAdvance.interval = 5000
            $0.dragTimeout = 2000
        }.applying(.scroll(.progress(0.3)), now: Self.t0 + 100).pager
        #expect(paused.timer == .paused(by: .interaction, remaining: 5000) && paused.dragDeadline == Self.t0 + 2100)
        for progress in [0.3, 0.5] {
            let refused = try paused.applying(.scroll(.progress(progress)), now: Self.t0 + 1500)
            #expect(!refused.changed && refused.edge == .end && refused.pager.dragDeadline == Self.t0 + 2100)
        }
        let resumed = try paused.applying(.scroll(.progress(0.5)), now: Self.t0 + 1500).pager
            .applying(.tick, now: Self.t0 + 2100)
        #expect(resumed.timedOut && resumed.onlyTimerChanged && resumed.pager.timer == .due(at: Self.t0 + 7100))
    }

    @Test("a timed-out swipe ends an interaction pause of auto-advance, as an end would")
    func timeoutResumesAutoAdvance() throws {
        let start = try Self.media {
            $0.autoAdvance.enabled = true
            $0.autoAdvance.interval = 5000
            $0.dragTimeout = 2000
        }
        let swiping = try start.applying(.scroll(.progress(0.3)), now: Self.t0 + 100).pager
        #expect(swiping.timer == .paused(by: .interaction, remaining: 5000))
        let givenUp = try swiping.applying(.tick, now: Self.t0 + 2100)
        #expect(givenUp.timedOut && givenUp.pager.transition == nil)
        #expect(givenUp.pager.timer == .due(at: Self.t0 + 7100))
        // A pause by interaction with nothing in flight (a pull past the end without a rubber
        // band) ends the same way, alone.
        let last = try Self.media(index: 2) {
            $0.autoAdvance.enabled = true
            $0.autoAdvance.interval = 5000
            $0.dragTimeout = 2000
        }
        let pulled = try last.applying(.scroll(.progress(0.3)), now: Self.t0 + 100)
        #expect(pulled.pager.timer == .paused(by: .interaction, remaining: 5000) && pulled.pager.transition == nil)
        #expect(pulled.pager.dragDeadline == Self.t0 + 2100)
        let resumed = try pulled.pager.applying(.tick, now: Self.t0 + 2100)
        #expect(resumed.timedOut && resumed.onlyTimerChanged && resumed.pager.timer == .due(at: Self.t0 + 7100))
    }

    @Test("settingsVersion is the creation's, then that of each change of the settings")
    func settingsVersion() throws {
        let start = try Self.media()
        #expect(start.settingsVersion == 1)
        let moved = try start.applying(.next, now: Self.t0).pager
        #expect(moved.version == 2 && moved.settingsVersion == 1)
        var settings = moved.settings
        settings.preload = 2
        let patched = try moved.applying(.updateSettings(settings), now: Self.t0).pager
        #expect(patched.version == 3 && patched.settingsVersion == 3)
        let same = try patched.applying(.updateSettings(settings), now: Self.t0)
        #expect(!same.changed && same.pager.settingsVersion == 3)
        #expect(try patched.applying(.next, now: Self.t0).pager.settingsVersion == 3)
    }

    @Test(
        "bad release settings are refused naming the member",
        arguments: [
            ("release.flickVelocity", 0.0, 15_000), ("release.flickVelocity", 100.5, 15_000),
            ("release.flickVelocity", -1, 15_000), ("dragTimeout", 0.5, 999), ("dragTimeout", 0.5, 600_001),
            ("dragTimeout", 0.5, -1),
        ])
    func badSettings(field: String, flickVelocity: Double, dragTimeout: Int) {
        var settings = PagerSettings()
        settings.release.flickVelocity = flickVelocity
        settings.dragTimeout = dragTimeout
        #expect(throws: PagerError.self) { try settings.validate() }
        do { try settings.validate() } catch { #expect(error.field == field) }
    }
}
