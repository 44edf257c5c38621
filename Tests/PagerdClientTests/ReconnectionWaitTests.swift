import Testing

@testable import PagerdClient

/// The wait before an event stream connects again, for every draw of the jitter at its ends.
@Suite struct ReconnectionWaitTests {
    typealias Iterator = PagerEvents.Iterator

    @Test func theBackoffDoublesTo15SecondsLessUpToHalf() {
        let longest = (0..<9).map { Iterator.wait(failures: $0, retryAfter: nil, jitter: 0) }
        #expect(longest == [250, 500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000].map { .milliseconds($0) })
        let shortest = (0..<9).map { Iterator.wait(failures: $0, retryAfter: nil, jitter: 1) }
        #expect(shortest == [125, 250, 500, 1000, 2000, 4000, 7500, 7500, 7500].map { .milliseconds($0) })
    }

    @Test func retryAfterIsAFloorWithUpToAQuarterMoreAndAMinuteAtMost() {
        #expect(Iterator.wait(failures: 0, retryAfter: 5, jitter: 0) == .seconds(5))
        #expect(Iterator.wait(failures: 0, retryAfter: 5, jitter: 1) == .milliseconds(6250))
        // A backoff already longer than the floor stays.
        #expect(Iterator.wait(failures: 6, retryAfter: 5, jitter: 0) == .seconds(15))
        #expect(Iterator.wait(failures: 0, retryAfter: 0, jitter: 0) == .milliseconds(250))
        // Asked for an hour: a minute, whatever the jitter.
        #expect(Iterator.wait(failures: 0, retryAfter: 3600, jitter: 0) == .seconds(60))
        #expect(Iterator.wait(failures: 0, retryAfter: 3600, jitter: 1) == .seconds(60))
        #expect(Iterator.wait(failures: 0, retryAfter: 50, jitter: 1) == .seconds(60))
    }
}
