import HTTPTypes
import MicroHTTP
import PagerModel
import PagerSessions

/// Runs one call on the shard that holds session `id`, on the calling thread (see
/// `PagerEngine.immediately`), turning its refusal into the API's.
func call<T: Sendable>(
    _ engines: PagerEngines, session id: SessionID,
    _ operation: @Sendable (isolated PagerEngine) throws(EngineError) -> T
) throws(APIError) -> T {
    do {
        return try engines.shard(for: id).immediately(operation)
    } catch {
        throw APIError(engineError: error)
    }
}

/// Waits, off every lock, until the store has made a change durable (nothing to wait for
/// without a store); a change the store failed was undone, and the client gets 503.
func durable(_ commit: Commit?) async throws(APIError) {
    guard let commit else { return }
    do { try await commit.durable() } catch { throw APIError(engineError: error) }
}

/// 200 (or `status`) with the state document and its ETag.
func stateResponse(
    _ snapshot: SessionSnapshot, outcome: PagerOutcome? = nil, status: HTTPResponse.Status = .ok
) -> Response {
    jsonBytesResponse(StateDocument.encode(snapshot, outcome: outcome), version: snapshot.version, status: status)
}

/// A JSON response for a session resource at `version`.
func jsonBytesResponse(_ bytes: [UInt8], version: Int, status: HTTPResponse.Status = .ok) -> Response {
    Response(
        status: status,
        headers: [
            .contentType: "application/json; charset=utf-8", .eTag: ETag.header(for: version),
            .cacheControl: "no-store",
        ],
        body: bytes)
}
