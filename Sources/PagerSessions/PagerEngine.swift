import Foundation
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
///
/// With a ``SessionStore``, each session has two states: the newest applied (`pager`, what the
/// next command applies to and `If-Match` compares with) and the newest durable (`durable`, what
/// reads and subscribers see). A change is submitted to the store as it applies and becomes
/// durable, visible and published when the store's thread reports the commit
/// (``settle(_:_:kind:error:)``); if the store fails it, the session goes back to its durable
/// state. Without a store, both are the same value and a change is visible at once.
public actor PagerEngine {
    /// One session. A class, so the table's buckets hold a reference rather than the whole
    /// value: a hash table keeps about half its buckets empty, and inline values made those
    /// empty buckets cost as much memory as the sessions themselves.
    ///
    /// Sessions without subscribers are also linked in `idleOrder`, least recently listed first,
    /// so eviction looks only at the sessions that expire.
    final class Session {
        let id: SessionID
        /// The newest state applied.
        var pager: Pager
        /// The newest state the store has made durable; nil until the creation commits. Without
        /// a store, always `pager`. A new durable state drops the read cache's form of the old.
        var durable: Pager? {
            didSet {
                if readForm != nil { forgetReadForm() }
                if let tabForms, tabForms.key != durable?.tabLayoutKey { forget(tabForms) }
            }
        }
        /// `durable` as readers get it, kept after the first read of this state (see
        /// ``PagerEngine/read(_:unlessVersionIn:)``); its capacity counts in
        /// `accounts.readCacheBytes`.
        private(set) var readForm: [UInt8]?
        /// The tabs at rest as the wire layer wrote them, for the pages and settings of the
        /// state that was durable when they were kept; dropped when a durable state has others.
        /// Counted in `accounts.readCacheBytes`.
        private(set) var tabForms: TabForms?
        let accounts: EngineAccounts
        /// Changes submitted to the store and not yet settled.
        var inFlight = 0
        /// A delete waits for its commit: commands see no session, reads still do.
        var deleting = false
        var lastUsed: Double
        /// When the store last recorded a use (engine clock).
        var storedUse: Double
        var subscribers: [Int: Subscriber] = [:]
        /// Neighbours in `idleOrder`. Unowned: the table holds every session strongly, and a
        /// session leaves the list before it leaves the table.
        unowned(unsafe) var older: Session?
        unowned(unsafe) var newer: Session?
        var isLinked = false
        /// When it was last moved to the newest end of `idleOrder` (engine clock).
        var listedAt: Double = 0
        /// When the auto-advance timer is due (wall-clock ms), while queued in `timers`.
        var timerDue: Int64 = 0
        /// Its place in `timers`; −1 when not queued.
        var timerSlot = -1

        init(id: SessionID, pager: Pager, durable: Pager?, lastUsed: Double, accounts: EngineAccounts) {
            self.id = id
            self.pager = pager
            self.durable = durable
            self.lastUsed = lastUsed
            self.storedUse = lastUsed
            self.accounts = accounts
        }

        /// Keeps `bytes` as the read form of the durable state if the read cache has room for
        /// them under `budget`.
        func keepReadForm(_ bytes: [UInt8], budget: Int) {
            guard readForm == nil, EngineAccounts.reserve(accounts.readCacheBytes, bytes.capacity, limit: budget)
            else { return }
            readForm = bytes
        }

        /// Drops the read form, giving its bytes back to the read cache.
        func forgetReadForm() {
            guard let readForm else { return }
            EngineAccounts.release(accounts.readCacheBytes, readForm.capacity)
            self.readForm = nil
        }

        /// Keeps `forms` instead of the tab forms kept before, if they were written from the
        /// durable state's pages and settings and the read cache has room for the difference under
        /// `budget` (otherwise the forms kept before stay). A mark never replaces written forms of
        /// the same pages and settings (a reader that started before they were kept hands one back).
        func keep(_ forms: TabForms, budget: Int) {
            guard forms !== tabForms, forms.key == durable?.tabLayoutKey else { return }
            if let tabForms, tabForms.isWritten, !forms.isWritten, tabForms.key == forms.key { return }
            // A reservation that shrinks always succeeds.
            let growth = forms.byteCount - (tabForms?.byteCount ?? 0)
            guard EngineAccounts.reserve(accounts.readCacheBytes, growth, limit: budget) else { return }
            tabForms = forms
        }

        /// Drops the tab forms, giving their bytes back to the read cache.
        func forget(_ forms: TabForms) {
            EngineAccounts.release(accounts.readCacheBytes, forms.byteCount)
            tabForms = nil
        }

        /// Drops everything kept for the wire layer (the session is leaving the table).
        func forgetForms() {
            forgetReadForm()
            if let tabForms { forget(tabForms) }
        }

        /// The session as commands see it: created durably and not being deleted.
        var acceptsCommands: Bool { durable?.version != nil && !deleting }  // reads no whole Pager
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
    /// Where changes are made durable; nil keeps sessions in memory only.
    public nonisolated let store: (any SessionStore)?
    /// Seconds since 1970 at the engine clock's origin, to give the store and the auto-advance
    /// timers wall-clock times.
    private let wallOrigin: Double
    /// Wakes this engine (and the other shards of the same server) when a timer is due; nil when
    /// only ``fireDueTimers(limit:)`` fires them, which tests with an injected clock call.
    private nonisolated let wake: TimerWake?
    /// Whether `wake` knows this engine yet (it is told at the first timer).
    private var registered = false
    private let makeID: @Sendable () -> SessionID
    @usableFromInline let executor = EngineExecutor()
    private var sessions: [SessionID: Session] = [:]
    private var idleOrder = IdleOrder()
    /// Sessions with subscribers (those not in `idleOrder`), whose use the store is told of.
    private var watched: [SessionID: Session] = [:]
    /// Sessions whose auto-advance timer runs unpaused, earliest due first.
    private var timers = TimerQueue()
    /// The wake-up asked of `wake`; nil when none is.
    private var armedFor: Int64?
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
    /// default, its own). Due timers fire by themselves unless `drivesTimers` is false.
    /// `wallOrigin` (seconds since 1970 at the clock's origin) defaults to the real one; tests
    /// with an injected clock may fix it.
    public init(
        limits: EngineLimits = EngineLimits(), clock: any EngineClock = SystemEngineClock(),
        accounts: EngineAccounts = EngineAccounts(), store: (any SessionStore)? = nil,
        drivesTimers: Bool = true, wallOrigin: Double? = nil,
        makeID: @escaping @Sendable () -> SessionID = SessionID.random
    ) {
        self.init(
            limits: limits, clock: clock, accounts: accounts, store: store, wake: drivesTimers ? TimerWake() : nil,
            wallOrigin: wallOrigin, makeID: makeID)
    }

    /// Creates an engine woken by `wake`, which other shards may share.
    init(
        limits: EngineLimits, clock: any EngineClock, accounts: EngineAccounts, store: (any SessionStore)?,
        wake: TimerWake?, wallOrigin: Double?, makeID: @escaping @Sendable () -> SessionID
    ) {
        self.limits = limits
        self.clock = clock
        self.store = store
        self.wake = wake
        self.wallOrigin = wallOrigin ?? (Date().timeIntervalSince1970 - clock.now())
        self.accounts = accounts
        self.makeID = makeID
    }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `body` on the engine now, on the calling thread, waiting only for work already
    /// running on it. `body` must not call `immediately` again.
    ///
    /// Holding the executor's lock is what being isolated to the engine means (see
    /// ``EngineExecutor``), so once it is held `body` is called as the plain function it is
    /// underneath: an `isolated` parameter changes where a function may be called from, not how
    /// it is called. That is the cast `assumeIsolated` makes after its check.
    @inlinable public nonisolated func immediately<T: Sendable, E: Error>(
        _ body: (isolated PagerEngine) throws(E) -> T
    ) throws(E) -> T {
        executor.hold()
        defer { executor.release() }
        return try withoutActuallyEscaping(body) { (body) throws(E) -> T in
            try unsafeBitCast(body, to: ((PagerEngine) throws(E) -> T).self)(self)
        }
    }

    /// ``apply(_:to:precondition:expectedVersion:)`` run now, on the calling thread, as
    /// ``immediately(_:)`` runs its body: the routes' way in for a command. The function cast
    /// captures nothing, so unlike a closure handed to `immediately` (made escaping for the cast,
    /// two allocations) the call allocates nothing. The hold, cast and call are written out in
    /// each such entry: a generic helper taking the arguments as one tuple (function types cannot
    /// take parameter packs here) copied that tuple, a retain and release of its fields per call.
    public nonisolated func applyImmediately(
        _ command: PagerCommand, to id: SessionID, precondition: VersionPrecondition?
    ) throws(EngineError) -> CommandResult {
        typealias Isolated = (isolated PagerEngine, PagerCommand, SessionID, VersionPrecondition?) throws(EngineError)
            -> CommandResult
        typealias Plain = (PagerEngine, PagerCommand, SessionID, VersionPrecondition?) throws(EngineError) ->
            CommandResult
        executor.hold()
        defer { executor.release() }
        let isolated: Isolated = { engine, command, id, precondition throws(EngineError) in
            try engine.apply(command, to: id, precondition: precondition)
        }
        return try unsafeBitCast(isolated, to: Plain.self)(self, command, id, precondition)
    }

    /// ``read(_:unlessVersionIn:)`` run now, on the calling thread: the routes' way in for a
    /// read (see ``applyImmediately(_:to:precondition:)``).
    public nonisolated func readImmediately(
        _ id: SessionID, unlessVersionIn unchanged: VersionPrecondition?
    ) throws(EngineError) -> SessionRead {
        typealias Isolated = (isolated PagerEngine, SessionID, VersionPrecondition?) throws(EngineError) -> SessionRead
        typealias Plain = (PagerEngine, SessionID, VersionPrecondition?) throws(EngineError) -> SessionRead
        executor.hold()
        defer { executor.release() }
        let isolated: Isolated = { engine, id, unchanged throws(EngineError) in
            try engine.read(id, unlessVersionIn: unchanged)
        }
        return try unsafeBitCast(isolated, to: Plain.self)(self, id, unchanged)
    }

    /// Whether session `id` is in this engine's table (live or not yet evicted).
    public func holds(_ id: SessionID) -> Bool { sessions[id] != nil }

    /// Live sessions in this engine.
    public var sessionCount: Int { sessions.count }

    /// Live event subscribers of every engine sharing these accounts.
    public nonisolated var subscriberTotal: Int { accounts.subscriberCount }

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
    /// (``PagerEngines`` makes the id first, to choose the shard). With a store, the session
    /// exists for nobody but its creator until the creation is durable.
    public func create(_ definition: PagerDefinition, id: SessionID) throws(EngineError) -> Created {
        precondition(sessions[id] == nil, "a session id is used twice")
        let now = clock.now()
        let pager: Pager
        do { pager = try definition.makePager(limits: limits.pager, now: milliseconds(now)) } catch {
            throw .pager(error)
        }
        try reserve(session: true, bytes: pager.storedBytes, now: now)
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
    /// outside the engine and handed back with ``keep(_:asReadOf:version:)``.
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

    /// Keeps `bytes`, the form a reader gets of session `id`'s state at `version`, for later
    /// reads of that state: only while it is still the durable state, and only if the read
    /// cache, which holds at most ``EngineLimits/readCacheBudgetBytes`` across all shards, has
    /// room. A read cache that is full keeps nothing more until a kept form's state changes or
    /// its session goes.
    public func keep(_ bytes: [UInt8], asReadOf id: SessionID, version: Int) {
        keep(read: bytes, version: version, forms: nil, for: id)
    }

    /// What a read that missed the cache wrote, kept in one visit, on the calling thread as
    /// ``applyImmediately(_:to:precondition:)`` enters: `bytes` as the read form of `version`
    /// (see ``keep(_:asReadOf:version:)``) and `forms`, when given, as the tab forms (see
    /// ``keep(_:for:)``).
    public nonisolated func keepImmediately(_ bytes: [UInt8], asReadOf id: SessionID, version: Int, forms: TabForms?) {
        typealias Isolated = (isolated PagerEngine, [UInt8], SessionID, Int, TabForms?) -> Void
        typealias Plain = (PagerEngine, [UInt8], SessionID, Int, TabForms?) -> Void
        executor.hold()
        defer { executor.release() }
        let isolated: Isolated = { engine, bytes, id, version, forms in
            engine.keep(read: bytes, version: version, forms: forms, for: id)
        }
        unsafeBitCast(isolated, to: Plain.self)(self, bytes, id, version, forms)
    }

    /// Both keeps in one lookup of session `id`: `read` as the read form of `version`, if given
    /// and `version` is still the durable state, and `forms`, if given.
    private func keep(read: [UInt8]?, version: Int, forms: TabForms?, for id: SessionID) {
        guard let session = sessions[id] else { return }
        if let read, session.durable?.version == version {
            session.keepReadForm(read, budget: limits.readCacheBudgetBytes)
        }
        if let forms { session.keep(forms, budget: limits.readCacheBudgetBytes) }
    }

    /// Keeps `forms`, the tabs at rest of session `id` as the wire layer writes them, for the
    /// documents after this one: only if they were written from the pages and settings of its
    /// durable state, and only if the read cache has room (they replace forms kept before).
    public func keep(_ forms: TabForms, for id: SessionID) {
        keep(read: nil, version: 0, forms: forms, for: id)
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
        if let precondition, !precondition.accepts(session.pager.version) {
            throw .versionMismatch(current: session.pager.version)
        }
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
            if outcome.actionRequested != nil, let durable = session.durable {
                publish(
                    SessionEvent(kind: .actionRequested, snapshot: SessionSnapshot(id: id, pager: durable)), to: session
                )
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
                event: SessionEvent(kind: kind, snapshot: SessionSnapshot(id: id, pager: outcome.pager)),
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
    private func record(
        _ pager: Pager, of session: Session, event: @autoclosure () -> SessionEvent, lastUsed: Double,
        positionOnly: Bool
    ) throws(EngineError) -> Commit? {
        if store != nil {
            let commit = try submitSave(
                session.id, pager, event: event(), lastUsed: lastUsed, positionOnly: positionOnly)
            session.inFlight += 1
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
        if let precondition, !precondition.accepts(session.pager.version) {
            throw .versionMismatch(current: session.pager.version)
        }
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
        return commit
    }

    // MARK: - Durability

    /// Submits a session's new state; the returned commit resolves after the engine has settled
    /// it. `event` is published when it is durable (nil for a creation).
    private func submitSave(
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
    private func submit(
        _ change: SessionChange, announcing announcement: ChangeAnnouncement? = nil,
        settle: @escaping @Sendable (isolated PagerEngine, StoreError?) -> Void
    ) throws(EngineError) -> Commit {
        guard let store else { preconditionFailure("a change submitted without a store") }
        let commit = Commit()
        do {
            try store.submit(change, announcing: announcement) { [self] error in
                immediately { engine in settle(engine, error) }
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
        session.inFlight -= 1
        if let error, error.conflict { return refresh(session, to: error.current) }
        guard error == nil else { return rollBack(session) }
        // Only a newer version is shown and published: a shared store's notifications may have
        // brought later versions from elsewhere first.
        guard (session.durable?.version ?? 0) < pager.version else { return }
        session.durable = pager
        if let event { publish(event, to: session) }
    }

    /// After a change lost to another process's: the session takes the stored state (`current`;
    /// nil when the session is gone elsewhere), announced to its subscribers when it is newer
    /// than what they saw.
    private func refresh(_ session: Session, to current: Pager?) {
        guard let current else {
            remove(session.id)
            return
        }
        if current.version > (session.durable?.version ?? 0) {
            session.durable = current
            publish(SessionEvent(kind: .state, snapshot: SessionSnapshot(id: session.id, pager: current)), to: session)
        }
        rollBack(session)
    }

    /// The store's answer for a delete: durable, the session goes; failed, it stays.
    func settleDelete(_ id: SessionID, error: StoreError?) {
        guard let session = sessions[id] else { return }
        session.inFlight -= 1
        session.deleting = false
        if let error, error.conflict { return refresh(session, to: error.current) }
        if error == nil { remove(id) } else { rollBack(session) }
    }

    private func rollBack(_ session: Session) {
        guard let durable = session.durable else {
            remove(session.id, announce: false)
            return
        }
        guard session.pager != durable else { return }
        replaceHead(of: session, with: durable)
    }

    /// Makes `pager` the session's newest state, keeping the byte accounts in step.
    private func replaceHead(of session: Session, with pager: Pager) {
        // A release of a negative amount adds it.
        EngineAccounts.release(accounts.storedBytes, session.pager.storedBytes - pager.storedBytes)
        session.pager = pager
        schedule(session)
    }

    // MARK: - A shared store

    /// Takes in a session loaded from a shared store because a request named it and this engine
    /// did not hold it (or held an older copy). It counts against the limits but is never refused
    /// by them. It is used now (a request asked for it); the store's record of its last use is
    /// as old as the store says, so the request's use is recorded as soon as it is due.
    public func adopt(_ stored: StoredSession) {
        let now = clock.now()
        if let session = sessions[stored.id] {
            return absorb(session, stored.pager, kind: .state, cause: .request)
        }
        let session = Session(
            id: stored.id, pager: stored.pager, durable: stored.pager, lastUsed: now, accounts: accounts)
        session.storedUse = now - max(0, Date().timeIntervalSince1970 - stored.lastUsed)
        sessions[stored.id] = session
        idleOrder.append(session, at: now)
        schedule(session)
        accounts.admit(bytes: stored.pager.storedBytes)
    }

    /// A change another process made to a shared session, as its notification tells it. A
    /// session this engine does not hold, or holds at that version or later, is left alone; one
    /// it holds takes the newer state and its subscribers get the event (a deleted one goes,
    /// with `deleted`). Answers true when the change could not be followed from what the
    /// notification carried (only a position, and the engine holds another version than the one
    /// before it; or nothing at all), so the session should be loaded.
    public func absorb(_ change: RemoteChange) -> Bool {
        guard let session = sessions[change.id], let durable = session.durable else { return false }
        let announcement = change.announcement
        switch change.state {
        case .deleted:
            remove(change.id, cause: announcement.cause)
            return false
        case _ where change.version <= durable.version:
            return false
        case .whole(let pager):
            absorb(session, pager, kind: announcement.kind, cause: announcement.cause)
            return false
        case .position(let lay):
            guard durable.version == change.version - 1, let pager = lay(durable) else { return true }
            absorb(session, pager, kind: announcement.kind, cause: announcement.cause)
            return false
        case .unknown:
            return true
        }
    }

    /// The sessions event streams hold open here, to bring up to date after this process may
    /// have missed changes made elsewhere (a shared store's notifications were interrupted).
    public var watchedSessions: [SessionID] { Array(watched.keys) }

    /// Drops up to `limit` copies of shared sessions that no event stream holds and no change of
    /// this engine waits on, least recently listed first, so that after missed notifications they
    /// are loaded again when next asked for instead of being served stale. Nobody is told: the
    /// sessions go on in the store. Answers how many were dropped.
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

    private func absorb(_ session: Session, _ pager: Pager, kind: SessionEventKind, cause: EventCause) {
        guard pager.version > (session.durable?.version ?? 0) else { return }
        session.durable = pager
        // A change of this engine's in flight will lose (its version is taken); until it is
        // settled, commands go on from the head it made, and then from this state.
        if session.inFlight == 0 || pager.version >= session.pager.version { replaceHead(of: session, with: pager) }
        publish(
            SessionEvent(kind: kind, snapshot: SessionSnapshot(id: session.id, pager: pager), cause: cause), to: session
        )
    }

    /// Evicts up to `limit` sessions idle for longer than the TTL; returns how many were evicted.
    @discardableResult
    public func evictExpired(limit: Int = .max) -> Int { evictExpired(now: clock.now(), limit: limit) }

    /// The most sessions one request evicts to make room, so that a request never holds the
    /// engine for a mass expiry; the sweeper evicts the rest in batches of this size.
    public static let evictionBatch = 256

    /// Evicts up to `limit` sessions idle past the TTL, least recently listed first, stopping at
    /// the first one that is not: O(evicted), however many sessions there are. One listed later
    /// than that one and expired waits for a later sweep, by at most ``idleOrderGranularity``.
    @discardableResult
    private func evictExpired(now: Double, limit: Int) -> Int {
        var count = 0
        while count < limit, let oldest = idleOrder.oldest {
            evictionVisits += 1
            guard isExpired(oldest, now: now) else { break }
            evict(oldest.id)
            count += 1
        }
        return count
    }

    private func isExpired(_ session: Session, now: Double) -> Bool {
        session.subscribers.isEmpty && session.inFlight == 0 && now - session.lastUsed > limits.idleTTL
    }

    /// Marks the session used now, and moves it to the newest end of `idleOrder` (unless
    /// subscribers hold it) when it was listed at least ``idleOrderGranularity`` ago. With a
    /// store, a use is recorded at most every ``storedUseInterval``, so that a session only read
    /// is not expired by a restart.
    private func touch(_ session: Session, now: Double) {
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
    private var idleOrderGranularity: Double { min(1, limits.idleTTL / 64) }

    /// How stale the store's record of a session's last use may get: an eighth of the idle TTL,
    /// so a restart can shorten a session's life by at most that much.
    private var storedUseInterval: Double { limits.idleTTL / 8 }

    /// The session if it is live; an expired one is evicted on the spot.
    private func liveSession(_ id: SessionID, now: Double) -> Session? {
        guard let session = sessions[id] else { return nil }
        if isExpired(session, now: now) {
            evict(id)
            return nil
        }
        return session
    }

    /// Drops session `id` from memory; `announce` tells its subscribers, with `cause`.
    private func remove(_ id: SessionID, announce: Bool = true, cause: EventCause = .request) {
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
        for subscriber in session.subscribers.values {
            accounts.releaseAddress(subscriber.address)
            if announce { subscriber.continuation.yield(event) }
            subscriber.continuation.finish()
        }
    }

    /// Drops an expired session, and tells the store without waiting: a restart would not revive
    /// it anyway, since it is idle past the TTL.
    private func evict(_ id: SessionID) {
        remove(id, cause: .idle)
        evictions += 1
        // A shared store's rows are other processes' too: it expires them itself, by last use.
        if let store, !store.isShared { try? store.submit(.delete(id), completion: nil) }
    }

    // MARK: - Auto-advance

    /// The most ticks one turn on the engine applies; a larger backlog (after a restart, say) is
    /// fired in further turns, so the engine is never held for a number of sessions.
    public static let tickBatch = 512

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
        if let earliest = timers.earliest { wakeUp(by: earliest) }
        return fired
    }

    private func tick(_ session: Session, now: Int64) {
        let before = session.pager
        guard let outcome = try? before.applying(.tick, limits: limits.pager, now: now), outcome.changed else {
            // Not due after all (the queue is kept in step with the state, so this is defensive).
            if let due = before.timer.dueAt, due > now { schedule(session) }
            return
        }
        do {
            _ = try record(
                outcome.pager, of: session,
                event: SessionEvent(
                    kind: .of(.tick, outcome, movedFrom: before.index),
                    snapshot: SessionSnapshot(id: session.id, pager: outcome.pager), cause: .autoAdvance,
                    move: outcome.move),
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
    private func schedule(_ session: Session) {
        guard let due = session.pager.timer.dueAt else { return timers.remove(session) }
        timers.schedule(session, at: due)
        wakeUp(by: due)
    }

    /// How finely wake-ups are spaced, in milliseconds: a wake-up is asked for the next multiple
    /// of this after the due time, so one wake-up fires every timer due in that span. Ticks come
    /// up to this much late (their times in the state are exact), and a server with any number
    /// of timers wakes at most 100 times a second.
    static let wakeQuantum: Int64 = 10

    /// Asks `wake` for a wake-up by `due` when it is earlier than the one asked for.
    private func wakeUp(by due: Int64) {
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
    private func milliseconds(_ now: Double) -> Int64 { Int64(((wallOrigin + now) * 1000).rounded(.down)) }

    // MARK: - Change feed

    /// Undelivered events kept per subscriber; past this the oldest are dropped, so a slow reader
    /// skips ahead to the newest state and never holds the engine back.
    public static let subscriberBuffer = 64

    /// Subscribes to the changes of session `id` for a client at `address`. A prompt reader sees
    /// every change; a slow one gets coalesced updates ending at the newest state. It ends after
    /// `deleted`, or when the subscriber cancels.
    public func subscribe(to id: SessionID, from address: String = "") throws(EngineError) -> Subscription {
        let now = clock.now()
        guard let session = liveSession(id, now: now), session.acceptsCommands, let durable = session.durable else {
            throw .sessionNotFound
        }
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
        watched[id] = session
        // A consumer that stops iterating without saying so is forgotten too, a hop later.
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(token, from: id) }
        }
        return Subscription(snapshot: SessionSnapshot(id: id, pager: durable), events: stream, token: token)
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
        if session.subscribers.isEmpty, !session.isLinked {
            idleOrder.append(session, at: session.lastUsed)
            watched[id] = nil
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

    private func publish(_ event: SessionEvent, to session: Session) {
        for subscriber in session.subscribers.values { subscriber.continuation.yield(event) }
    }
}
