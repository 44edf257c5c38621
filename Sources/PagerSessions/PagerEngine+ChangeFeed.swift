import PagerModel

extension PagerEngine {
    // MARK: - Change feed

    /// Undelivered events kept per subscriber; past this the oldest are dropped, so a slow reader
    /// skips ahead to the newest state and never holds the engine back.
    public static let subscriberBuffer = 64

    /// Subscribes to the changes of session `id` for a client at `address`. A prompt reader sees
    /// every change; a slow one gets coalesced updates ending at the newest state. It ends after
    /// `deleted`, or when the subscriber cancels.
    ///
    /// Besides the limits of the server, of the session and of the address, one address holds at
    /// most ``EngineLimits/maxSubscribersPerSessionAddress`` of a session's streams (half of
    /// them), so that one client cannot take every place and lock the session's other watchers
    /// out.
    public func subscribe(to id: SessionID, from address: String = "") throws(EngineError) -> Subscription {
        let now = clock.now()
        guard let session = liveSession(id, now: now), session.acceptsCommands, let durable = session.durable else {
            throw .sessionNotFound
        }
        guard session.subscribers.count < limits.maxSubscribersPerSession else {
            throw .tooManySubscribers(limit: limits.maxSubscribersPerSession, scope: .session)
        }
        let share = limits.maxSubscribersPerSessionAddress
        guard session.subscribersByAddress[address, default: 0] < share else {
            throw .tooManySubscribers(limit: share, scope: .addressInSession)
        }
        guard EngineAccounts.reserve(accounts.subscribers, 1, limit: limits.maxSubscribers) else {
            throw .tooManySubscribers(limit: limits.maxSubscribers, scope: .server)
        }
        guard accounts.reserveAddress(address, limit: limits.maxSubscribersPerAddress) else {
            EngineAccounts.release(accounts.subscribers, 1)
            throw .tooManySubscribers(limit: limits.maxSubscribersPerAddress, scope: .address)
        }
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.subscriberBuffer))
        let token = nextSubscriberID
        nextSubscriberID += 1
        session.subscribers[token] = Subscriber(continuation: continuation, address: address)
        session.subscribersByAddress[address, default: 0] += 1
        // With a shared store, versions are published in order from here on (see `deliver`);
        // a new subscriber starts from what the others saw last.
        if store?.isShared == true, session.feed == nil { session.feed = Feed(pager: durable) }
        let seen = session.feed?.pager ?? durable
        session.lastUsed = now
        if session.isLinked { idleOrder.remove(session) }
        watched[id] = session
        // A consumer that stops iterating without saying so is forgotten too, a hop later.
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(token, from: id) }
        }
        if session.firstEncoding?.version != seen.version {
            session.firstEncoding = (seen.version, EncodedOnce(lending: true))
        }
        return Subscription(
            snapshot: SessionSnapshot(id: id, pager: seen), events: stream, token: token,
            firstEncoding: session.firstEncoding!.slot)
    }

    /// Forgets a subscriber whose stream ended; one already forgotten, or dropped with its
    /// session (and counted then), is ignored, so the counts stay exact. A session whose last
    /// subscriber left idles from now. The HTTP layer calls it as soon as a stream closes, so
    /// the subscriber caps free the slot before the client can ask again.
    public func unsubscribe(_ token: Int, from id: SessionID) {
        guard let session = sessions[id], let subscriber = session.subscribers.removeValue(forKey: token) else {
            return
        }
        EngineAccounts.release(accounts.subscribers, 1)
        accounts.releaseAddress(subscriber.address)
        let left = session.subscribersByAddress[subscriber.address, default: 1] - 1
        session.subscribersByAddress[subscriber.address] = left > 0 ? left : nil
        session.lastUsed = clock.now()
        if session.subscribers.isEmpty, !session.isLinked {
            idleOrder.append(session, at: session.lastUsed)
            watched[id] = nil
            session.feed = nil
            session.keptEncodings = []
            session.firstEncoding = nil
        }
    }

    /// Tells the store that the sessions held open by event streams are in use, each at most
    /// every ``storedUseInterval``, so that a restart (or a shared store's expiry) does not take
    /// a session somebody watches. The sweeper calls it; it visits only watched sessions, at most
    /// `maxSubscribers` of them.
    public func recordWatchedUse() {
        guard let store else { return }
        let now = clock.now()
        for session in watched.values where now - session.storedUse >= storedUseInterval {
            session.storedUse = now
            try? store.submit(.touch(session.id, lastUsed: wallOrigin + now), completion: nil)
        }
    }

    /// How many of a session's newest events keep their encodings (see ``EncodedOnce``): a
    /// writer one change behind, in a burst of changes, still shares the encoding of the one
    /// before; older ones are lent, so a slow reader's queue holds none.
    static let keptEncodings = 2

    /// Hands `event` to every subscriber of `session`; the event that stops being one of the
    /// ``keptEncodings`` newest lends its encoding from now on.
    func publish(_ event: SessionEvent, to session: Session) {
        session.keptEncodings.append(event.encoding)
        if session.keptEncodings.count > Self.keptEncodings { session.keptEncodings.removeFirst().lend() }
        for subscriber in session.subscribers.values { send(event, to: subscriber) }
    }

    /// Hands `event` to `subscriber`, counting the one it drops when its buffer is full, unless
    /// that one only repeated a version (`actionRequested`).
    func send(_ event: SessionEvent, to subscriber: Subscriber) {
        if case .dropped(let dropped) = subscriber.continuation.yield(event), dropped.kind != .actionRequested {
            skippedEvents += 1
        }
    }
}
