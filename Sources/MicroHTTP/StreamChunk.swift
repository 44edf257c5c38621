import Synchronization

/// Bytes queued on one or more ``HTTPResponseStream``s, shared rather than copied: an event
/// encoded once is held by every stream that sends it, and counted once toward the server's
/// answer budget for as long as any stream still holds some of it unsent.
///
/// A chunk is meant for the streams of one server: its count goes to the server of the stream
/// that first holds it.
public final class StreamChunk: Sendable {
    /// The bytes.
    public let bytes: [UInt8]
    /// Streams holding the chunk unsent.
    private let holders = Atomic<Int>(0)

    /// No bytes: what a sent chunk's place in a stream's queue holds until the queue is trimmed.
    static let empty = StreamChunk([])

    /// Wraps `bytes`; the array's storage is shared, not copied.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The number of bytes.
    public var count: Int { bytes.count }

    /// Counts one more stream holding the chunk; the first counts its bytes in `account`'s
    /// server-wide total, and every one in its client network's.
    func hold(in account: StreamAccount) {
        guard !bytes.isEmpty else { return }
        if holders.add(1, ordering: .relaxed).oldValue == 0 {
            account.statistics.answers.add(bytes.count, ordering: .relaxed)
        }
        account.countForNetwork(bytes.count)
    }

    /// Counts one stream fewer; the last takes the bytes off the server-wide total.
    func release(in account: StreamAccount) {
        guard !bytes.isEmpty else { return }
        if holders.subtract(1, ordering: .relaxed).newValue == 0 {
            account.statistics.answers.subtract(bytes.count, ordering: .relaxed)
        }
        account.countForNetwork(-bytes.count)
    }
}

/// Where one stream's unsent chunks are counted: the server's answer total, and, when the server
/// holds client networks to a share of the budget, the stream's network's. A network counts the
/// large chunks (``HTTPServer/largeAnswerBytes`` or more) of each of its streams, as it counts
/// its large answers; smaller ones only toward the total.
struct StreamAccount: Sendable {
    let statistics: HTTPServerStatistics
    let network: PeerAddress
    /// What each network holds; nil when networks are not counted.
    let networks: NetworkAnswers?

    func countForNetwork(_ bytes: Int) {
        guard let networks, abs(bytes) >= HTTPServer.largeAnswerBytes else { return }
        networks.add(bytes, for: network)
    }
}
