import Foundation
import OpenAPIRuntime

/// The kinds of event a session's stream sends (docs/api.md, «Events»).
public typealias EventKind = Components.Schemas.EventKind

/// Why a change happened: a request, an auto-advance tick, idle eviction (for `deleted`), or a
/// swipe nobody touched for `dragTimeout`, given up.
public typealias EventCause = Components.Schemas.Event.CausePayload

/// One event of a session's stream: what changed, and the state after the change.
public struct PagerEvent: Sendable, Hashable {
    /// What happened: `state` first, then one kind per change.
    public var kind: EventKind
    /// The state document after the change (its `version` is the event's id).
    public var state: PagerState
    /// Why: `.request`, `.autoAdvance`, `.idle`, `.timeout`; nil for a `state` event (and for a
    /// cause a newer server added).
    public var cause: EventCause?
}

extension PagerClient {
    /// The session's events, from the version after `version` on: an `AsyncSequence` that
    /// reconnects by itself.
    ///
    /// - With `version` nil the stream starts with a `state` event holding the current state.
    ///   With a version it sends what came after it: nothing more when it is the current
    ///   version, else the current state first.
    /// - A lost connection, the end of a stream, or a refusal of 500 or more (a restart, a server
    ///   shutting down) is followed by a new connection with `Last-Event-ID` naming the last
    ///   version seen, so no change is missed; the attempts wait 0.25 s, doubling to 15 s, less
    ///   up to half at random, and start again from 0.25 s once a connection brings something
    ///   (a connection that ends at once counts as a failure). A problem's `Retry-After` is a
    ///   floor for the wait (plus up to a quarter at random), up to a minute.
    /// - A refusal that waiting will not change (any status from 400 to 499 but 408 and 429:
    ///   401, 403, 404, 410…) ends the sequence with that ``PagerClientError``, and so does a
    ///   stream sending what is not an event of the contract. A `deleted` event is the last: the
    ///   sequence ends after it.
    /// - Cancelling the task that iterates ends the sequence (and its connection) at once; so
    ///   does dropping the iterator.
    /// - A stream opened with an access token ends with `expired` when the token does: the
    ///   sequence connects again at once, from the last version seen, without a gap, with a token
    ///   from the client's `refreshToken` when it has one, else with the token set by then
    ///   (``PagerClient/setToken(_:)``). A new connection refused 401 asks `refreshToken` too,
    ///   unless it already answered since the last connection opened. A `refreshToken` that got
    ///   no answer (it threw ``PagerClientError/transport(detail:)`` or a `URLError` of
    ///   connectivity, such as `.notConnectedToInternet`) is asked again after the backoff. If the server refuses the token (`401 unauthorized`) or
    ///   `refreshToken` throws anything else, the sequence ends: with what it threw when that is
    ///   a ``PagerClientError``, else with `.problem` (401, `unauthorized`) describing it; and
    ///   `events(after: state.version)` with a new token resumes it. A task cancelled while
    ///   `refreshToken` runs ends the sequence when the closure returns.
    ///
    /// The client's ``state`` follows the events. The stream carries the bearer token in the
    /// `Authorization` header like every request.
    public func events(after version: Int? = nil) throws(PagerClientError) -> PagerEvents {
        PagerEvents(client: self, sessionID: try requireSession(), after: version)
    }

    /// Keeps an event's state when it is the newest seen.
    func observe(_ event: PagerEvent) {
        adopt(event.state)
    }
}

/// A session's event stream, reconnecting (``PagerClient/events(after:)``). It throws only
/// ``PagerClientError``.
public struct PagerEvents: AsyncSequence, Sendable {
    /// Each element is one event.
    public typealias Element = PagerEvent

    let client: PagerClient
    let sessionID: String
    let after: Int?

    /// Starts reading; the first connection is made by the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, sessionID: sessionID, lastVersion: after)
    }

    /// Reads events, reconnecting when a connection ends.
    public struct Iterator: AsyncIteratorProtocol {
        typealias Events = ServerSentEventsDeserializationSequence<
            ServerSentEventsLineDeserializationSequence<HTTPBody>
        >

        let client: PagerClient
        let sessionID: String
        /// The last version seen, sent as `Last-Event-ID` on each new connection.
        var lastVersion: Int?
        /// The open connection's events, or nil between connections.
        var connection: Events.AsyncIterator?
        /// Connections that failed or ended without an event, in a row (for the backoff).
        var failures = 0
        /// Whether a connection refused 401 was answered with a new token (`refreshToken`) since
        /// a connection last opened: a second refusal ends the sequence.
        var renewed = false
        var finished = false

        init(client: PagerClient, sessionID: String, lastVersion: Int?) {
            self.client = client
            self.sessionID = sessionID
            self.lastVersion = lastVersion
        }

        /// The next event; nil once the session was deleted or the task cancelled.
        public mutating func next() async throws -> PagerEvent? {
            while !finished {
                if Task.isCancelled { return finish() }
                if connection == nil {
                    do {
                        connection = try await connect()
                        renewed = false
                    } catch {
                        if case .cancelled = error { return finish() }
                        if error.status == 401, client.refreshToken != nil, !renewed {
                            // The token expired while the stream was down: once, a new one.
                            renewed = true
                            guard try await renewToken() else { return finish() }
                            continue
                        }
                        if Self.isFinal(error) {
                            finished = true
                            throw error
                        }
                        guard await waitBeforeRetry(atLeast: error.retryAfter) else { return finish() }
                        continue
                    }
                }
                let received: ServerSentEvent?
                do {
                    received = try await connection?.next()
                } catch {
                    connection = nil  // the connection was lost: connect again
                    if Task.isCancelled { return finish() }
                    guard await waitBeforeRetry() else { return finish() }
                    continue
                }
                guard let received else {
                    // The server ended the stream (a restart, a proxy's timeout): connect again,
                    // after the backoff, so that a server that keeps ending streams at once is
                    // not asked again and again.
                    connection = nil
                    guard await waitBeforeRetry() else { return finish() }
                    continue
                }
                failures = 0  // something came on this connection: the next wait starts short again
                if received.event == EventKind.expired.rawValue {
                    // The stream's token expired: connect again with a new one from refreshToken,
                    // or else with the token set by then.
                    connection = nil
                    if client.refreshToken != nil {
                        // A refusal of this new token ends the sequence: it is not asked again.
                        renewed = true
                        guard try await renewToken() else { return finish() }
                    }
                    continue
                }
                guard let event = try decode(received) else { continue }
                // Never back: a later connection resumes from the newest version seen.
                lastVersion = Swift.max(lastVersion ?? 0, event.state.version)
                if event.kind == .deleted { finished = true }
                await client.observe(event)
                return event
            }
            return nil
        }

        private mutating func finish() -> PagerEvent? {
            finished = true
            connection = nil
            return nil
        }

        /// Opens one stream; throws its refusal.
        private func connect() async throws(PagerClientError) -> Events.AsyncIterator {
            let id = sessionID
            let last = lastVersion.map(String.init)
            let body = try await client.call {
                try await client.api.streamEvents(path: .init(id: id), headers: .init(lastEventID: last)).ok.body
                    .textEventStream
            }
            return body.asDecodedServerSentEvents().makeAsyncIterator()
        }

        /// The event an SSE event carries; nil for a kind this client does not know (a newer
        /// server's), which it skips.
        private mutating func decode(_ received: ServerSentEvent) throws(PagerClientError) -> PagerEvent? {
            guard let name = received.event, let kind = EventKind(rawValue: name) else { return nil }
            guard let data = received.data?.data(using: .utf8) else {
                finished = true
                throw .unexpectedResponse(status: 200, detail: "a \(name) event without data")
            }
            do {
                let state = try JSONDecoder().decode(PagerState.self, from: data)
                // A cause this client does not know (a newer server's) reads as nil.
                let cause = try JSONDecoder().decode(CauseOnly.self, from: data).cause.flatMap(EventCause.init)
                return PagerEvent(kind: kind, state: state, cause: cause)
            } catch {
                finished = true
                connection = nil
                throw .unexpectedResponse(status: 200, detail: "a \(name) event that is not a state: \(error)")
            }
        }

        /// Asks `refreshToken` for a new token and makes it the client's; false when the task was
        /// cancelled meanwhile. When it got no answer (it threw a ``PagerClientError/transport(detail:)``
        /// or a `URLError` of connectivity: the device offline a moment), it is asked again after
        /// the backoff.
        /// Otherwise what it threw ends the sequence: a ``PagerClientError`` as it is, any other
        /// error as `.problem` (401, `unauthorized`) with the error in its detail.
        private mutating func renewToken() async throws(PagerClientError) -> Bool {
            guard let refresh = client.refreshToken else { return true }
            while true {
                do {
                    client.setToken(try await refresh())
                    return !Task.isCancelled
                } catch {
                    if Task.isCancelled { return false }
                    if Self.gotNoAnswer(error) {
                        guard await waitBeforeRetry() else { return false }
                        continue
                    }
                    finished = true
                    if let failure = error as? PagerClientError { throw failure }
                    throw .problem(
                        PagerProblem(
                            status: 401, code: ProblemCode.unauthorized.rawValue,
                            detail: "The event stream's token expired and refreshToken gave no new one: \(error)"))
                }
            }
        }

        /// Whether `error` says a request got no answer (worth asking again): the client's
        /// transport error, or a `URLError` of connectivity.
        static func gotNoAnswer(_ error: any Error) -> Bool {
            if case .transport = error as? PagerClientError { return true }
            guard let error = error as? URLError else { return false }
            let connectivity: Set<URLError.Code> = [
                .notConnectedToInternet, .networkConnectionLost, .timedOut, .cannotConnectToHost, .cannotFindHost,
                .dnsLookupFailed, .dataNotAllowed, .internationalRoamingOff, .callIsActive,
            ]
            return connectivity.contains(error.code)
        }

        /// Waits before the next connection, at least `retryAfter` seconds (a refusal's
        /// `Retry-After`, taken up to a minute) when given; false when the task was cancelled
        /// meanwhile.
        private mutating func waitBeforeRetry(atLeast retryAfter: Int? = nil) async -> Bool {
            let delay = Self.wait(failures: failures, retryAfter: retryAfter, jitter: Double.random(in: 0...1))
            failures += 1
            do {
                try await Task.sleep(for: delay)
                return true
            } catch {
                return false
            }
        }

        /// The wait before connection attempt `failures + 1`, `jitter` being drawn from 0 to 1 so
        /// that clients a restart dropped together do not return together: 0.25 s doubling up
        /// to 15 s, less up to half; where a refusal's `Retry-After` asks for longer, that plus
        /// up to a quarter; never more than a minute.
        static func wait(failures: Int, retryAfter: Int?, jitter: Double) -> Duration {
            let backoff = Swift.min(15, 0.25 * Double(1 << Swift.min(failures, 6))) * (1 - jitter / 2)
            let floor = Double(Swift.min(retryAfter ?? 0, 60)) * (1 + jitter / 4)
            return .milliseconds(Int((Swift.min(60, Swift.max(backoff, floor)) * 1000).rounded()))
        }

        /// Whether a failed connection ends the sequence rather than being tried again.
        static func isFinal(_ error: PagerClientError) -> Bool {
            switch error {
            case .problem, .unexpectedResponse:
                guard let status = error.status else { return false }
                return (400..<500).contains(status) && status != 408 && status != 429
            case .noSession: return true
            case .transport, .cancelled, .predictionUnavailable: return false
            }
        }
    }
}

/// The `cause` member of an event's data.
private struct CauseOnly: Decodable {
    var cause: String?
}
