import Locking
import Synchronization

/// The counts that limits apply to across every shard of a ``PagerEngines``: live sessions,
/// session data bytes, the read cache's bytes, event subscribers, and subscribers by client
/// address. A shard reserves before it stores and releases when it forgets, so a limit holds for
/// the whole server, not per shard. Every operation is O(1): an atomic compare-and-swap, or one
/// dictionary entry under a lock of its own that nothing else is taken under.
public final class EngineAccounts: Sendable {
    let sessions = Atomic<Int>(0)
    let storedBytes = Atomic<Int>(0)
    let readCacheBytes = Atomic<Int>(0)
    let subscribers = Atomic<Int>(0)
    private let byAddress = Locked<[String: Int]>([:])

    /// Creates empty accounts.
    public init() {}

    /// Live sessions in all shards.
    public var sessionCount: Int { sessions.load(ordering: .relaxed) }
    /// Session data held by all shards, as budgets count it.
    public var storedByteCount: Int { storedBytes.load(ordering: .relaxed) }
    /// Bytes of state documents kept for reads in all shards (``PagerEngine/read(_:unlessVersionIn:)``).
    public var readCacheByteCount: Int { readCacheBytes.load(ordering: .relaxed) }
    /// Event subscribers in all shards.
    public var subscriberCount: Int { subscribers.load(ordering: .relaxed) }

    /// Adds `amount` to `counter` unless the result would exceed `limit`; a decrease (a shrinking
    /// session) always succeeds.
    static func reserve(_ counter: borrowing Atomic<Int>, _ amount: Int, limit: Int) -> Bool {
        var current = counter.load(ordering: .relaxed)
        while true {
            if amount > 0, current + amount > limit { return false }
            let (exchanged, original) = counter.compareExchange(
                expected: current, desired: current + amount, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Takes `amount` back from `counter`.
    static func release(_ counter: borrowing Atomic<Int>, _ amount: Int) {
        counter.subtract(amount, ordering: .relaxed)
    }

    /// Counts a session taken back from a store, with its `bytes`, whatever the limits say: a
    /// session kept durably is never dropped at a restart for want of room.
    func admit(bytes: Int) {
        sessions.add(1, ordering: .relaxed)
        storedBytes.add(bytes, ordering: .relaxed)
    }

    /// Counts one more subscriber from `address` unless it already has `limit`.
    func reserveAddress(_ address: String, limit: Int) -> Bool {
        byAddress.withLock { byAddress in
            let count = byAddress[address, default: 0]
            guard count < limit else { return false }
            byAddress[address] = count + 1
            return true
        }
    }

    /// Counts one subscriber from `address` fewer.
    func releaseAddress(_ address: String) {
        byAddress.withLock { byAddress in
            let left = byAddress[address, default: 1] - 1
            byAddress[address] = left > 0 ? left : nil
        }
    }
}
