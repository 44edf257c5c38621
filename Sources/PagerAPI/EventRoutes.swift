import MicroHTTP
import PagerModel
import PagerSessions

/// `GET /v1/sessions/{id}/events`: Server-Sent Events. First the current state (unless the
/// client's `Last-Event-ID` is already current), then one event per change with
/// `id: <version>`, `event: <kind>` and the state document on one `data:` line. A comment every
/// heartbeat interval keeps proxies open; a client that leaves is noticed by the server's peer
/// watcher while its stream waits.
struct EventRoutes {
    let engine: PagerEngine
    let heartbeat: Duration
    /// Bytes buffered for a subscriber beyond which no new event is written until it drains.
    static let backlogLimit = 256 * 1024

    func register(in router: inout Router) {
        let engine = self.engine, heartbeat = self.heartbeat
        router.add("GET", "/v1/sessions/{id}/events") { context throws(APIError) in
            let id = context.parameter("id")
            let lastEventID = context.request.headers["Last-Event-ID"] ?? context.request.queryValue("lastEventId")
            let address = context.request.remoteAddress
            let subscription = try call(engine) { engine throws(EngineError) in
                try engine.subscribe(to: id, from: address)
            }
            let snapshot = subscription.snapshot, events = subscription.events, token = subscription.token
            let stream = HTTPResponseStream()
            var first = Array("retry: 2000\n\n".utf8)
            if lastEventID?.trimmingSpaces() != String(snapshot.version) {
                first += Self.event(kind: "state", snapshot: snapshot)
            }
            stream.write(first)
            let pump = Task {
                for await event in events {
                    while stream.bufferedByteCount > Self.backlogLimit, !stream.isClosed {
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                    guard stream.write(Self.event(kind: event.kind.rawValue, snapshot: event.snapshot)) else { break }
                    if event.kind == .deleted { break }
                }
                stream.finish()
            }
            let beat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: heartbeat)
                    if Task.isCancelled || !stream.write(Array(": heartbeat\n\n".utf8)) { break }
                }
            }
            // Runs on the server thread that drops the connection: the subscriber's slot is free
            // before that thread reads the client's next request.
            stream.onClose {
                pump.cancel()
                beat.cancel()
                engine.immediately { engine in engine.unsubscribe(token, from: id) }
            }
            return HTTPResponse(
                status: 200,
                headers: [
                    "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
                    "X-Accel-Buffering": "no", "ETag": ETag.header(for: snapshot.version),
                ],
                stream: stream)
        }
    }

    /// One event: `id`, `event` and the state document as a single `data:` line.
    static func event(kind: String, snapshot: SessionSnapshot) -> [UInt8] {
        var bytes = Array("id: \(snapshot.version)\nevent: \(kind)\ndata: ".utf8)
        bytes += StateDocument.encode(snapshot)
        bytes += [0x0A, 0x0A]
        return bytes
    }
}
