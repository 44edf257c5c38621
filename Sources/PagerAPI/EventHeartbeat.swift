import HTTPTypes
import Locking
import MicroHTTP

/// The heartbeat of every open event stream: one loop that writes a `: heartbeat` comment to
/// each registered stream every interval, instead of a timer per stream. Proxies keep a stream
/// open when bytes flow through it. The application runs ``run()`` for as long as it serves
/// (pagerd runs it as a service); without it, streams simply get no heartbeats.
public final class EventHeartbeat: Sendable {
    /// Time between heartbeats.
    public let interval: Duration
    private let streams = Locked<[ObjectIdentifier: HTTPResponseStream]>([:])

    static let comment = Array(": heartbeat\n\n".utf8)

    /// Creates a heartbeat with `interval` between comments.
    public init(interval: Duration) {
        self.interval = interval
    }

    /// Streams receiving heartbeats.
    public var count: Int { streams.withLock { $0.count } }

    /// Adds `stream` until it closes.
    func register(_ stream: HTTPResponseStream) {
        let key = ObjectIdentifier(stream)
        streams.withLock { $0[key] = stream }
        stream.onClose { [streams] in streams.withLock { _ = $0.removeValue(forKey: key) } }
    }

    /// Writes a heartbeat to every registered stream each interval, until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            beat()
        }
    }

    /// Writes one heartbeat to every registered stream now.
    public func beat() {
        for stream in streams.withLock({ Array($0.values) }) { stream.write(Self.comment) }
    }
}
