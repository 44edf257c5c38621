import PagerModel

extension PagerEngine {
    // MARK: - Auto-advance

    /// The most ticks one turn on the engine applies; a larger backlog (after a restart, say) is
    /// fired in further turns, so the engine is never held for a number of sessions.
    public static let tickBatch = 64

    /// How long a tick the store refused waits before it is tried again, in milliseconds.
    static let tickRetryMilliseconds: Int64 = 1000

    /// Sessions whose timer is queued (running unpaused).
    public var scheduledTimers: Int { timers.count }

    /// Applies up to `limit` due ticks, earliest first, each one as a command would apply
    /// (one version, one event with `cause: autoAdvance`, through the store when there is one).
    /// A tick is not use: a session idle past the TTL is evicted instead. Returns the number of
    /// timers taken from the queue.
    @discardableResult
    public func fireDueTimers(limit: Int = tickBatch) -> Int {
        let now = clock.now()
        let ms = milliseconds(now)
        armedFor = nil
        var fired = 0
        while fired < limit, let session = timers.popDue(now: ms) {
            fired += 1
            fire(session, now: now, ms: ms)
        }
        if let earliest = timers.earliest { wakeUp(by: earliest) }
        return fired
    }

    /// Fires the timer of `session`, taken from the queue at engine time `now` (`ms` on the wall
    /// clock): the tick, or the end of an untouched swipe; or its eviction, when it expired.
    func fire(_ session: Session, now: Double, ms: Int64) {
        if isExpired(session, now: now) {
            evict(session.id)
        } else if !session.deleting {
            // A tick happens at its due time, so a wake-up that comes late does not delay the
            // next one; one more than an interval late (after a restart, say) happens now, so
            // a backlog is never replayed.
            let due = session.timerDue
            tick(session, now: ms - due <= Int64(session.pager.settings.autoAdvance.interval) ? due : ms)
        }
    }

    /// Fires the timer of `session` at once when it is already due: a session loaded from a
    /// shared store whose tick (or swipe deadline) passed while no instance held it gets it
    /// before the request that loaded it applies, as on an instance that held it all along.
    func fireIfDue(_ session: Session) {
        let now = clock.now()
        let ms = milliseconds(now)
        guard session.timerSlot >= 0, session.timerDue <= ms else { return }
        timers.remove(session)
        fire(session, now: now, ms: ms)
    }

    func tick(_ session: Session, now: Int64) {
        // With a shared store a tick, like a command, is not built on a change in flight (see
        // ``apply(_:to:precondition:expectedVersion:)``): it waits until the store has answered,
        // which queues the timer again (``answered(_:)``).
        if store?.isShared == true, session.inFlight > 0 { return }
        let before = session.pager
        guard let outcome = try? before.applying(.tick, limits: limits.pager, now: now), outcome.changed else {
            // Not due after all (the queue is kept in step with the state, so this is defensive).
            if let due = before.nextDue, due > now { schedule(session) }
            return
        }
        do {
            _ = try record(
                outcome.pager, of: session,
                event: SessionEvent(
                    kind: .of(.tick, outcome, movedFrom: before.index),
                    snapshot: SessionSnapshot(id: session.id, pager: outcome.pager),
                    cause: outcome.timedOut ? .timeout : .autoAdvance,
                    move: outcome.timedOut ? nil : outcome.move),
                lastUsed: session.lastUsed,
                positionOnly: outcome.pager.settings.autoAdvance == before.settings.autoAdvance)
        } catch {
            // The store refuses changes for now; the session keeps its state and tries again.
            let retry = now + Self.tickRetryMilliseconds
            timers.schedule(session, at: retry)
            wakeUp(by: retry)
        }
    }

    /// Queues the session's timer when it runs unpaused, and takes it out otherwise.
    func schedule(_ session: Session) {
        guard let due = session.pager.nextDue else { return timers.remove(session) }
        timers.schedule(session, at: due)
        wakeUp(by: due)
    }

    /// How finely wake-ups are spaced, in milliseconds: a wake-up is asked for the next multiple
    /// of this after the due time, so one wake-up fires every timer due in that span. Ticks come
    /// up to this much late (their times in the state are exact), and a server with any number
    /// of timers wakes at most 100 times a second.
    static let wakeQuantum: Int64 = 10

    /// Asks `wake` for a wake-up by `due` when it is earlier than the one asked for.
    func wakeUp(by due: Int64) {
        guard let wake else { return }
        let slot = (due + Self.wakeQuantum - 1) / Self.wakeQuantum * Self.wakeQuantum
        guard armedFor.map({ slot < $0 }) ?? true else { return }
        armedFor = slot
        if !registered {
            registered = true
            wake.register(self)
        }
        wake.wake(at: slot, delay: slot - milliseconds(clock.now()))
    }

    /// Wall-clock milliseconds at engine time `now`.
    func milliseconds(_ now: Double) -> Int64 { Int64(((wallOrigin + now) * 1000).rounded(.down)) }

}
