import Dispatch
import Foundation

/// Wakes the engines that share it when the earliest of their auto-advance timers is due: one
/// one-shot dispatch timer for all the shards of a server, set again only when an earlier time is
/// asked for or after it fires, so the server costs one wake-up per due time however many shards
/// and sessions it has. Its handler runs on a global dispatch queue and enters each engine like
/// any other caller (``PagerEngine/immediately(_:)``), one after the other; each engine fires what
/// is due and asks for its next time.
final class TimerWake: @unchecked Sendable {
    // @unchecked: `armedFor` and `engines` are guarded by `lock`; a dispatch source may be set
    // from any thread.
    private let lock = NSLock()
    private let source: any DispatchSourceTimer
    /// The time (wall-clock ms) the source is set for; nil when it is not set.
    private var armedFor: Int64?
    private var engines: [WeakEngine] = []

    private struct WeakEngine {
        weak var engine: PagerEngine?
    }

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
        lock.withLock { engines.append(WeakEngine(engine: engine)) }
    }

    /// Asks for a wake-up at `time`, `delay` milliseconds from now; nothing changes when one is
    /// set for that time or earlier.
    func wake(at time: Int64, delay: Int64) {
        lock.withLock {
            guard armedFor.map({ time < $0 }) ?? true else { return }
            armedFor = time
            source.schedule(
                deadline: .now() + .milliseconds(Int(max(0, delay))), repeating: .never,
                leeway: .milliseconds(Self.leewayMilliseconds))
        }
    }

    private func fire() {
        let engines = lock.withLock {
            armedFor = nil
            return self.engines.compactMap(\.engine)
        }
        for engine in engines { engine.immediately { engine in _ = engine.fireDueTimers() } }
    }

    deinit { source.cancel() }
}
