import Foundation
public import PagerModel

/// The server's sessions, sharded by id over several ``PagerEngine`` actors: every session lives
/// in exactly one shard, chosen by a hash of its id, so two requests contend only when they touch
/// the same shard. Limits that span shards (sessions, the memory budget, subscribers in all and
/// by address) are kept in ``EngineAccounts``. docs/architecture.md, «Threads and locks», tells
/// how requests, the store's threads and the timers enter the shards.
public final class PagerEngines: Sendable {
    /// The shards.
    public let shards: [PagerEngine]
    /// The limits in force.
    public let limits: EngineLimits
    /// The counts shared by the shards.
    public let accounts: EngineAccounts
    /// Where changes are made durable; nil keeps sessions in memory only.
    public let store: (any SessionStore)?
    private let makeID: @Sendable () -> SessionID

    /// Creates `count` shards sharing `limits` and `store`; `drivesTimers` and `wallOrigin` are
    /// as for ``PagerEngine``.
    public init(
        count: Int, limits: EngineLimits = EngineLimits(), clock: any EngineClock = SystemEngineClock(),
        store: (any SessionStore)? = nil, drivesTimers: Bool = true, wallOrigin: Double? = nil,
        makeID: @escaping @Sendable () -> SessionID = SessionID.random
    ) {
        precondition(count >= 1, "an engine needs at least one shard")
        let accounts = EngineAccounts()
        self.accounts = accounts
        self.limits = limits
        self.store = store
        self.makeID = makeID
        // One wake-up source for every shard, so a server wakes once per due time.
        let wake = drivesTimers ? TimerWake() : nil
        shards = (0..<count).map { _ in
            PagerEngine(
                limits: limits, clock: clock, accounts: accounts, store: store, wake: wake, wallOrigin: wallOrigin,
                makeID: makeID)
        }
        guard store?.isShared == true else { return }
        for shard in shards {
            shard.withLock { engine in
                engine.setLoader { [weak self] id in Task { _ = try? await self?.load(id) } }
            }
        }
    }

    /// What ``restore()`` found.
    public struct Recovery: Sendable, Equatable {
        /// Sessions taken back.
        public var restored: Int
        /// Sessions idle past the TTL, dropped from the store instead.
        public var expired: Int
    }

    /// Takes back every session the store kept, except those idle past the TTL, which are
    /// deleted from the store. Call once, before serving.
    public func restore() throws(StoreError) -> Recovery {
        guard let store else { return Recovery(restored: 0, expired: 0) }
        let now = Date().timeIntervalSince1970
        var stored = try store.recover()
        stored.sort { $0.lastUsed < $1.lastUsed }
        var recovery = Recovery(restored: 0, expired: 0)
        for session in stored {
            let idle = now - session.lastUsed
            if idle > limits.idleTTL {
                try? store.submit(.delete(session.id), completion: nil)
                recovery.expired += 1
                continue
            }
            shard(for: session.id).withLock { engine in
                engine.restore(session.id, pager: session.pager, idleSeconds: idle)
            }
            recovery.restored += 1
        }
        return recovery
    }

    /// The shard that holds (or would hold) session `id`, by the hash of its text (FNV-1a).
    public func shard(for id: SessionID) -> PagerEngine {
        guard shards.count > 1 else { return shards[0] }
        return shards[Int(id.textHash % UInt64(shards.count))]
    }

    /// Creates a session under a new id, in the id's shard. When the session or byte limit is
    /// reached, up to ``PagerEngine/evictionBatch`` expired sessions are evicted, shard by shard
    /// (each in a turn of its own), and the create is tried once more.
    public func create(_ definition: PagerDefinition) throws(EngineError) -> PagerEngine.Created {
        do throws(EngineError) {
            return try createOnce(definition)
        } catch .atCapacity, .memoryBudgetExceeded {
            var budget = PagerEngine.evictionBatch
            for shard in shards where budget > 0 {
                let limit = budget
                budget -= shard.withLock { engine in engine.evictExpired(limit: limit) }
            }
            return try createOnce(definition)
        }
    }

    private func createOnce(_ definition: PagerDefinition) throws(EngineError) -> PagerEngine.Created {
        while true {
            let id = makeID()
            let created = try shard(for: id).withLock { engine throws(EngineError) -> PagerEngine.Created? in
                engine.holds(id) ? nil : try engine.create(definition, id: id, evicting: 0)
            }
            if let created { return created }
        }
    }

    /// Live sessions in all shards.
    public var sessionCount: Int { accounts.sessionCount }

    /// Live event subscribers in all shards.
    public var subscriberTotal: Int { accounts.subscriberCount }

    /// Session data held by all shards.
    public var storedBytes: Int { accounts.storedByteCount }

    /// State documents kept for reads by all shards, in bytes (see ``EngineLimits/readCacheBudgetBytes``).
    public var readCacheBytes: Int { accounts.readCacheByteCount }

    /// Sessions evicted for idling since start, in all shards.
    public var evictions: Int { shards.reduce(0) { total, shard in total + shard.withLock { $0.evictions } } }

    /// Events subscribers skipped because they fell behind, in all shards (``PagerEngine/skippedEvents``).
    public var skippedEvents: Int { shards.reduce(0) { total, shard in total + shard.withLock { $0.skippedEvents } } }

    /// With a shared store, deletes the stored sessions idle past the TTL (whoever held them);
    /// processes holding copies hear of it from the store. Nothing to do otherwise: each process
    /// deletes what it evicts.
    public func expireStored() async {
        guard let store, store.isShared else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            store.expire(before: Date().timeIntervalSince1970 - limits.idleTTL) { done.resume() }
        }
    }

    /// Loads session `id` from a shared store into its shard; answers whether it is held now.
    /// Nothing to load without a shared store: every session is restored at start.
    public func load(_ id: SessionID) async throws(EngineError) -> Bool {
        guard let store, store.isShared, id.isWellFormed else { return false }
        let result = await withCheckedContinuation {
            (done: CheckedContinuation<Result<StoredSession?, StoreError>, Never>) in
            store.load(id) { done.resume(returning: $0) }
        }
        switch result {
        case .success(nil): return false
        case .success(let stored?):
            shard(for: id).withLock { $0.adopt(stored) }
            return true
        case .failure(let error): throw .storageUnavailable(reason: error.reason)
        }
    }

    /// Follows a change another process made to a shared store's session (see
    /// ``PagerEngine/absorb(_:)``); a change that cannot be followed from the notification
    /// alone loads the session, off the caller's thread.
    public func absorb(_ change: RemoteChange) {
        guard shard(for: change.id).withLock({ $0.absorb(change) }) else { return }
        let id = change.id
        Task { _ = try? await self.load(id) }
    }

    /// After a shared store's notifications were interrupted: every session an event stream
    /// holds is brought up to date (each stream whose session moved on gets `state`), and the
    /// other copies are dropped, a batch per turn on each shard, to be loaded again when asked for.
    public func resynchronize() {
        for shard in shards {
            let watched = shard.withLock { engine in
                engine.expectResynchronization()
                return engine.watchedSessions
            }
            for id in watched { Task { _ = try? await self.load(id) } }
            while shard.withLock({ $0.dropUnwatchedCopies() }) > 0 {}
        }
    }

    /// Evicts every expired session, each shard in turns of at most `PagerEngine.evictionBatch`
    /// sessions (so that no turn holds a shard long); stops between turns when the task is
    /// cancelled. Returns how many were evicted.
    public func evictExpired() async -> Int {
        var total = 0
        for shard in shards {
            while !Task.isCancelled {
                let batch = await shard.evictExpired(limit: PagerEngine.evictionBatch)
                total += batch
                if batch < PagerEngine.evictionBatch { break }
            }
        }
        return total
    }
}
