import Locking
public import PagerModel
public import PagerSessions
import Testing

/// A store for engine tests: it keeps every change submitted until the test answers it, or
/// refuses submissions while told to.
public final class HandStore: SessionStore, Sendable {
    private struct State {
        var waiting: [(change: SessionChange, completion: (@Sendable (StoreError?) -> Void)?)] = []
        var refusal: StoreError?
        /// Rows other processes wrote (``hold(_:)``), for loads.
        var rows: [SessionID: StoredSession] = [:]
    }

    private let state = Locked(State())
    /// Whether it plays a store other processes share (``SessionStore/isShared``).
    public let isShared: Bool

    /// A store that keeps what is submitted until a test answers it; `shared` makes it play a
    /// shared one (loads find what ``hold(_:)`` put there, nothing else).
    public init(shared: Bool = false) { isShared = shared }

    /// The changes waiting for an answer, oldest first.
    public var submitted: [SessionChange] { state.withLock { $0.waiting.map(\.change) } }

    public func recover() throws(StoreError) -> [StoredSession] { [] }

    public var statistics: StoreStatistics { StoreStatistics() }

    public func submit(
        _ change: SessionChange, announcing _: ChangeAnnouncement?, completion: (@Sendable (StoreError?) -> Void)?
    ) throws(StoreError) {
        try state.withLock { (state) throws(StoreError) in
            if let refusal = state.refusal { throw refusal }
            state.waiting.append((change, completion))
        }
    }

    /// Holds `stored` as another process wrote it: loads of its id find it from now on.
    public func hold(_ stored: StoredSession) { state.withLock { $0.rows[stored.id] = stored } }

    public func load(_ id: SessionID, completion: @escaping @Sendable (Result<StoredSession?, StoreError>) -> Void) {
        completion(.success(state.withLock { $0.rows[id] }))
    }

    /// Refuses submissions from now on (nil accepts them again).
    public func refuse(_ error: StoreError?) { state.withLock { $0.refusal = error } }

    public var isAcceptingChanges: Bool { state.withLock { $0.refusal == nil } }

    /// Answers every waiting submission, oldest first, with `error` (nil: durable).
    public func answerAll(_ error: StoreError? = nil) {
        let answered = state.withLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for entry in answered { entry.completion?(error) }
    }
    /// Three pages, a, b and c.
    public static let threePages = PagerDefinition(
        pages: [Page(id: "a", title: "A"), Page(id: "b", title: "B"), Page(id: "c", title: "C")],
        initialPage: nil, settings: PagerSettings(), catalog: [])

    /// A session whose creation the store has committed.
    public static func created(_ engines: PagerEngines, _ store: HandStore) async throws -> SessionID {
        let created = try engines.create(threePages)
        #expect(created.commit != nil)
        store.answerAll()
        try await created.commit?.durable()
        return created.id
    }
}
