import Foundation
import PagerModel

/// A subscription to one session's changes.
public struct Subscription: Sendable {
    /// The state when it began.
    public var snapshot: SessionSnapshot
    /// The changes from then on.
    public var events: AsyncStream<SessionEvent>
    /// Identifies it to ``PagerEngine/unsubscribe(_:from:)``.
    public var token: Int
    /// Where the subscriptions that begin at the same state share the wire form of their first
    /// event; it lends it (see ``EncodedOnce``), so it lives while a stream still sends it.
    public var firstEncoding: EncodedOnce
}

/// One shard of the session table: its sessions, each a `Pager` value (docs/architecture.md,
/// «Threads and locks», has the whole concurrency model).
///
/// Every method reads a session, computes with the pure model and stores the result with no
/// suspension in between, so commands on one session apply one at a time, in the order they
/// enter the engine. No method suspends or enters another shard.
///
/// The actor's executor is a lock (``EngineExecutor``), so the actor can be entered two ways:
/// by `await`, like any actor, or synchronously on the calling thread with ``withLock(_:)``,
/// which takes the lock and enters through the standard library's checked `assumeIsolated`. The
/// HTTP layer uses `withLock`, so that answering a request needs no hop to another thread.
///
/// With a ``SessionStore``, each session has two states: the newest applied (`pager`, what the
/// next command applies to and `If-Match` compares with) and the newest durable (`durable`, what
/// reads and subscribers see). A change is submitted to the store as it applies and becomes
/// durable, visible and published when the store's thread reports the commit (``settle(_:_:event:error:)``);
/// if the store fails it, the session goes back to its durable state. Without a store, both are
/// the same value and a change is visible at once.
///
/// The engine's state below is internal only so that the engine's own files (`PagerEngine+…`,
/// one concern each) can reach it; nothing else in the module touches it.
public actor PagerEngine {
    /// The limits in force.
    public nonisolated let limits: EngineLimits
    /// The counts the limits apply to, shared with the other shards of the same server.
    public nonisolated let accounts: EngineAccounts
    let clock: any EngineClock
    /// Where changes are made durable; nil keeps sessions in memory only.
    public nonisolated let store: (any SessionStore)?
    /// Seconds since 1970 at the engine clock's origin, to give the store and the auto-advance
    /// timers wall-clock times.
    let wallOrigin: Double
    /// Wakes this engine (and the other shards of the same server) when a timer is due; nil when
    /// only ``fireDueTimers(limit:)`` fires them, which tests with an injected clock call.
    nonisolated let wake: TimerWake?
    /// Whether `wake` knows this engine yet (it is told at the first timer).
    var registered = false
    /// Loads a session from a shared store (off the engine) and hands it to ``adopt(_:)``; set
    /// by ``PagerEngines``. A watched session's feed asks for it when it cannot follow a change.
    var loadShared: (@Sendable (SessionID) -> Void)?
    let makeID: @Sendable () -> SessionID
    @usableFromInline let executor = EngineExecutor()
    var sessions: [SessionID: Session] = [:]
    var idleOrder = IdleOrder()
    /// Sessions with subscribers (those not in `idleOrder`), whose use the store is told of.
    var watched: [SessionID: Session] = [:]
    /// Sessions whose auto-advance timer runs unpaused, earliest due first.
    var timers = TimerQueue()
    /// The wake-up asked of `wake`; nil when none is.
    var armedFor: Int64?
    var nextSubscriberID = 0
    /// Session data held by the sessions of every engine sharing these accounts, as budgets
    /// count it (``Pager/storedBytes``).
    public nonisolated var storedBytes: Int { accounts.storedByteCount }
    /// Sessions evicted for idling since start.
    public internal(set) var evictions = 0
    /// Events subscribers never received since start because they fell behind: each version a
    /// subscriber skipped counts once (see ``subscriberBuffer``).
    public internal(set) var skippedEvents = 0
    /// Sessions looked at by eviction since start: each one evicted, plus at most one that was
    /// not, per sweep. Tests read it to show that eviction never scans the table.
    public internal(set) var evictionVisits = 0

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

    /// Runs `body` on the engine now, on the calling thread, waiting only while other work holds
    /// the engine: the synchronous way in. `body` must not call `withLock` on this engine again
    /// (that traps rather than deadlocks); it may not suspend, and it is held to microseconds of
    /// work, since server threads wait for it (a change to a session with many streams holds it
    /// longer: docs/architecture.md, «Threads»).
    ///
    /// Holding the executor's lock is what being isolated to the engine means (see
    /// ``EngineExecutor``); `assumeIsolated` checks that with the executor before it runs `body`.
    @inlinable public nonisolated func withLock<T: Sendable, E: Error>(
        _ body: @Sendable (isolated PagerEngine) throws(E) -> T
    ) throws(E) -> T {
        executor.hold()
        defer { executor.release() }
        let result = assumeIsolated { engine in Result { () throws(E) -> T in try body(engine) } }
        return try result.get()
    }

    /// Whether session `id` is in this engine's table (live or not yet evicted).
    public func holds(_ id: SessionID) -> Bool { sessions[id] != nil }

    /// Live sessions in this engine.
    public var sessionCount: Int { sessions.count }

    /// Live event subscribers of every engine sharing these accounts.
    public nonisolated var subscriberTotal: Int { accounts.subscriberCount }

    /// Sets what loads a session from a shared store for this engine.
    func setLoader(_ load: @escaping @Sendable (SessionID) -> Void) { loadShared = load }
}
