import Locking
import Synchronization

/// Bytes queued on one or more ``HTTPResponseStream``s, shared rather than copied: an event
/// encoded once is held by every stream that sends it, and counted once toward the answer budget
/// of the server whose streams hold it, for as long as any of them still holds some of it unsent.
/// That server is the one of the first stream that holds it; should streams of another server
/// hold it too, each of those counts it on its own.
public final class StreamChunk: Sendable {
    /// The bytes.
    public let bytes: [UInt8]
    /// The server the chunk is counted for (set once, so that every stream's release takes the
    /// same branch as its hold), and how many of its streams hold it unsent.
    private let holding = Locked<(owner: HTTPServerStatistics?, holders: Int)>((nil, 0))

    /// No bytes: what a sent chunk's place in a stream's queue holds until the queue is trimmed.
    static let empty = StreamChunk([])

    /// Wraps `bytes`; the array's storage is shared, not copied.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The number of bytes.
    public var count: Int { bytes.count }

    /// Counts one more stream holding the chunk: the first of a server counts its bytes in that
    /// server's total; every stream counts them in its client network's.
    func hold(in account: StreamAccount) {
        let statistics = account.statistics
        let counts = holding.withLock { holding -> Bool in
            if holding.owner == nil { holding.owner = statistics }
            guard holding.owner === statistics else { return true }
            holding.holders += 1
            return holding.holders == 1
        }
        if counts { statistics.answers.add(bytes.count, ordering: .relaxed) }
        account.countForNetwork(bytes.count)
    }

    /// Counts one stream fewer; the server's last takes the bytes off its total.
    func release(in account: StreamAccount) {
        let statistics = account.statistics
        let counts = holding.withLock { holding -> Bool in
            guard holding.owner === statistics else { return true }
            holding.holders -= 1
            return holding.holders == 0
        }
        if counts { statistics.answers.subtract(bytes.count, ordering: .relaxed) }
        account.countForNetwork(-bytes.count)
    }
}

/// Where one stream's unsent chunks are counted: the server's answer total, and, when the server
/// holds client networks to a share of the budget, the stream's network's. A network counts the
/// large chunks (``HTTPServer/largeAnswerBytes`` or more) of each of its streams, as it counts
/// its large answers; smaller ones only toward the total.
struct StreamAccount: Sendable {
    let statistics: HTTPServerStatistics
    /// The server's `answerBudgetBytes`.
    let budget: Int
    let network: PeerAddress
    /// What each network holds; nil when networks are not counted.
    let networks: NetworkAnswers?

    func countForNetwork(_ bytes: Int) {
        guard let networks, abs(bytes) >= HTTPServer.largeAnswerBytes else { return }
        networks.add(bytes, for: network)
    }
}
