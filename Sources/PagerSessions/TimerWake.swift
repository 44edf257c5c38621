import Dispatch
import Locking

/// Wakes the engines that share it when the earliest of their auto-advance timers is due: one
/// one-shot dispatch timer for all the shards of a server, set again only when an earlier time is
/// asked for or after it fires, so the server costs one wake-up per due time however many shards
/// and sessions it has. Its handler runs on a global dispatch queue and enters each engine like
/// any other caller (``PagerEngine/withLock(_:)``), one after the other, a batch of ticks per
/// turn (``PagerEngine/tickBatch``), so requests interleave with a large backlog; each engine
/// fires what is due and asks for its next time.
final class TimerWake: @unchecked Sendable {
    // @unchecked: a dispatch source may be used from any thread; it is set under `state`'s lock.
    private struct State {
        /// The time (wall-clock ms) the source is set for; nil when it is not set.
        var armedFor: Int64?
        var engines: [WeakEngine] = []
    }

    private struct WeakEngine {
        weak var engine: PagerEngine?
    }

    private let state = Locked(State())
    private let source: any DispatchSourceTimer

    /// How late a wake-up may come, so that the system can coalesce them.
    static let leewayMilliseconds = 2

    init() {
        source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler { [weak self] in self?.fire() }
        source.schedule(deadline: .distantFuture)
        source.activate()
    }

    /// Adds an engine to wake; held weakly.
    func register(_ engine: PagerEngine) {
        state.withLock { $0.engines.append(WeakEngine(engine: engine)) }
    }

    /// Asks for a wake-up at `time`, `delay` milliseconds from now; nothing changes when one is
    /// set for that time or earlier.
    func wake(at time: Int64, delay: Int64) {
        state.withLock { state in
            guard state.armedFor.map({ time < $0 }) ?? true else { return }
            state.armedFor = time
            source.schedule(
                deadline: .now() + .milliseconds(Int(max(0, delay))), repeating: .never,
                leeway: .milliseconds(Self.leewayMilliseconds))
        }
    }

    private func fire() {
        let engines = state.withLock { state in
            state.armedFor = nil
            return state.engines.compactMap(\.engine)
        }
        for engine in engines {
            // A full batch may leave more due: the engine is entered again, after others had a turn.
            while engine.withLock({ engine in engine.fireDueTimers() }) == PagerEngine.tickBatch {}
        }
    }

    deinit { source.cancel() }
}
