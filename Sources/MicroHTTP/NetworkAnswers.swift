import HTTPTypes
import Locking
import Synchronization

/// Bytes of large answers not yet sent, by client network (``PeerAddress/network``), so that one
/// client network cannot take the whole answer budget: each large answer of the network's
/// clients, and each large chunk each of its event streams holds unsent (a chunk two of its
/// streams hold counts twice here, once in the server's total).
final class NetworkAnswers: Sendable {
    private let held = Locked([PeerAddress: Int]())
    /// The sum over every network: while it is under a share, no network holds a share and the
    /// map need not be looked at.
    private let total = Atomic<Int>(0)

    /// What `network` holds, or 0 without a lookup when no network can hold `share`.
    func held(by network: PeerAddress, atLeast share: Int) -> Int {
        guard total.load(ordering: .relaxed) >= share else { return 0 }
        return held.withLock { $0[network, default: 0] }
    }

    /// Counts `bytes` for `network` (negative to take them off), unless `share` is given, the
    /// network already holds some and they would take it past `share`; the check and the count
    /// are one step, so answers counted at the same instant on several threads cannot all pass
    /// it. Returns whether they were counted.
    @discardableResult
    func add(_ bytes: Int, for network: PeerAddress, within share: Int? = nil) -> Bool {
        let counted = held.withLock { held in
            let before = held[network, default: 0]
            if let share, before > 0, before + bytes > share { return false }
            let after = before + bytes
            held[network] = after > 0 ? after : nil
            return true
        }
        if counted { total.add(bytes, ordering: .relaxed) }
        return counted
    }
}

extension HTTPServer {
    /// What one client network's large answers may hold: a quarter of `answerBudgetBytes`; nil
    /// when every client shares one address behind a proxy (`perIPConnectionLimit` 0), where
    /// answers are not counted by network at all.
    var networkShare: Int? {
        configuration.perIPConnectionLimit > 0 ? configuration.answerBudgetBytes / 4 : nil
    }

    /// The size from which an answer counts toward its client network's share of the answer
    /// budget. Smaller ones are left out, which keeps the lock off most answers: a connection
    /// holds one unsent answer at a time, so `perIPConnectionLimit` (64) of them stay within 4 MiB.
    static let largeAnswerBytes = 64 << 10

    /// `response`, or the share's refusal in its place for a large answer to a read (GET, HEAD)
    /// that would take its client network past its share while the network already holds
    /// answers: requests admitted together (one per server thread) would otherwise each add an
    /// answer past the share. A read changed nothing, so its answer can be dropped; an answer to
    /// a change is always sent. A network holding nothing gets its answer, however large.
    /// A large answer is counted for its network here (until the request completes); small ones
    /// are not.
    func withinNetworkShare(_ response: Response, context: RequestContext) -> Response {
        guard let share = networkShare, case .bytes(let bytes) = response.body, bytes.count >= Self.largeAnswerBytes
        else { return response }
        let droppable = context.method == .get || context.method == .head
        let counted = answersByNetwork.add(bytes.count, for: context.peer.network, within: droppable ? share : nil)
        guard counted else { return responder.response(for: .addressAnswerShareExceeded(limit: share)) }
        context.networkAnswerBytes += bytes.count
        return response
    }
}
