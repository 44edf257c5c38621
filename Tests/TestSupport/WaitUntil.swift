public import Testing

/// Waits until `condition` holds, checking it every 5 ms for up to `timeout`, and returns whether
/// it did. A condition that never holds is recorded as a test issue naming `what`, so a test
/// that waits in vain fails where it waited rather than later, on a value that was never ready.
/// The default is long (a minute): under ThreadSanitizer on two cores, long synchronous tests can
/// hold both threads of Swift's cooperative pool for more than ten seconds, and the task a test
/// waits for (an event stream's writer, say) runs only after them.
@discardableResult
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    if try await poll(timeout: timeout, condition) { return true }
    Issue.record("timed out after \(timeout) waiting until \(what)", sourceLocation: sourceLocation)
    return false
}

/// Checks `condition` every 5 ms until it holds (true) or `timeout` has passed (false), for a
/// caller that reports the timeout its own way; ``waitUntil(_:timeout:sourceLocation:_:)`` is
/// the one that fails the test.
public func poll(timeout: Duration, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
}
