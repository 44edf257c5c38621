public import PagerModel

/// A subscription to one session's changes.
public struct Subscription: Sendable {
    /// The state when it began.
    public var snapshot: SessionSnapshot
    /// The changes from then on.
    public var events: AsyncStream<SessionEvent>
    /// Identifies it to ``PagerEngine/unsubscribe(_:from:)``.
    public var token: Int
}

/// One shard of the session table (see ``PagerEngines`` for the concurrency model): its sessions,
/// each a `Pager` value.
///
/// Every method reads a session, computes with the pure model and stores the result with no
/// suspension in between, so commands on one session apply one at a time, in arrival order.
///
/// The actor runs on its own executor, so it can be entered two ways: by `await` like any actor,
/// or synchronously on the caller's thread with ``immediately(_:)``, which the HTTP layer uses
/// so that answering a request needs no hop to another thread.
public actor PagerEngine {
    /// One session. A class, so the table's buckets hold a reference rather than the whole
    /// value: a hash table keeps about half its buckets empty, and inline values made those
    /// empty buckets cost as much memory as the sessions themselves.
    ///
    /// Sessions without subscribers are also linked in `idleOrder`, least recently used first,
    /// so eviction looks only at the sessions that expire.
    final class Session {
        let id: SessionID
        var pager: Pager
        var lastUsed: Double
        var subscribers: [Int: Subscriber] = [:]
        /// Neighbours in `idleOrder`. Unowned: the table holds every session strongly, and a
        /// session leaves the list before it leaves the table.
        unowned(unsafe) var older: Session?
        unowned(unsafe) var newer: Session?
        var isLinked = false

        init(id: SessionID, pager: Pager, lastUsed: Double) {
            self.id = id
            self.pager = pager
            self.lastUsed = lastUsed
        }
    }

    /// One event-stream subscriber.
    struct Subscriber {
        let continuation: AsyncStream<SessionEvent>.Continuation
        /// The client address it was opened from, for the per-address cap.
        let address: String
    }

    /// The limits in force.
    public nonisolated let limits: EngineLimits
    /// The counts the limits apply to, shared with the other shards of the same server.
    public nonisolated let accounts: EngineAccounts
    private let clock: any EngineClock
    private let makeID: @Sendable () -> SessionID
    private let executor = EngineExecutor()
    private var sessions: [SessionID: Session] = [:]
    private var idleOrder = IdleOrder()
    private var nextSubscriberID = 0
    /// Session data held by the sessions of every engine sharing these accounts, as budgets
    /// count it (``Pager/storedBytes``).
    public nonisolated var storedBytes: Int { accounts.storedByteCount }
    /// Sessions evicted for idling since start.
    public private(set) var evictions = 0
    /// Sessions looked at by eviction since start: each one evicted, plus at most one that was
    /// not, per sweep. Tests read it to show that eviction never scans the table.
    public private(set) var evictionVisits = 0

    /// Creates an engine; `accounts` are shared with the other shards of the same server (by
    /// default, its own).
    public init(
        limits: EngineLimits = EngineLimits(), clock: any EngineClock = SystemEngineClock(),
        accounts: EngineAccounts = EngineAccounts(), makeID: @escaping @Sendable () -> SessionID = SessionID.random
    ) {
        self.limits = limits
        self.clock = clock
        self.accounts = accounts
        self.makeID = makeID
    }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `body` on the engine now, on the calling thread, waiting only for work already
    /// running on it. `body` must not call `immediately` again.
    public nonisolated func immediately<T: Sendable, E: Error>(
        _ body: @Sendable (isolated PagerEngine) throws(E) -> T
    ) throws(E) -> T {
        var result: Result<T, E>?
        executor.runExclusively {
            result = assumeIsolated { engine in Result { () throws(E) -> T in try body(engine) } }
        }
        // runExclusively always runs its body, so the result is there.
        return try result!.get()
    }

    /// Whether session `id` is in this engine's table (live or not yet evicted).
    public func holds(_ id: SessionID) -> Bool { sessions[id] != nil }

    /// Live sessions in this engine.
    public var sessionCount: Int { sessions.count }

    /// Live event subscribers of every engine sharing these accounts.
    public nonisolated var subscriberTotal: Int { accounts.subscriberCount }

    // MARK: - Sessions

    /// Creates a session from a definition, with a new id.
    public func create(_ definition: PagerDefinition) throws(EngineError) -> SessionSnapshot {
        var id = makeID()
        while sessions[id] != nil { id = makeID() }
        return try create(definition, id: id)
    }

    /// Creates a session from a definition under `id`, which must be unused in this engine
    /// (``PagerEngines`` makes the id first, to choose the shard).
    public func create(_ definition: PagerDefinition, id: SessionID) throws(EngineError) -> SessionSnapshot {
        precondition(sessions[id] == nil, "a session id is used twice")
        let now = clock.now()
        let pager: Pager
        do { pager = try definition.makePager(limits: limits.pager) } catch { throw .pager(error) }
        try reserve(session: true, bytes: pager.storedBytes, now: now)
        let session = Session(id: id, pager: pager, lastUsed: now)
        sessions[id] = session
        idleOrder.append(session)
        return SessionSnapshot(id: id, pager: pager)
    }

    /// Reserves a session slot (when `session`) and `bytes` of session data in the shared
    /// accounts, evicting one batch of this engine's expired sessions first if either is full.
    private func reserve(session: Bool, bytes: Int, now: Double) throws(EngineError) {
        for attempt in 0..<2 {
            if attempt == 1 { evictExpired(now: now, limit: Self.evictionBatch) }
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

    /// The session's current state; counts as use.
    public func snapshot(of id: SessionID) throws(EngineError) -> SessionSnapshot {
        let now = clock.now()
        guard let session = liveSession(id, now: now) else { throw .sessionNotFound }
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
        guard let session = liveSession(id, now: now) else { throw .sessionNotFound }
        touch(session, now: now)
        if let precondition, !precondition.accepts(session.pager.version) {
            throw .versionMismatch(current: session.pager.version)
        }
        if let expectedVersion, session.pager.version != expectedVersion {
            throw .versionMismatch(current: session.pager.version)
        }
        let outcome: PagerOutcome
        do {
            outcome = try session.pager.applying(command, limits: limits.pager)
        } catch {
            throw .pager(error)
        }
        let growth = outcome.pager.storedBytes - session.pager.storedBytes
        if growth != 0 { try reserve(session: false, bytes: growth, now: now) }
        let before = session.pager
        session.pager = outcome.pager
        let snapshot = SessionSnapshot(id: id, pager: outcome.pager)
        if outcome.changed {
            publish(
                SessionEvent(
                    kind: SessionEventKind.of(command, before: before, after: outcome.pager), snapshot: snapshot),
                to: session)
        } else if outcome.edge == .end, outcome.moved == false, outcome.pager.reportedTrailingAction != nil {
            publish(SessionEvent(kind: .actionRequested, snapshot: snapshot), to: session)
        }
        return CommandResult(snapshot: snapshot, outcome: outcome)
    }

    /// Deletes session `id`; its subscribers get a `deleted` event and their streams end.
    public func delete(_ id: SessionID, precondition: VersionPrecondition? = nil) throws(EngineError) {
        guard let session = liveSession(id, now: clock.now()) else { throw .sessionNotFound }
        if let precondition, !precondition.accepts(session.pager.version) {
            throw .versionMismatch(current: session.pager.version)
        }
        remove(id)
    }

    /// Evicts up to `limit` sessions idle for longer than the TTL; returns how many were evicted.
    @discardableResult
    public func evictExpired(limit: Int = .max) -> Int { evictExpired(now: clock.now(), limit: limit) }

    /// The most sessions one request evicts to make room, so that a request never holds the
    /// engine for a mass expiry; the sweeper evicts the rest in batches of this size.
    public static let evictionBatch = 256

    /// Evicts up to `limit` sessions idle past the TTL, oldest first, stopping at the first one
    /// that is not: O(evicted), however many sessions there are.
    @discardableResult
    private func evictExpired(now: Double, limit: Int) -> Int {
        var count = 0
        while count < limit, let oldest = idleOrder.oldest {
            evictionVisits += 1
            guard isExpired(oldest, now: now) else { break }
            remove(oldest.id)
            count += 1
        }
        evictions += count
        return count
    }

    private func isExpired(_ session: Session, now: Double) -> Bool {
        session.subscribers.isEmpty && now - session.lastUsed > limits.idleTTL
    }

    /// Marks the session used now: the newest in `idleOrder`, unless subscribers hold it.
    private func touch(_ session: Session, now: Double) {
        session.lastUsed = now
        if session.isLinked { idleOrder.moveToNewest(session) }
    }

    /// The session if it is live; an expired one is evicted on the spot.
    private func liveSession(_ id: SessionID, now: Double) -> Session? {
        guard let session = sessions[id] else { return nil }
        if isExpired(session, now: now) {
            remove(id)
            evictions += 1
            return nil
        }
        return session
    }

    private func remove(_ id: SessionID) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        if session.isLinked { idleOrder.remove(session) }
        EngineAccounts.release(accounts.storedBytes, session.pager.storedBytes)
        EngineAccounts.release(accounts.sessions, 1)
        EngineAccounts.release(accounts.subscribers, session.subscribers.count)
        let event = SessionEvent(kind: .deleted, snapshot: SessionSnapshot(id: id, pager: session.pager))
        for subscriber in session.subscribers.values {
            accounts.releaseAddress(subscriber.address)
            subscriber.continuation.yield(event)
            subscriber.continuation.finish()
        }
    }

    // MARK: - Change feed

    /// Undelivered events kept per subscriber; past this the oldest are dropped, so a slow reader
    /// skips ahead to the newest state and never holds the engine back.
    public static let subscriberBuffer = 64

    /// Subscribes to the changes of session `id` for a client at `address`. A prompt reader sees
    /// every change; a slow one gets coalesced updates ending at the newest state. It ends after
    /// `deleted`, or when the subscriber cancels.
    public func subscribe(to id: SessionID, from address: String = "") throws(EngineError) -> Subscription {
        let now = clock.now()
        guard let session = liveSession(id, now: now) else { throw .sessionNotFound }
        guard session.subscribers.count < limits.maxSubscribersPerSession else {
            throw .tooManySubscribers(limit: limits.maxSubscribersPerSession, scope: .session)
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
        session.lastUsed = now
        if session.isLinked { idleOrder.remove(session) }
        // A consumer that stops iterating without saying so is forgotten too, a hop later.
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(token, from: id) }
        }
        return Subscription(snapshot: SessionSnapshot(id: id, pager: session.pager), events: stream, token: token)
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
        session.lastUsed = clock.now()
        if session.subscribers.isEmpty, !session.isLinked { idleOrder.append(session) }
    }

    private func publish(_ event: SessionEvent, to session: Session) {
        for subscriber in session.subscribers.values { subscriber.continuation.yield(event) }
    }
}
