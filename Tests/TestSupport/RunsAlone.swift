public import Testing

/// A trait for tests that must not overlap one another: those that load the whole machine
/// (hundreds of client threads, thousands of sessions) and those that hold a server to a
/// wall-clock deadline (a grace period, a read timeout, an exit within seconds).
///
/// Swift Testing runs every test in parallel, and on two cores one load test can starve a
/// process for longer than any such deadline: under ThreadSanitizer, with hundreds of client
/// threads contending, a server's answers were seen to wait 10–25 s. Tests with this trait take
/// turns, in the order they ask, each holding its turn for all of its cases (which may still run
/// beside one another); tests without it still run beside them. On a suite it applies to every
/// test in the suite. A test that has it twice (its own and its suite's) takes one turn.
public struct RunsAloneTrait: TestTrait, SuiteTrait, TestScoping {
    /// Set while the current task's test holds the turn, so that a second copy of the trait on
    /// the same test runs it instead of waiting for the turn it holds.
    @TaskLocal private static var holdsTurn = false

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // Once per test function, around all of its cases; a suite itself takes no turn.
        test.isSuite || testCase != nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !Self.holdsTurn else { return try await function() }
        await Turns.shared.take()
        do {
            try await Self.$holdsTurn.withValue(true) { try await function() }
        } catch {
            await Turns.shared.pass()
            throw error
        }
        await Turns.shared.pass()
    }
}

extension Trait where Self == RunsAloneTrait {
    /// Runs the test while no other test with this trait runs.
    public static var runsAlone: Self { RunsAloneTrait() }
}

/// One turn at a time, handed to waiters first come, first served.
private actor Turns {
    static let shared = Turns()

    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func take() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the first waiter, which then holds it, or frees it.
    func pass() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
