import PagerModel

// With a shared store, a session's versions reach this engine from two sources that are not
// ordered with each other: the store's thread settles this engine's own commits, and the
// listener hands over the notifications of the other instances' commits. A version lost to
// another instance (a compare-and-swap that failed) is learnt from the database too, ahead of
// the notifications of the versions before it. So that every subscriber still sees every
// version once, in order, a watched session keeps a feed: the state its subscribers saw last and
// the changes that came early, each published once the one before it has been.
extension PagerEngine {
    /// The state a watched session's subscribers saw last, and the changes waiting for the
    /// versions before them.
    struct Feed {
        /// The state at the version published last.
        var pager: Pager
        /// Changes that came before the one of the version after `pager`'s, by version.
        var waiting: [Int: Arrival] = [:]
        /// Whether the feed waits for a state loaded from the store: the change after `pager`
        /// could not be followed, or notifications were interrupted.
        var stuck = false

        /// The most changes a feed keeps waiting; past this it gives up on the missing version
        /// and jumps to the newest state (only when notifications were lost, which a listener
        /// that reconnects repairs with `state` events anyway).
        static let waitingLimit = 256

        /// Moves the feed on to `newer`, a state past the one published last, dropping the
        /// changes up to it; returns how many versions its subscribers skip.
        mutating func jump(to newer: Pager) -> Int {
            let skipped = newer.version - pager.version - 1
            waiting = waiting.filter { $0.key > newer.version }
            pager = newer
            stuck = false
            return skipped
        }
    }

    /// A change that reached the engine, to publish in its version's turn.
    enum Arrival {
        /// This engine's own change, durable: its event carries the whole state.
        case event(SessionEvent)
        /// Another instance's change, as its notification told it.
        case remote(RemoteChange)
    }

    /// Publishes `arrival`, the change to `version`, in order: at once if the subscribers saw the
    /// version before it, otherwise when they have. Without a feed (no subscribers, or a store
    /// that is not shared) an event is published at once.
    func deliver(_ arrival: Arrival, version: Int, to session: Session) {
        guard var feed = session.feed else {
            if case .event(let event) = arrival { publish(event, to: session) }
            return
        }
        guard version > feed.pager.version else { return }
        feed.waiting[version] = arrival
        while true {
            while let next = feed.waiting.removeValue(forKey: feed.pager.version + 1) {
                guard let event = event(for: next, after: feed.pager, in: session) else {
                    // Not followable from here (not readable, or not fitting): the row is
                    // loaded, and its state published when it comes (``deliverLoaded(_:to:)``).
                    feed.waiting[feed.pager.version + 1] = next
                    feed.stuck = true
                    session.feed = feed
                    loadShared?(session.id)
                    return
                }
                publish(event, to: session)
                feed.pager = event.snapshot.pager
            }
            // Too many waiting: the newest state held is published, and the changes after it
            // follow. (The state held may be older than `arrival`, which is taken in after it
            // is delivered, so changes past it are kept.)
            guard feed.waiting.count > Feed.waitingLimit, let newest = session.durable,
                newest.version > feed.pager.version
            else { break }
            skippedEvents += feed.jump(to: newest) * session.subscribers.count
            publishState(newest, to: session)
        }
        session.feed = feed
    }

    /// The event of `arrival`, the version after `previous`; nil when it cannot be made from what
    /// the engine holds.
    private func event(for arrival: Arrival, after previous: Pager, in session: Session) -> SessionEvent? {
        switch arrival {
        case .event(let event):
            return event
        case .remote(let change):
            let pager: Pager?
            switch change.state {
            case .whole(let whole): pager = whole
            case .position(let lay): pager = lay(previous)
            case .unknown: pager = session.durable?.version == change.version ? session.durable : nil
            case .deleted: pager = nil
            }
            guard let pager else { return nil }
            return SessionEvent(
                kind: change.announcement.kind, snapshot: SessionSnapshot(id: session.id, pager: pager),
                cause: change.announcement.cause)
        }
    }

    /// A state loaded from the shared store, for a watched session whose feed is stuck (it could
    /// not follow a change, or notifications were interrupted): published as `state` when it is
    /// newer than what subscribers saw (if it skips versions, those are the ones no notification
    /// could carry), and the waiting changes after it follow. A feed that is not stuck follows the
    /// notifications alone, so a state loaded for another reason is not published.
    func deliverLoaded(_ pager: Pager, to session: Session) {
        guard var feed = session.feed, feed.stuck, pager.version > feed.pager.version else { return }
        skippedEvents += feed.jump(to: pager) * session.subscribers.count
        session.feed = feed
        publishState(pager, to: session)
        if let (version, next) = feed.waiting.min(by: { $0.key < $1.key }), version == pager.version + 1 {
            session.feed?.waiting[version] = nil
            deliver(next, version: version, to: session)
        }
    }

    /// Publishes `pager` as a `state` event: what subscribers get when their feed jumped.
    private func publishState(_ pager: Pager, to session: Session) {
        publish(SessionEvent(kind: .state, snapshot: SessionSnapshot(id: session.id, pager: pager)), to: session)
    }

    /// After a shared store's notifications were interrupted: every watched session's feed takes
    /// the next state loaded for it, since the changes between may never be told.
    func expectResynchronization() {
        for session in watched.values where session.feed != nil { session.feed?.stuck = true }
    }
}
