import Foundation
import PagerModel

extension PagerEngine {
    // MARK: - A shared store

    /// Takes in a session loaded from a shared store because a request named it and this engine
    /// did not hold it (or held an older copy). It counts against the limits but is never refused
    /// by them. It is used now (a request asked for it); the store's record of its last use is
    /// as old as the store says, so the request's use is recorded as soon as it is due. A tick
    /// or swipe deadline that passed while nobody held it is applied now, before the request.
    public func adopt(_ stored: StoredSession) {
        let now = clock.now()
        if let session = sessions[stored.id] {
            absorb(session, stored.pager)
            deliverLoaded(stored.pager, to: session)
            return fireIfDue(session)
        }
        let session = Session(
            id: stored.id, pager: stored.pager, durable: stored.pager, lastUsed: now, accounts: accounts)
        session.storedUse = now - max(0, Date().timeIntervalSince1970 - stored.lastUsed)
        sessions[stored.id] = session
        idleOrder.append(session, at: now)
        schedule(session)
        accounts.admit(bytes: stored.pager.storedBytes)
        fireIfDue(session)
    }

    /// A change another process made to a shared session, as its notification tells it. A
    /// session this engine does not hold is left alone. One it holds takes the newer state (a
    /// deleted one goes, with `deleted`), and its subscribers get the change's event in its
    /// version's turn. Answers true when the change could not be followed from what the
    /// notification carried (only a position, and the engine holds another version than the one
    /// before it; or nothing at all), so the session should be loaded.
    public func absorb(_ change: RemoteChange) -> Bool {
        guard let session = sessions[change.id], let durable = session.durable else { return false }
        let announcement = change.announcement
        if case .deleted = change.state {
            remove(change.id, cause: announcement.cause)
            return false
        }
        deliver(.remote(change), version: change.version, to: session)
        switch change.state {
        case _ where change.version <= durable.version:
            return false
        case .whole(let pager):
            absorb(session, pager)
            return false
        case .position(let lay):
            guard durable.version == change.version - 1, let pager = lay(durable) else { return true }
            absorb(session, pager)
            return false
        case .unknown, .deleted:
            return true
        }
    }

    /// The sessions event streams hold open here, to bring up to date after this process may
    /// have missed changes made elsewhere (a shared store's notifications were interrupted).
    public var watchedSessions: [SessionID] { Array(watched.keys) }

    /// Drops up to `limit` copies of shared sessions that no event stream holds and no change of
    /// this engine waits on, least recently listed first, so that after missed notifications they
    /// are loaded again when next asked for instead of being served stale. Nobody is told: the
    /// sessions go on in the store. Answers how many were dropped. The walk passes over the
    /// sessions it keeps (a change or a delete in flight), so it visits at most `limit` more
    /// sessions than this shard has changes in flight.
    public func dropUnwatchedCopies(limit: Int = evictionBatch) -> Int {
        var dropped: [SessionID] = []
        var next = idleOrder.oldest
        while dropped.count < limit, let session = next {
            next = session.newer
            if session.inFlight == 0, !session.deleting { dropped.append(session.id) }
        }
        for id in dropped { remove(id, announce: false) }
        return dropped.count
    }

    /// Makes `pager`, newer state of a shared session, the one reads see and commands apply to.
    /// Its subscribers hear of it through ``deliver(_:version:to:)``.
    func absorb(_ session: Session, _ pager: Pager) {
        guard pager.version > (session.durable?.version ?? 0) else { return }
        session.durable = pager
        // A change of this engine's in flight will lose (its version is taken); until it is
        // settled, commands go on from the head it made, and then from this state.
        if session.inFlight == 0 || pager.version >= session.pager.version { replaceHead(of: session, with: pager) }
    }

}
