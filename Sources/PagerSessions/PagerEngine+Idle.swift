import PagerModel

extension PagerEngine {
    // MARK: - Idle sessions

    /// Evicts up to `limit` sessions idle for longer than the TTL; returns how many were evicted.
    @discardableResult
    public func evictExpired(limit: Int = .max) -> Int { evictExpired(now: clock.now(), limit: limit) }

    /// The most sessions one request evicts to make room (in all shards together), so that a
    /// request never holds an engine for a mass expiry; the sweeper evicts the rest in batches of
    /// this size, a turn on the engine each.
    public static let evictionBatch = 64

    /// Evicts up to `limit` sessions idle past the TTL, least recently listed first, stopping at
    /// the first one that is not: O(evicted), however many sessions there are. One listed later
    /// than that one and expired waits for a later sweep, by at most ``idleOrderGranularity``.
    @discardableResult
    func evictExpired(now: Double, limit: Int) -> Int {
        var count = 0
        while count < limit, let oldest = idleOrder.oldest {
            evictionVisits += 1
            guard isExpired(oldest, now: now) else { break }
            evict(oldest.id)
            count += 1
        }
        return count
    }

    func isExpired(_ session: Session, now: Double) -> Bool {
        session.subscribers.isEmpty && session.inFlight == 0 && now - session.lastUsed > limits.idleTTL
    }

    /// Marks the session used now, and moves it to the newest end of `idleOrder` (unless
    /// subscribers hold it) when it was listed at least ``idleOrderGranularity`` ago. With a
    /// store, a use is recorded at most every ``storedUseInterval``, so that a session only read
    /// is not expired by a restart.
    func touch(_ session: Session, now: Double) {
        session.lastUsed = now
        if session.isLinked, now - session.listedAt >= idleOrderGranularity { idleOrder.moveToNewest(session, at: now) }
        if let store, now - session.storedUse >= storedUseInterval {
            session.storedUse = now
            try? store.submit(.touch(session.id, lastUsed: wallOrigin + now), completion: nil)
        }
    }

    /// How long a used session may stay where it was listed in `idleOrder`: a second, or a
    /// sixty-fourth of the idle TTL when that is shorter. A session expired behind a live one
    /// listed before it waits at most this much longer for the sweep (a request for it finds it
    /// expired at once, see ``liveSession(_:now:)``).
    var idleOrderGranularity: Double { min(1, limits.idleTTL / 64) }

    /// How stale the store's record of a session's last use may get: an eighth of the idle TTL,
    /// so a restart can shorten a session's life by at most that much.
    var storedUseInterval: Double { limits.idleTTL / 8 }

    /// The session if it is live; an expired one is evicted on the spot.
    func liveSession(_ id: SessionID, now: Double) -> Session? {
        guard let session = sessions[id] else { return nil }
        if isExpired(session, now: now) {
            evict(id)
            return nil
        }
        return session
    }

    /// Drops session `id` from memory; `announce` tells its subscribers, with `cause`.
    func remove(_ id: SessionID, announce: Bool = true, cause: EventCause = .request) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        if session.isLinked { idleOrder.remove(session) }
        watched[id] = nil
        timers.remove(session)
        EngineAccounts.release(accounts.storedBytes, session.pager.storedBytes)
        EngineAccounts.release(accounts.sessions, 1)
        session.forgetForms()
        EngineAccounts.release(accounts.subscribers, session.subscribers.count)
        let event = SessionEvent(
            kind: .deleted, snapshot: SessionSnapshot(id: id, pager: session.durable ?? session.pager), cause: cause)
        // With a shared store's feed, the versions between the last published and the one
        // `deleted` shows were never published.
        if announce, let seen = session.feed?.pager.version {
            skippedEvents += max(0, event.snapshot.version - seen - 1) * session.subscribers.count
        }
        for subscriber in session.subscribers.values {
            accounts.releaseAddress(subscriber.address)
            if announce { send(event, to: subscriber) }
            subscriber.continuation.finish()
        }
    }

    /// Drops an expired session, and tells the store without waiting: a restart would not revive
    /// it anyway, since it is idle past the TTL.
    func evict(_ id: SessionID) {
        remove(id, cause: .idle)
        evictions += 1
        // A shared store's rows are other processes' too: it expires them itself, by last use.
        if let store, !store.isShared { try? store.submit(.delete(id), completion: nil) }
    }

}
