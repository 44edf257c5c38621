import HTTPTypes
import MicroHTTP
import PagerAccess
import PagerModel
import PagerSessions

/// `GET /v1/sessions/{id}/events`: Server-Sent Events. First the current state (unless the
/// client's `Last-Event-ID` is already current), then one event per change with
/// `id: <version>`, `event: <kind>` and the state document on one `data:` line. Heartbeat
/// comments come from the shared ``EventHeartbeat``; a client that leaves is noticed by the
/// server's peer watcher while its stream waits.
///
/// Each stream has one writer task: it takes the session's changes in order, waits (without
/// polling) while more than ``backlogLimit`` bytes are unsent (any, while the server's answers are
/// past their budget), and writes each change's bytes,
/// encoded once for all subscribers of the session. While it waits, the engine keeps only the
/// newest changes for it, so a slow reader skips ahead to the newest state.
///
/// A stream opened with an access token ends when the token stops being accepted (``EventExpiry``).
struct EventRoutes {
    let engines: PagerEngines
    let heartbeat: EventHeartbeat
    let expiry: EventExpiry
    /// Bytes unsent to a subscriber beyond which its writer waits before the next event.
    static let backlogLimit = 256 * 1024
    /// The route's pattern: the one route that reads a token from the query.
    static let pattern = "/v1/sessions/{id}/events"

    func register(in router: inout Router) {
        let engines = self.engines, heartbeat = self.heartbeat, expiry = self.expiry
        router.add(.get, Self.pattern) { context throws(APIError) in
            let id = try context.sessionID()
            let lastEventID = context.request.headers[.lastEventID] ?? context.request.queryValue("lastEventId")
            let address = context.request.peer.networkText
            // The token stops being accepted at its exp plus the leeway: so does the stream.
            let deadline = context.authorization.grant.map { $0.expiresAt + AccessVerifier.leeway }
            return try answer(session: id, in: engines) { engine throws(EngineError) in
                try engine.subscribe(to: id, from: address)
            } then: { subscription in
                let stream = Self.open(
                    subscription, of: id, lastEventID: lastEventID, engines: engines, heartbeat: heartbeat)
                if let deadline, case .stream(let body) = stream.response.body {
                    expiry.register(body, until: deadline, version: stream.version)
                }
                return stream.response
            }
        }
    }

    /// The stream's response: its first bytes written, its writer task started, and the
    /// subscription given back when it closes.
    private static func open(
        _ subscription: Subscription, of id: SessionID, lastEventID: String?, engines: PagerEngines,
        heartbeat: EventHeartbeat
    ) -> (response: Response, version: StreamVersion) {
        let snapshot = subscription.snapshot, token = subscription.token
        let stream = HTTPResponseStream()
        let version = StreamVersion(snapshot.version)
        stream.write(Array("retry: 2000\n\n".utf8))
        if lastEventID?.trimmingASCIISpaces() != String(snapshot.version) {
            // Shared by the streams that begin at this state while one of them still sends it.
            stream.write(
                subscription.firstEncoding.value { StreamChunk(Self.event(kind: "state", snapshot: snapshot)) })
        }
        let writer = Task { await Self.write(subscription.events, to: stream, version: version) }
        heartbeat.register(stream)
        // Runs on the server thread that drops the connection: the subscriber's slot is free
        // before that thread reads the client's next request.
        stream.onClose {
            writer.cancel()
            engines.shard(for: id).withLock { engine in engine.unsubscribe(token, from: id) }
        }
        let response = Response(
            status: 200,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                .xAccelBuffering: "no", .eTag: ETag.header(for: snapshot.version),
            ],
            stream: stream)
        return (response, version)
    }

    /// The writer of one stream: every change in order, with back-pressure, until the session is
    /// deleted, the stream closes or the task is cancelled; then the stream is finished.
    static func write(
        _ events: AsyncStream<SessionEvent>, to stream: HTTPResponseStream, version: StreamVersion? = nil
    ) async {
        for await event in events {
            // Waiting costs a continuation and a cancellation handler: only when the client is
            // behind (with an audience of thousands, every change reaches every writer).
            // Past the server's answer budget, a stream still holding unsent bytes waits until they
            // are all read, then goes on from the changes its queue kept (the newest): a stream
            // behind adds no encoding to a budget already spent.
            if stream.shouldWait(beyond: backlogLimit) { await stream.waitForRoom(atMost: backlogLimit) }
            let chunk = event.encoding.value {
                StreamChunk(
                    Self.event(
                        kind: event.kind.rawValue, snapshot: event.snapshot, move: event.move, settle: event.settle,
                        cause: event.cause.rawValue))
            }
            guard !Task.isCancelled, stream.write(chunk), event.kind != .deleted else { break }
            version?.set(event.snapshot.version)
        }
        stream.finish()
    }

    /// One event: `id`, `event` and the state document (with what a tick reported, and with
    /// `cause` except for the first `state` event) as a single `data:` line.
    static func event(
        kind: String, snapshot: SessionSnapshot, move: MoveReport? = nil, settle: Settle? = nil, cause: String? = nil
    ) -> [UInt8] {
        var bytes = Array("id: \(snapshot.version)\nevent: \(kind)\ndata: ".utf8)
        bytes += StateDocument.encode(snapshot, move: move, settle: settle, cause: cause)
        bytes += [0x0A, 0x0A]
        return bytes
    }
}
