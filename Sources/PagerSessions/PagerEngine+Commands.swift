public import PagerModel

extension PagerEngine {
    // MARK: - Sessions

    /// Creates a session from a definition, with a new id.
    public func create(_ definition: PagerDefinition) throws(EngineError) -> Created {
        var id = makeID()
        while sessions[id] != nil { id = makeID() }
        return try create(definition, id: id)
    }

    /// A new session, and with a store, the commit its creator waits for.
    public struct Created: Sendable {
        public var snapshot: SessionSnapshot
        public var commit: Commit?

        /// The new session's id.
        public var id: SessionID { snapshot.id }
        /// Its state.
        public var pager: Pager { snapshot.pager }
    }

    /// Creates a session from a definition under `id`, which must be unused in this engine
    /// (``PagerEngines`` makes the id first, to choose the shard). When the session or byte limit
    /// is reached it evicts up to `evicting` expired sessions of this engine first (one batch by
    /// default; ``PagerEngines`` passes 0 and evicts across its shards itself). With a store, the
    /// session exists for nobody but its creator until the creation is durable.
    public func create(
        _ definition: PagerDefinition, id: SessionID, evicting: Int = evictionBatch
    ) throws(EngineError) -> Created {
        precondition(sessions[id] == nil, "a session id is used twice")
        let now = clock.now()
        let pager: Pager
        do { pager = try definition.makePager(limits: limits.pager, now: milliseconds(now)) } catch {
            throw .pager(error)
        }
        try reserve(session: true, bytes: pager.storedBytes, now: now, evicting: evicting)
        var commit: Commit?
        if store != nil {
            do {
                commit = try submitSave(id, pager, event: nil, lastUsed: now, positionOnly: false)
            } catch {
                EngineAccounts.release(accounts.storedBytes, pager.storedBytes)
                EngineAccounts.release(accounts.sessions, 1)
                throw error
            }
        }
        let session = Session(
            id: id, pager: pager, durable: store == nil ? pager : nil, lastUsed: now, accounts: accounts)
        if commit != nil { session.inFlight = 1 }
        sessions[id] = session
        idleOrder.append(session, at: now)
        schedule(session)
        return Created(snapshot: SessionSnapshot(id: id, pager: pager), commit: commit)
    }

    /// Takes back a session the store kept, idle for `idleSeconds`; it counts against the limits
    /// but is never refused by them. Restore sessions least recently used first: each is listed
    /// in `idleOrder` at its last use, so the list stays in order of listing.
    public func restore(_ id: SessionID, pager: Pager, idleSeconds: Double) {
        precondition(sessions[id] == nil, "a session is restored twice")
        let lastUsed = clock.now() - max(0, idleSeconds)
        let session = Session(id: id, pager: pager, durable: pager, lastUsed: lastUsed, accounts: accounts)
        sessions[id] = session
        idleOrder.append(session, at: lastUsed)
        schedule(session)
        accounts.admit(bytes: pager.storedBytes)
    }

    /// Reserves a session slot (when `session`) and `bytes` of session data in the shared
    /// accounts; if either is full, evicts up to `evicting` of this engine's expired sessions and
    /// tries once more.
    func reserve(session: Bool, bytes: Int, now: Double, evicting: Int = evictionBatch) throws(EngineError) {
        for attempt in 0..<2 {
            if attempt == 1 { evictExpired(now: now, limit: evicting) }
            guard !session || EngineAccounts.reserve(accounts.sessions, 1, limit: limits.maxSessions) else {
                if attempt == 1 { throw .atCapacity(limit: limits.maxSessions) }
                continue
            }
            guard EngineAccounts.reserve(accounts.storedBytes, bytes, limit: limits.memoryBudgetBytes) else {
                if session { EngineAccounts.release(accounts.sessions, 1) }
                if attempt == 1 { throw .memoryBudgetExceeded(limit: limits.memoryBudgetBytes) }
                continue
            }
            return
        }
    }

    /// The session's current durable state; counts as use.
    public func snapshot(of id: SessionID) throws(EngineError) -> SessionSnapshot {
        let now = clock.now()
        guard let session = liveSession(id, now: now), let durable = session.durable else {
            throw .sessionNotFound
        }
        touch(session, now: now)
        return SessionSnapshot(id: id, pager: durable)
    }

    /// Session `id`'s durable state for a reader, counting as use: only its version when
    /// `unchanged` accepts that version (the reader has it already); otherwise the form a
    /// reader gets, when the read cache keeps it, or else the state itself, to be written
    /// outside the engine and handed back with ``keep(_:asReadOf:version:forms:)``.
    public func read(
        _ id: SessionID, unlessVersionIn unchanged: VersionPrecondition?
    ) throws(EngineError) -> SessionRead {
        let now = clock.now()
        guard let session = liveSession(id, now: now), let version = session.durable?.version else {
            throw .sessionNotFound
        }
        touch(session, now: now)
        if let unchanged, unchanged.accepts(version) { return .unchanged(version: version) }
        if let form = session.readForm { return .written(version: version, bytes: form) }
        return .state(SessionSnapshot(id: id, pager: session.durable!), tabForms: session.tabForms)
    }

    /// The newest state applied, which may not be durable yet: what the next command applies
    /// to. For a caller that computes a command from the state (a settings merge); never for a
    /// response.
    public func latest(of id: SessionID) throws(EngineError) -> SessionSnapshot {
        let now = clock.now()
        guard let session = liveSession(id, now: now), session.acceptsCommands else { throw .sessionNotFound }
        touch(session, now: now)
        return SessionSnapshot(id: id, pager: session.pager)
    }

    /// Applies `command` to session `id` if `precondition` accepts its version and, when
    /// `expectedVersion` is given, the session is still at that version (a caller that computed
    /// the command from a snapshot uses it); otherwise throws `versionMismatch`, changing nothing.
    public func apply(
        _ command: PagerCommand, to id: SessionID, precondition: VersionPrecondition? = nil, expectedVersion: Int? = nil
    ) throws(EngineError) -> CommandResult {
        let now = clock.now()
        guard let session = liveSession(id, now: now), session.acceptsCommands else { throw .sessionNotFound }
        touch(session, now: now)
        // With a shared store, one change of a session at a time: one built on a change in flight
        // would be stored even if that one lost to another process's (the store compares
        // versions only), over a change it never saw.
        if store?.isShared == true, session.inFlight > 0, let pending = session.newestCommit {
            throw .changeInFlight(pending)
        }
        try precondition?.check(session.pager.version)
        if let expectedVersion, session.pager.version != expectedVersion {
            throw .versionMismatch(current: session.pager.version)
        }
        let outcome: PagerOutcome
        do {
            outcome = try session.pager.applying(command, limits: limits.pager, now: milliseconds(now))
        } catch {
            throw .pager(error)
        }
        guard outcome.changed else {
            // The request repeats the version subscribers saw last (with a shared store's feed,
            // its state; otherwise the durable one).
            if outcome.actionRequested != nil, let seen = session.feed?.pager ?? session.durable {
                publish(
                    SessionEvent(kind: .actionRequested, snapshot: SessionSnapshot(id: id, pager: seen)), to: session)
            }
            return CommandResult(id: id, outcome: outcome, commit: nil, tabForms: session.tabForms)
        }
        let growth = outcome.pager.storedBytes - session.pager.storedBytes
        if growth != 0 { try reserve(session: false, bytes: growth, now: now) }
        let kind = SessionEventKind.of(command, outcome, movedFrom: session.pager.index)
        let positionOnly =
            command.changesPositionOnly && outcome.pager.settings.autoAdvance == session.pager.settings.autoAdvance
        let commit: Commit?
        do {
            commit = try record(
                outcome.pager, of: session,
                event: SessionEvent(
                    kind: kind, snapshot: SessionSnapshot(id: id, pager: outcome.pager), settle: outcome.settle),
                lastUsed: now,
                positionOnly: positionOnly)
        } catch {
            if growth != 0 { EngineAccounts.release(accounts.storedBytes, growth) }
            throw error
        }
        if store != nil { session.storedUse = now }
        return CommandResult(id: id, outcome: outcome, commit: commit, tabForms: session.tabForms)
    }

    /// Makes `pager` the session's newest state: without a store, at once, publishing `event`;
    /// with one, by submitting it (`event` is published when it is durable). `lastUsed` is what
    /// the store records as the session's last use. `event` is made only when somebody can
    /// receive it: always with a store (a subscriber may come before the commit), otherwise only
    /// for a session with subscribers, so an unwatched session's change builds no event.
    func record(
        _ pager: Pager, of session: Session, event: @autoclosure () -> SessionEvent, lastUsed: Double,
        positionOnly: Bool
    ) throws(EngineError) -> Commit? {
        if store != nil {
            let commit = try submitSave(
                session.id, pager, event: event(), lastUsed: lastUsed, positionOnly: positionOnly)
            session.inFlight += 1
            session.newestCommit = commit
            session.pager = pager
            schedule(session)
            return commit
        }
        let published = session.subscribers.isEmpty ? nil : event()
        session.durable = pager
        session.pager = pager
        schedule(session)
        if let published { publish(published, to: session) }
        return nil
    }

    /// Deletes session `id`; its subscribers get a `deleted` event and their streams end. With a
    /// store, that happens when the delete is durable, and the caller waits for the commit
    /// returned.
    public func delete(_ id: SessionID, precondition: VersionPrecondition? = nil) throws(EngineError) -> Commit? {
        guard let session = liveSession(id, now: clock.now()), session.acceptsCommands else {
            throw .sessionNotFound
        }
        try precondition?.check(session.pager.version)
        guard store != nil else {
            remove(id)
            return nil
        }
        let change = SessionChange.delete(id, version: session.pager.version)
        let commit = try submit(change, announcing: ChangeAnnouncement(kind: .deleted, cause: .request)) {
            engine, error in engine.settleDelete(id, error: error)
        }
        session.deleting = true
        session.inFlight += 1
        session.newestCommit = commit
        return commit
    }

}
