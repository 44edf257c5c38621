import PagerModel

extension PagerEngine {
    // MARK: - Durability

    /// Submits a session's new state; the returned commit resolves after the engine has settled
    /// it. `event` is published when it is durable (nil for a creation).
    func submitSave(
        _ id: SessionID, _ pager: Pager, event: SessionEvent?, lastUsed: Double, positionOnly: Bool
    ) throws(EngineError) -> Commit {
        try submit(
            .save(id, pager, lastUsed: wallOrigin + lastUsed, positionOnly: positionOnly),
            announcing: event.map { ChangeAnnouncement(kind: $0.kind, cause: $0.cause) }
        ) { engine, error in
            engine.settle(id, pager, event: event, error: error)
        }
    }

    /// Submits `change`; when the store answers, `settle` runs on the engine, and then the
    /// returned commit resolves, so the waiting request sees the settled state.
    func submit(
        _ change: SessionChange, announcing announcement: ChangeAnnouncement? = nil,
        settle: @escaping @Sendable (isolated PagerEngine, StoreError?) -> Void
    ) throws(EngineError) -> Commit {
        guard let store else { preconditionFailure("a change submitted without a store") }
        let commit = Commit()
        do {
            try store.submit(change, announcing: announcement) { [self] error in
                withLock { engine in settle(engine, error) }
                commit.resolve(error)
            }
        } catch {
            throw .storageUnavailable(reason: error.reason)
        }
        return commit
    }

    /// The store's answer for a saved state: durable, it becomes what reads and subscribers see;
    /// failed, the session returns to its durable state (a creation that failed is forgotten).
    /// The store fails every change after a failed one, so nothing built on it survives.
    func settle(_ id: SessionID, _ pager: Pager, event: SessionEvent?, error: StoreError?) {
        guard let session = sessions[id] else { return }
        answered(session)
        if let error, error.conflict { return refresh(session, to: error.current) }
        guard error == nil else { return rollBack(session) }
        // A shared store's notifications may have brought later versions from elsewhere first:
        // only a newer version is shown, and the event is published in its version's turn.
        if (session.durable?.version ?? 0) < pager.version { session.durable = pager }
        if let event { deliver(.event(event), version: pager.version, to: session) }
    }

    /// The store has answered one of the session's changes. With a shared store, when none is
    /// left in flight, a tick that came due meanwhile (and waited, see ``tick(_:now:)``) is
    /// queued again, to be made on what the store kept.
    func answered(_ session: Session) {
        session.inFlight -= 1
        guard session.inFlight == 0 else { return }
        session.newestCommit = nil
        if store?.isShared == true { schedule(session) }
    }

    /// After a change lost to another process's: the session takes the stored state (`current`;
    /// nil when the session is gone elsewhere). Its subscribers are told of the versions up to it
    /// by their notifications, one by one (see ``deliver(_:version:to:)``).
    func refresh(_ session: Session, to current: Pager?) {
        guard let current else {
            remove(session.id)
            return
        }
        if current.version > (session.durable?.version ?? 0) { session.durable = current }
        rollBack(session)
    }

    /// The store's answer for a delete: durable, the session goes; failed, it stays.
    func settleDelete(_ id: SessionID, error: StoreError?) {
        guard let session = sessions[id] else { return }
        answered(session)
        session.deleting = false
        if let error, error.conflict { return refresh(session, to: error.current) }
        if error == nil { remove(id) } else { rollBack(session) }
    }

    func rollBack(_ session: Session) {
        guard let durable = session.durable else {
            remove(session.id, announce: false)
            return
        }
        guard session.pager != durable else { return }
        replaceHead(of: session, with: durable)
    }

    /// Makes `pager` the session's newest state, keeping the byte accounts in step.
    func replaceHead(of session: Session, with pager: Pager) {
        // A release of a negative amount adds it.
        EngineAccounts.release(accounts.storedBytes, session.pager.storedBytes - pager.storedBytes)
        session.pager = pager
        schedule(session)
    }

}
