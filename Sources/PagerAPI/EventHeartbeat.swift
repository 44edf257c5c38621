import HTTPTypes
import Locking
import MicroHTTP

/// The heartbeat of every open event stream: one loop that writes a `: heartbeat` comment to
/// each registered stream every interval, instead of a timer per stream. Proxies keep a stream
/// open when bytes flow through it. The application runs ``run()`` for as long as it serves
/// (pagerd runs it as a service); without it, streams simply get no heartbeats.
///
/// The streams are spread over slices, one beaten per tick (a second, for the default 15 s
/// interval), so that an audience of thousands gets its heartbeats a slice at a time rather than
/// all at once: one burst of 10,000 writes every 15 s took about a fifth of a second of both
/// cores, and slowed the requests that came during it by a quarter (docs/performance.md,
/// «An audience»).
public final class EventHeartbeat: Sendable {
    /// Time between heartbeats of one stream.
    public let interval: Duration
    /// The slices the streams are spread over; one is beaten each `interval / slices`.
    let slices: Int
    private struct Streams {
        var bySlice: [[ObjectIdentifier: HTTPResponseStream]]
        /// The slice the next stream joins: streams join in turn.
        var nextSlice = 0
        var count = 0
    }
    private let streams: Locked<Streams>

    static let comment = Array(": heartbeat\n\n".utf8)

    /// Creates a heartbeat with `interval` between comments, its streams spread over one slice
    /// per second of it (at most 60).
    public init(interval: Duration) {
        self.interval = interval
        let slices = max(1, min(60, Int(interval.components.seconds)))
        self.slices = slices
        streams = Locked(Streams(bySlice: Array(repeating: [:], count: slices)))
    }

    /// Streams receiving heartbeats.
    public var count: Int { streams.withLock { $0.count } }

    /// Adds `stream` until it closes.
    func register(_ stream: HTTPResponseStream) {
        let key = ObjectIdentifier(stream)
        let slice = streams.withLock { streams -> Int in
            let slice = streams.nextSlice
            streams.nextSlice = (slice + 1) % streams.bySlice.count
            streams.bySlice[slice][key] = stream
            streams.count += 1
            return slice
        }
        stream.onClose { [streams] in
            streams.withLock { streams in
                if streams.bySlice[slice].removeValue(forKey: key) != nil { streams.count -= 1 }
            }
        }
    }

    /// Beats one slice each `interval / slices`, until the task is cancelled: every stream gets
    /// a heartbeat every interval.
    public func run() async {
        let tick = interval / slices
        var slice = 0
        while !Task.isCancelled {
            do { try await Task.sleep(for: tick) } catch { return }
            beat(slice: slice)
            slice = (slice + 1) % slices
        }
    }

    /// Writes one heartbeat to every registered stream now.
    public func beat() {
        for slice in 0..<slices { beat(slice: slice) }
    }

    /// Writes one heartbeat to the streams of `slice`.
    func beat(slice: Int) {
        let comment = StreamChunk(Self.comment)  // one for the slice, shared by its streams
        for stream in streams.withLock({ Array($0.bySlice[slice].values) }) { stream.write(comment) }
    }
}
