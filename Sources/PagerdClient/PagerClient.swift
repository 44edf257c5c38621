public import Foundation
public import OpenAPIRuntime
@_exported public import PagerdOpenAPI

/// The state document: everything a view needs to draw the pager (docs/api.md, «Sessions and
/// the state document»).
public typealias PagerState = Components.Schemas.State
/// A session's effective settings, every member present (docs/api.md, «Settings»).
public typealias PagerSettings = Components.Schemas.Settings
/// The `control` and `watch` tokens pagerd mints for a new session (docs/api.md, «Access tokens»).
public typealias SessionAccess = Components.Schemas.SessionAccess
/// A token minted by ``PagerClient/mintToken(scope:ttl:)``.
public typealias MintedToken = Components.Schemas.MintedToken
/// The stable codes of pagerd's problems.
public typealias ProblemCode = Components.Schemas.ProblemCode

/// A client of one pagerd server, driving one session at a time: typed commands, the session's
/// events, and optimistic concurrency.
///
/// Create or open a session, then move it; every request method is
/// `async throws(PagerClientError)`.
/// The client keeps the newest state it has seen (from answers and from ``events(after:)``), and
/// sends each change with `If-Match` naming that state's version unless told otherwise, so a
/// change made on a state another client has moved on is refused (`412 version_mismatch`) rather
/// than applied blindly; ``retryingOnConflict(maxAttempts:isolation:_:)`` re-reads and tries
/// again.
///
/// ```swift
/// let client = PagerClient(baseURL: URL(string: "https://pager.example.com")!, token: token)
/// var state = try await client.createSession(template: "media")
/// state = try await client.next()
/// for try await event in try await client.events() { draw(event.state) }
/// ```
///
/// The client is an actor: calls from many tasks are safe, and each is one request, but for a
/// change refused `412 version_mismatch` (the state is then read, so that the client holds the
/// state it lost to), ``predictScroll(_:)`` (which reads the settings when it holds none
/// current) and ``retryingOnConflict(maxAttempts:isolation:_:)`` (its change's requests, and a
/// read when it holds no state).
public actor PagerClient {
    /// The server's address, under which `/v1/…` lies.
    public nonisolated let baseURL: URL
    /// The generated client of openapi.json's operations, behind the middlewares.
    nonisolated let api: Client
    nonisolated let token: TokenBox
    /// Answers a new token when an event stream's has expired (see ``init(baseURL:token:refreshToken:transport:predictor:)``).
    nonisolated let refreshToken: (@Sendable () async throws -> String)?
    nonisolated let predictor: (any ScrollPredicting)?

    /// The session the commands apply to.
    public private(set) var sessionID: String?
    /// The newest state seen: from the last answer or event, whichever has the higher version.
    public private(set) var state: PagerState?
    /// The session's settings, as ``loadSettings()`` last read them.
    public internal(set) var settings: PagerSettings?
    /// The session's version when ``settings`` were read (their `ETag`): they are current while
    /// the state's `settingsVersion` is no newer.
    var settingsRead = 0
    /// The settings read ``predictScroll(_:)`` is waiting for, if one is under way.
    var pendingSettingsRead: Task<PagerSettings, any Error>?
    /// The tokens pagerd minted for the session this client created (`control` and `watch`),
    /// when the server signs tokens and the create was made with `authToken` or a `create`
    /// token; nil otherwise, and once the client opens another session or deletes this one.
    public private(set) var access: SessionAccess?

    /// Creates a client of the pagerd at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: The server, e.g. `https://pager.example.com` (or a path prefix a proxy
    ///     serves it under).
    ///   - token: A bearer token for every request (`authToken`, or an access token); nil
    ///     for a server that asks for none. ``setToken(_:)`` replaces it.
    ///   - refreshToken: Called when an event stream's access token has expired (the stream
    ///     ended with `expired`, or a new connection was refused 401, once until a connection
    ///     opens): answers a new token, which the client then holds, and the stream resumes from
    ///     the last version seen. If it throws, the stream ends (see ``events(after:)``; an
    ///     error saying it got no answer is asked again after the backoff). Nil: the stream
    ///     connects again with the token set by then.
    ///   - transport: How requests are sent; ``defaultTransport()`` unless given.
    ///   - predictor: What ``predictScroll(_:)`` computes with: pagerd's own model
    ///     (``ModelScrollPredictor``) unless given; nil for none.
    public init(
        baseURL: URL, token: String? = nil, refreshToken: (@Sendable () async throws -> String)? = nil,
        transport: any ClientTransport = PagerClient.defaultTransport(),
        predictor: (any ScrollPredicting)? = ModelScrollPredictor()
    ) {
        // `https://host/` and `https://host` are one server: operations' paths begin with `/`.
        let trimmed =
            baseURL.absoluteString.hasSuffix("/") ? URL(string: String(baseURL.absoluteString.dropLast())) : nil
        let serverURL = trimmed ?? baseURL
        self.baseURL = serverURL
        self.token = TokenBox(token)
        self.refreshToken = refreshToken
        self.predictor = predictor
        api = Client(
            serverURL: serverURL, transport: transport,
            middlewares: [HeaderMiddleware(token: self.token), ProblemMiddleware()])
    }

    /// Replaces the bearer token for the requests that start from now on (an event stream
    /// takes it when it next connects).
    public nonisolated func setToken(_ value: String?) { token.value = value }

    // MARK: - Sessions

    /// The templates the server offers (docs/api.md, «Templates»).
    public func templates() async throws(PagerClientError) -> [Components.Schemas.TemplateSummary] {
        try await call { try await api.listTemplates().ok.body.json.templates }
    }

    /// Creates a session from a template, from pages, or both, and makes it the client's.
    public func createSession(
        template: String? = nil, pages: [Components.Schemas.PageInput]? = nil
    ) async throws(PagerClientError) -> PagerState {
        try await createSession(Components.Schemas.CreateSession(template: template, pages: pages))
    }

    /// Creates a session from a whole create request (settings included) and makes it the
    /// client's.
    public func createSession(_ request: Components.Schemas.CreateSession) async throws(PagerClientError) -> PagerState
    {
        let created = try await call { try await api.createSession(body: .json(request)).created.body.json }
        sessionID = created.value1.id
        state = created.value1
        settings = nil
        access = created.value2.access
        return created.value1
    }

    /// Makes an existing session the client's, reading its state.
    @discardableResult
    public func open(sessionID id: String) async throws(PagerClientError) -> PagerState {
        let read = try await call { try await api.getSession(path: .init(id: id)).ok.body.json }
        // The session held already: kept as it is but for a newer state (an event may have
        // brought one during the read).
        if sessionID == id { return adopt(read) }
        sessionID = id
        state = read
        settings = nil
        access = nil
        return read
    }

    /// Reads the session's state again.
    @discardableResult
    public func refresh() async throws(PagerClientError) -> PagerState {
        let id = try requireSession()
        return adopt(try await call { try await api.getSession(path: .init(id: id)).ok.body.json })
    }

    /// Reads the session's effective settings (what prediction needs), and keeps them.
    @discardableResult
    public func loadSettings() async throws(PagerClientError) -> PagerSettings {
        let id = try requireSession()
        // The version they were read at is their ETag's; without one (a proxy that drops it),
        // the settings version known when the read was sent, so that they are not read again
        // and again.
        let known = state?.settingsVersion ?? 0
        let (settings, tag) = try await call {
            let read = try await api.getSettings(path: .init(id: id)).ok
            return (try read.body.json, read.headers.eTag)
        }
        let version = tag.flatMap(ProblemMiddleware.version(fromETag:)) ?? known
        // Kept only for the session still held, and when no newer read came back first.
        if sessionID == id, self.settings == nil || version >= settingsRead {
            self.settings = settings
            settingsRead = version
        }
        return settings
    }

    /// Whether the settings held are those of the state held: read at or after the change that
    /// last set them.
    var settingsAreCurrent: Bool {
        guard settings != nil else { return false }
        return (state?.settingsVersion ?? 0) <= settingsRead
    }

    /// Deletes the session; the client then holds none.
    public func delete(ifMatch: VersionPrecondition = .lastKnown) async throws(PagerClientError) {
        let id = try requireSession()
        let tag = self.tag(ifMatch)
        _ = try await call { try await api.deleteSession(path: .init(id: id), headers: .init(ifMatch: tag)).noContent }
        // Another call may have made a different session the client's meanwhile: that one stays.
        guard sessionID == id else { return }
        sessionID = nil
        state = nil
        settings = nil
        access = nil
    }

    /// Mints a token for the session (`POST …/tokens`): `watch` for a read-only follower,
    /// `drive` for a presenter's remote, `control` for everything. Needs `authToken`, or a
    /// `control` token (which mints `watch` and `drive` only, expiring no later than itself);
    /// `ttl` in seconds, the server's default (an hour at most) when nil. A server without a
    /// signing key refuses with `409 signing_unavailable`.
    public func mintToken(
        scope: Components.Schemas.MintTokenRequest.ScopePayload, ttl: Int? = nil
    ) async throws(PagerClientError) -> MintedToken {
        let id = try requireSession()
        return try await call {
            try await api.mintToken(path: .init(id: id), body: .json(.init(scope: scope, ttl: ttl))).created.body.json
        }
    }

    // MARK: - The state the client holds

    /// Keeps `newer` when it is newer than the state held (answers and events can arrive in
    /// either order), and returns it.
    @discardableResult
    func adopt(_ newer: PagerState) -> PagerState {
        guard newer.id == sessionID else { return newer }
        // In a change of retryingOnConflict, the change's own answers move its version on.
        if let pin = Self.pinnedVersion, pin.client == ObjectIdentifier(self) { pin.advance(to: newer.version) }
        if let held = state, held.version > newer.version { return newer }
        state = newer
        return newer
    }

    /// The version `.lastKnown` names in the task running a change of
    /// ``retryingOnConflict(maxAttempts:isolation:_:)`` (and in tasks it starts, which inherit
    /// it): the state the change was computed from, then each state this client's requests in
    /// that task were answered with (a change of two requests sends the second at the version the
    /// first made), not whatever newer state an event brought meanwhile. Other clients used in
    /// the change are not pinned.
    @TaskLocal static var pinnedVersion: PinnedVersion?

    /// The session id, or `.noSession`.
    func requireSession() throws(PagerClientError) -> String {
        guard let sessionID else { throw .noSession }
        return sessionID
    }

    /// The `If-Match` value a precondition asks for.
    func tag(_ precondition: VersionPrecondition) -> String? {
        switch precondition {
        case .none: nil
        case .version(let version): "\"\(version)\""
        // Inside ``retryingOnConflict(maxAttempts:isolation:_:)``: the version its change reached.
        case .lastKnown:
            if let pin = Self.pinnedVersion, pin.client == ObjectIdentifier(self) {
                "\"\(pin.version)\""
            } else {
                state.map { "\"\($0.version)\"" }
            }
        }
    }

    /// Runs one generated operation, turning whatever it throws into a ``PagerClientError``.
    func call<T>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> T
    ) async throws(PagerClientError) -> T {
        // A task cancelled before the call sends nothing (the transport may not look).
        if Task.isCancelled { throw .cancelled }
        do {
            return try await operation()
        } catch {
            let failure = PagerClientError.from(error)
            // A change refused because the session moved on: the state it lost to is read, so
            // that `.lastKnown` names it from now on (a failed read leaves the state held). Read
            // outside any change of retryingOnConflict: that change's version stays the one it
            // was given, so its next request is refused too, not applied to a state it never saw.
            if failure.code == ProblemCode.versionMismatch.rawValue {
                _ = try? await PagerClient.$pinnedVersion.withValue(nil) { try await refresh() }
            }
            throw failure
        }
    }
}

/// The version a change of ``PagerClient/retryingOnConflict(maxAttempts:isolation:_:)`` is at,
/// for one client.
final class PinnedVersion: @unchecked Sendable {
    // @unchecked: `stored` is read and written only under `lock`.
    let client: ObjectIdentifier
    private let lock = NSLock()
    private var stored: Int

    init(client: ObjectIdentifier, version: Int) {
        self.client = client
        stored = version
    }

    var version: Int { lock.withLock { stored } }

    /// Moves the version on to `newer`, never back.
    func advance(to newer: Int) { lock.withLock { stored = Swift.max(stored, newer) } }
}

/// Which version a change is made on: the `If-Match` it is sent with (docs/api.md, «Versions and
/// conditional requests»).
public enum VersionPrecondition: Sendable, Hashable {
    /// The version of the newest state the client holds (none while it holds none).
    case lastKnown
    /// This version.
    case version(Int)
    /// Whatever the session's version: no `If-Match`.
    case none
}
