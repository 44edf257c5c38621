public import JSON
public import PagerModel

/// The only shared mutable state of pagerd: the table of sessions, each a `Pager` value.
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
    final class Session {
        var pager: Pager
        var lastUsed: Double
        var subscribers: [Int: AsyncStream<SessionEvent>.Continuation] = [:]

        init(pager: Pager, lastUsed: Double) {
            self.pager = pager
            self.lastUsed = lastUsed
        }
    }

    /// The templates by name.
    public nonisolated let templates: [String: Template]
    /// The limits in force.
    public nonisolated let limits: EngineLimits
    private let clock: any EngineClock
    private let makeID: @Sendable () -> String
    private let executor = EngineExecutor()
    private var sessions: [String: Session] = [:]
    private var nextSubscriberID = 0
    private var subscriberCount = 0
    /// Sessions evicted for idling since start.
    public private(set) var evictions = 0

    /// Creates an engine.
    public init(
        templates: [Template] = [], limits: EngineLimits = EngineLimits(), clock: any EngineClock = SystemEngineClock(),
        makeID: @escaping @Sendable () -> String = SessionID.random
    ) {
        self.templates = Dictionary(templates.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.limits = limits
        self.clock = clock
        self.makeID = makeID
    }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `body` on the engine now, on the calling thread, waiting only for work already
    /// running on it. `body` must not call `immediately` again.
    public nonisolated func immediately<T: Sendable, E: Error>(_ body: @Sendable (isolated PagerEngine) throws(E) -> T) throws(E) -> T {
        var result: Result<T, E>?
        executor.runExclusively {
            result = assumeIsolated { engine in Result { () throws(E) -> T in try body(engine) } }
        }
        // runExclusively always runs its body, so the result is there.
        return try result!.get()
    }

    /// Live sessions.
    public var sessionCount: Int { sessions.count }

    /// Live event subscribers.
    public var subscriberTotal: Int { subscriberCount }

    // MARK: - Sessions

    /// Creates a session from a request body: `{"template"?: name, …definition members}`.
    public func create(body: JSONObject) throws(EngineError) -> SessionSnapshot {
        let definition: PagerDefinition
        do {
            if let nameValue = body["template"], !nameValue.isNull {
                guard let name = nameValue.stringValue else {
                    throw EngineError.pager(PagerError(kind: .invalid, field: "template", detail: "Expected a string, found \(nameValue.kindName)."))
                }
                guard let template = templates[name] else { throw EngineError.templateNotFound(name) }
                definition = try template.makeDefinition(overrides: body, extraMembers: ["template"])
            } else {
                definition = try PagerDefinition(json: body, extraMembers: ["template"])
            }
        } catch let error as EngineError {
            throw error
        } catch let error as PagerError {
            throw .pager(error)
        } catch {
            throw .pager(PagerError(kind: .invalid, field: nil, detail: "\(error)"))
        }
        return try create(definition)
    }

    /// Creates a session from a definition.
    public func create(_ definition: PagerDefinition) throws(EngineError) -> SessionSnapshot {
        let now = clock.now()
        if sessions.count >= limits.maxSessions { evictExpired(now: now) }
        guard sessions.count < limits.maxSessions else { throw .atCapacity(limit: limits.maxSessions) }
        let pager: Pager
        do { pager = try definition.makePager(limits: limits.pager) } catch { throw .pager(error) }
        var id = makeID()
        while sessions[id] != nil { id = makeID() }
        sessions[id] = Session(pager: pager, lastUsed: now)
        return SessionSnapshot(id: id, pager: pager)
    }

    /// The session's current state; counts as use.
    public func snapshot(of id: String) throws(EngineError) -> SessionSnapshot {
        let now = clock.now()
        guard let session = liveSession(id, now: now) else { throw .sessionNotFound }
        session.lastUsed = now
        return SessionSnapshot(id: id, pager: session.pager)
    }

    /// Applies `command` to session `id` if `precondition` accepts its version.
    public func apply(_ command: PagerCommand, to id: String, precondition: VersionPrecondition? = nil)
        throws(EngineError) -> CommandResult
    {
        let now = clock.now()
        guard let session = liveSession(id, now: now) else { throw .sessionNotFound }
        session.lastUsed = now
        if let precondition, !precondition.accepts(session.pager.version) {
            throw .versionMismatch(current: session.pager.version)
        }
        let outcome: PagerOutcome
        do {
            outcome = try session.pager.applying(command, limits: limits.pager)
        } catch {
            throw .pager(error)
        }
        let before = session.pager
        session.pager = outcome.pager
        let snapshot = SessionSnapshot(id: id, pager: outcome.pager)
        if outcome.changed {
            publish(SessionEvent(kind: SessionEventKind.of(command, before: before, after: outcome.pager), snapshot: snapshot), to: session)
        } else if outcome.edge == .end, outcome.moved == false, outcome.pager.reportedTrailingAction != nil {
            publish(SessionEvent(kind: .actionRequested, snapshot: snapshot), to: session)
        }
        return CommandResult(snapshot: snapshot, outcome: outcome)
    }

    /// Applies a PATCH body (merge patch of the settings) to session `id`.
    public func patch(_ id: String, with body: JSONObject, precondition: VersionPrecondition? = nil)
        throws(EngineError) -> CommandResult
    {
        guard let session = liveSession(id, now: clock.now()) else { throw .sessionNotFound }
        let settings: PagerSettings
        do { settings = try session.pager.settings.patched(with: body) } catch { throw .pager(error) }
        return try apply(.updateSettings(settings), to: id, precondition: precondition)
    }

    /// Deletes session `id`; its subscribers get a `deleted` event and their streams end.
    public func delete(_ id: String, precondition: VersionPrecondition? = nil) throws(EngineError) {
        guard let session = liveSession(id, now: clock.now()) else { throw .sessionNotFound }
        if let precondition, !precondition.accepts(session.pager.version) {
            throw .versionMismatch(current: session.pager.version)
        }
        remove(id)
    }

    /// Evicts every session idle for longer than the TTL; returns how many were evicted.
    @discardableResult
    public func evictExpired() -> Int { evictExpired(now: clock.now()) }

    @discardableResult
    private func evictExpired(now: Double) -> Int {
        let expired = sessions.compactMap { id, session in isExpired(session, now: now) ? id : nil }
        for id in expired { remove(id) }
        evictions += expired.count
        return expired.count
    }

    private func isExpired(_ session: Session, now: Double) -> Bool {
        session.subscribers.isEmpty && now - session.lastUsed > limits.idleTTL
    }

    /// The session if it is live; an expired one is evicted on the spot.
    private func liveSession(_ id: String, now: Double) -> Session? {
        guard let session = sessions[id] else { return nil }
        if isExpired(session, now: now) {
            remove(id)
            evictions += 1
            return nil
        }
        return session
    }

    private func remove(_ id: String) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        subscriberCount -= session.subscribers.count
        let event = SessionEvent(kind: .deleted, snapshot: SessionSnapshot(id: id, pager: session.pager))
        for continuation in session.subscribers.values {
            continuation.yield(event)
            continuation.finish()
        }
    }

    // MARK: - Change feed

    /// Undelivered events kept per subscriber; past this the oldest are dropped, so a slow reader
    /// skips ahead to the newest state and never holds the engine back.
    public static let subscriberBuffer = 64

    /// Subscribes to the changes of session `id`. A prompt reader sees every change; a slow one
    /// gets coalesced updates ending at the newest state. It ends after `deleted`, or when the
    /// subscriber cancels.
    public func subscribe(to id: String) throws(EngineError) -> (snapshot: SessionSnapshot, events: AsyncStream<SessionEvent>) {
        let now = clock.now()
        guard let session = liveSession(id, now: now) else { throw .sessionNotFound }
        guard subscriberCount < limits.maxSubscribers else { throw .tooManySubscribers(limit: limits.maxSubscribers) }
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(Self.subscriberBuffer))
        let token = nextSubscriberID
        nextSubscriberID += 1
        subscriberCount += 1
        session.subscribers[token] = continuation
        session.lastUsed = now
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(token, from: id) }
        }
        return (SessionSnapshot(id: id, pager: session.pager), stream)
    }

    /// Forgets a subscriber whose stream ended; one already dropped with its session was counted
    /// then, so the count stays exact.
    private func unsubscribe(_ token: Int, from id: String) {
        guard let session = sessions[id], session.subscribers.removeValue(forKey: token) != nil else { return }
        subscriberCount -= 1
        session.lastUsed = clock.now()
    }

    private func publish(_ event: SessionEvent, to session: Session) {
        for continuation in session.subscribers.values { continuation.yield(event) }
    }
}
