/// The engine's sessions without subscribers, in the order they were last listed (moved to the
/// newest end), oldest first: an intrusive doubly linked list, so listing, moving and removing a
/// session are O(1), and the sessions that expire are at the front.
///
/// Each session records when it was listed (`listedAt`). A use moves a session to the newest end
/// only when it was listed at least a granularity ago (``PagerEngine`` uses a second, or less
/// for a short idle TTL), so that a session used again and again is not relinked every time
/// (a relink writes to its two neighbours and the list's end). A session's last use is therefore
/// less than one granularity after its listing, and a session listed before another expires
/// less than one granularity after it: when the oldest is live, any expired session behind it
/// expired less than a granularity ago.
///
/// The list does not own its sessions (the engine's table does): a session must be removed from
/// the list before it is dropped from the table.
struct IdleOrder {
    private(set) unowned var oldest: PagerEngine.Session?
    private unowned var newest: PagerEngine.Session?
    /// Sessions in the list.
    private(set) var count = 0

    /// Adds `session` at the newest end, listed at `now`.
    mutating func append(_ session: PagerEngine.Session, at now: Double) {
        precondition(!session.isLinked, "a session is linked twice")
        session.listedAt = now
        session.older = newest
        session.newer = nil
        if let newest { newest.newer = session } else { oldest = session }
        newest = session
        session.isLinked = true
        count += 1
    }

    /// Takes `session` out of the list.
    mutating func remove(_ session: PagerEngine.Session) {
        precondition(session.isLinked, "a session is not linked")
        if let older = session.older { older.newer = session.newer } else { oldest = session.newer }
        if let newer = session.newer { newer.older = session.older } else { newest = session.older }
        session.older = nil
        session.newer = nil
        session.isLinked = false
        count -= 1
    }

    /// Moves `session` to the newest end, listed at `now`.
    mutating func moveToNewest(_ session: PagerEngine.Session, at now: Double) {
        guard newest !== session else {
            session.listedAt = now
            return
        }
        remove(session)
        append(session, at: now)
    }
}
