import HTTPTypes
import MicroHTTP
import PagerModel
import PagerSessions

/// The answer to a route that runs `operation` on session `id`'s shard and answers with
/// `respond`: now, on the server thread, when the shard holds the session (without a shared
/// store, a session the shard does not hold does not exist); later, after loading the session
/// from a shared store, when another instance made it or this one let its copy go, or when the
/// copy held fails the request's `If-Match` (another instance's change may not have reached it).
func answer<T: Sendable>(
    session id: SessionID, in engines: PagerEngines,
    _ operation: @escaping @Sendable (isolated PagerEngine) throws(EngineError) -> T,
    then respond: @escaping @Sendable (T) -> Response
) throws(APIError) -> RouteAnswer {
    do {
        return .now(respond(try engines.shard(for: id).withLock(operation)))
    } catch let error where engines.store?.isShared == true && error.mayBeStale {
        return .later { () throws(APIError) -> Response in
            do throws(EngineError) { return respond(try await loadingFirst(id, in: engines, operation)) } catch {
                throw APIError(engineError: error)
            }
        }
    } catch {
        throw APIError(engineError: error)
    }
}

extension EngineError {
    /// Whether a shared store's newer copy of the session may answer otherwise: one this
    /// instance does not hold, or a version the client knows and the copy held does not.
    fileprivate var mayBeStale: Bool {
        switch self {
        case .sessionNotFound, .versionMismatch: true
        default: false
        }
    }
}

/// Runs `operation` on the shard of session `id`. With a shared store, a session the shard does
/// not hold is loaded from the store first, and `operation` runs again; so is one whose version
/// did not match a precondition, since the copy held may lag another instance's change that a
/// client already knows of (its notification still on the way): a precondition is checked
/// against the newest version, as on one node.
func loadingFirst<T: Sendable>(
    _ id: SessionID, in engines: PagerEngines, _ operation: @Sendable (isolated PagerEngine) throws(EngineError) -> T
) async throws(EngineError) -> T {
    do {
        return try engines.shard(for: id).withLock(operation)
    } catch .sessionNotFound {
        guard try await engines.load(id) else { throw .sessionNotFound }
        return try engines.shard(for: id).withLock(operation)
    } catch .versionMismatch where engines.store?.isShared == true {
        guard try await engines.load(id) else { throw .sessionNotFound }
        return try engines.shard(for: id).withLock(operation)
    }
}

/// How many times a change that lost to another instance's (a shared store) is made again on
/// the newer state before the client is told to retry.
let staleCopyRetries = 32

/// Runs `change` (which applies a change and waits for it to be durable) until it is not made
/// on a stale copy: with a shared store, another instance may have changed the session first;
/// the engine then holds the newer state, and `change` runs on it, `If-Match` included. After
/// the first retry each one waits a random moment (up to a millisecond per retry so far), so
/// that instances contending for one session take turns instead of colliding again.
func retryingStaleCopies<T: Sendable>(
    _ change: () async throws(EngineError) -> T
) async throws(APIError) -> T {
    var attempt = 0
    while true {
        do {
            return try await change()
        } catch .staleCopy where attempt < staleCopyRetries {
            attempt += 1
            if attempt > 1 { try? await Task.sleep(for: .microseconds(Int.random(in: 0...(1000 * attempt)))) }
        } catch .changeInFlight(let pending) {
            // This process's own change of the session comes first; then this one, on its outcome.
            await pending.settled()
        } catch {
            throw APIError(engineError: error)
        }
    }
}

/// Waits, off every lock, until the store has made a change durable (nothing to wait for
/// without a store); a change the store failed was undone, and the client gets 503.
func durable(_ commit: Commit?) async throws(APIError) {
    guard let commit else { return }
    do { try await commit.durable() } catch { throw APIError(engineError: error) }
}

/// A JSON response for a session resource at `version`.
func jsonBytesResponse(_ bytes: [UInt8], version: Int, status: HTTPResponse.Status = .ok) -> Response {
    // Appended into room made once: built from an array, the fields grew their storage twice.
    var headers = HTTPFields()
    headers.reserveCapacity(3)
    headers.append(SessionResourceFields.json)
    headers.append(ETag.field(for: version))
    headers.append(SessionResourceFields.noStore)
    return Response(status: status, headers: headers, body: bytes)
}

/// The fields every session resource's answer carries, made (and checked) once.
private enum SessionResourceFields {
    static let json = HTTPField(name: .contentType, value: "application/json; charset=utf-8")
    static let noStore = HTTPField(name: .cacheControl, value: "no-store")
}
