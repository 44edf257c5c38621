import Locking

/// A change the engine has applied and submitted to the store, whose client waits for the
/// store's answer before it is told anything.
///
/// The store's thread resolves it once; the request that made the change awaits it. Whichever
/// comes second resumes the other, under one lock, so a resolution is never lost.
public final class Commit: Sendable {
    private struct State {
        /// The store's answer (nil: durable), once it came.
        var outcome: StoreError??
        var waiter: CheckedContinuation<StoreError?, Never>?
        /// Those waiting for the answer whatever it is (``settled()``).
        var watchers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    init() {}

    /// Records the store's answer (nil: durable) and resumes the waiter, if one waits.
    func resolve(_ error: StoreError?) {
        let (waiting, watchers) = state.withLock {
            state -> (CheckedContinuation<StoreError?, Never>?, [CheckedContinuation<Void, Never>]) in
            guard state.outcome == nil else { return (nil, []) }
            state.outcome = .some(error)
            defer {
                state.waiter = nil
                state.watchers = []
            }
            return (state.waiter, state.watchers)
        }
        waiting?.resume(returning: error)
        for watcher in watchers { watcher.resume() }
    }

    /// Returns once the store has answered, whatever it answered (any number may wait).
    public func settled() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let answered = state.withLock { state -> Bool in
                if state.outcome != nil { return true }
                state.watchers.append(continuation)
                return false
            }
            if answered { continuation.resume() }
        }
    }

    /// Returns once the change is durable; throws `storageUnavailable` if the store failed it, or
    /// `staleCopy` if another process changed the session first; either way the engine has
    /// already undone it.
    public func durable() async throws(EngineError) {
        let error: StoreError? = await withCheckedContinuation { continuation in
            let known: StoreError?? = state.withLock { state in
                if let outcome = state.outcome { return outcome }
                state.waiter = continuation
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
        guard let error else { return }
        if let limit = error.sessionLimit { throw .atCapacity(limit: limit) }
        if let limit = error.byteLimit { throw .memoryBudgetExceeded(limit: limit) }
        throw error.conflict ? .staleCopy : .storageUnavailable(reason: error.reason)
    }
}

extension Commit: Equatable {
    /// The same change.
    public static func == (lhs: Commit, rhs: Commit) -> Bool { lhs === rhs }
}
