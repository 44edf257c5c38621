import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerSessions
import PagerWire

/// The `/v1/sessions` routes: each parses its body into a command, makes one call to the
/// engine and answers with the state document.
struct SessionRoutes {
    let engines: PagerEngines
    let templates: [String: Template]
    /// Mints the `access` member of a create's answer.
    let tokens: SessionTokens

    func register(in router: inout Router) {
        let engines = self.engines, templates = self.templates
        router.add(.post, "/v1/sessions") { context throws(APIError) in
            let body = try context.request.jsonObjectOrEmpty()
            // Decoded before the engine is entered: only the new session's state is made under it.
            let definition = try Template.definition(from: body, templates: templates)
            let authorization = context.authorization
            guard engines.store != nil else { return .now(created(try make(definition), authorization)) }
            return .later { () throws(APIError) -> Response in
                let made = try make(definition)
                try await durable(made.commit)
                return created(made, authorization)
            }
        }
        router.add(.get, "/v1/sessions/{id}") { context throws(APIError) in
            let id = try context.sessionID(), unchanged = Self.notModifiedVersions(context)
            let required = context.request.requiredVersion
            return try answer(session: id, in: engines) { engine throws(EngineError) in
                let read = try engine.read(id, unlessVersionIn: unchanged)
                try required?.check(read.version)
                return read
            } then: { read in
                stateOrNotModified(read)
            }
        }
        router.add(.patch, "/v1/sessions/{id}") { context throws(APIError) in
            let body = try context.request.jsonObjectOrEmpty()
            let id = try context.sessionID(), precondition = context.request.versionPrecondition
            return changing { () throws(EngineError) in
                try await Self.patch(id, with: body, precondition: precondition, engines: engines)
            }
        }
        router.add(.delete, "/v1/sessions/{id}") { context throws(APIError) in
            let id = try context.sessionID(), precondition = context.request.versionPrecondition
            return .later { () throws(APIError) -> Response in
                try await retryingStaleCopies { () async throws(EngineError) in
                    let commit = try await loadingFirst(id, in: engines) { engine throws(EngineError) in
                        try engine.delete(id, precondition: precondition)
                    }
                    try await commit?.durable()
                }
                return Response(status: 204)
            }
        }
        addCommand(.post, "/v1/sessions/{id}/next", into: &router) { request throws(APIError) in
            _ = try request.reader(allowing: [])
            return .next
        }
        addCommand(.post, "/v1/sessions/{id}/previous", into: &router) { request throws(APIError) in
            _ = try request.reader(allowing: [])
            return .previous
        }
        addCommand(.post, "/v1/sessions/{id}/select", into: &router, Self.selectCommand)
        addCommand(.post, "/v1/sessions/{id}/autoAdvance", into: &router) { request throws(APIError) in
            let reader = try request.reader(allowing: ["action"])
            return try reader.read { reader throws(PagerError) in
                guard let action = try reader.choice("action", as: AutoAdvanceAction.self) else {
                    throw PagerError(
                        kind: .invalid, field: "action", detail: "'action' is required: start, stop, pause or resume.")
                }
                return .autoAdvance(action)
            }
        }
        addCommand(.post, "/v1/sessions/{id}/scroll", into: &router, Self.scrollCommand)
        addCommand(.post, "/v1/sessions/{id}/transition", into: &router, Self.transitionCommand)
        addSnapshotRoute("/v1/sessions/{id}/neighbors", into: &router) { snapshot in
            jsonBytesResponse(StateDocument.neighbors(snapshot.pager), version: snapshot.version)
        }
        addSnapshotRoute("/v1/sessions/{id}/settings", into: &router) { snapshot in
            jsonBytesResponse(snapshot.pager.settings.documentBytes, version: snapshot.version)
        }
        addSnapshotRoute("/v1/sessions/{id}/pages", into: &router) { snapshot in
            jsonBytesResponse(StateDocument.pages(snapshot.pager), version: snapshot.version)
        }
        addCommand(.post, "/v1/sessions/{id}/pages", into: &router, Self.insertCommand)
        addCommand(.put, "/v1/sessions/{id}/pages", into: &router, Self.replaceCommand)
        addPageCommand(.patch, "/v1/sessions/{id}/pages/{pageId}", into: &router, Self.updateCommand)
        addPageCommand(.delete, "/v1/sessions/{id}/pages/{pageId}", into: &router) { _, pageID throws(APIError) in
            .remove(pageID: pageID)
        }
        addPageCommand(.post, "/v1/sessions/{id}/pages/{pageId}/stack", into: &router) {
            request, pageID throws(APIError) in
            let reader = try request.reader(allowing: ["screen"])
            guard reader.has("screen") else { throw APIError.invalidRequest("'screen' is required.", field: "screen") }
            let screen = try reader.read { reader throws(PagerError) in
                try Screen(json: reader.object["screen"] ?? .null, field: "screen")
            }
            return .push(pageID: pageID, screen)
        }
        addPageCommand(.delete, "/v1/sessions/{id}/pages/{pageId}/stack", into: &router) {
            request, pageID throws(APIError) in
            switch request.queryValue("to") {
            case nil: return .pop(pageID: pageID, toRoot: false)
            case "root": return .pop(pageID: pageID, toRoot: true)
            case let other?:
                throw APIError.invalidRequest("'to' accepts only 'root', not '\(other)'.", field: "to")
            }
        }
    }

    // MARK: - Plumbing

    /// The versions the request's If-None-Match names, which it gets a 304 for.
    private static func notModifiedVersions(_ context: RouteContext) -> VersionPrecondition? {
        context.request.headers.value(of: .ifNoneMatch).map { ETag.precondition(from: $0, weak: true) }
    }

    /// The state document, or 304 when the reader has the version. A document the engine did
    /// not keep is written here, outside the engine, and handed back for the reads after it.
    private func stateOrNotModified(_ read: SessionRead) -> Response {
        switch read {
        case .unchanged(let version):
            return Response(status: 304, headers: [.eTag: ETag.header(for: version)])
        case .written(let version, let bytes):
            return jsonBytesResponse(bytes, version: version)
        case .state(let snapshot, let tabForms):
            let (bytes, made) = StateDocument.encode(snapshot, tabForms: tabForms)
            engines.shard(for: snapshot.id).withLock { engine in
                engine.keep(bytes, asReadOf: snapshot.id, version: snapshot.version, forms: made)
            }
            return jsonBytesResponse(bytes, version: snapshot.version)
        }
    }

    /// The state document after a command, written with the session's tab forms; forms it made
    /// are handed to the engine to keep.
    private func commandResponse(_ result: CommandResult) -> Response {
        let snapshot = result.snapshot
        let (bytes, made) = StateDocument.encode(snapshot, outcome: result.outcome, tabForms: result.tabForms)
        if let made { engines.shard(for: snapshot.id).withLock { engine in engine.keep(made, for: snapshot.id) } }
        return jsonBytesResponse(bytes, version: snapshot.version)
    }

    /// Applies a PATCH body, a merge patch of the settings (RFC 7396), without decoding under the
    /// engine: it reads the session's settings, merges and decodes outside, then applies the
    /// result on the condition that the session is still at the version read; if another change
    /// came first, it reads again. A client's own `If-Match` is checked when the change applies.
    static func patch(
        _ id: SessionID, with body: JSONObject, precondition: VersionPrecondition?, engines: PagerEngines
    ) async throws(EngineError) -> CommandResult {
        while true {
            let current = try await loadingFirst(id, in: engines) { engine throws(EngineError) in
                try engine.latest(of: id)
            }
            let settings: PagerSettings
            do { settings = try current.pager.settings.patched(with: body) } catch { throw .pager(error) }
            do throws(EngineError) {
                return try await loadingFirst(id, in: engines) { engine throws(EngineError) in
                    try engine.apply(
                        .updateSettings(settings), to: id, precondition: precondition,
                        expectedVersion: current.version)
                }
            } catch .versionMismatch(let now) where precondition?.accepts(now) ?? true {
                continue  // changed meanwhile by someone else: merge over the newer settings
            }
        }
    }

    /// A new session with a new id (``PagerEngines/create(_:)``), as the API refuses it.
    private func make(_ definition: PagerDefinition) throws(APIError) -> PagerEngine.Created {
        do throws(EngineError) { return try engines.create(definition) } catch { throw APIError(engineError: error) }
    }

    /// 201 with the new session's state document (with the tokens pagerd mints for it, when
    /// it does) and its `Location`.
    private func created(_ made: PagerEngine.Created, _ authorization: Authorization) -> Response {
        let snapshot = made.snapshot
        let document = tokens.document(
            StateDocument.encode(snapshot), of: snapshot.id.rawValue, authorization: authorization)
        var response = jsonBytesResponse(document, version: snapshot.version, status: .created)
        response.headers.add(.location, "/v1/sessions/\(snapshot.id)")
        return response
    }

    /// The answer to a change made by `change` (which applies it and returns the result): made
    /// later, once the change is durable, after retrying it while it lost to another instance's
    /// (``retryingStaleCopies(_:)``).
    private func changing(
        _ change: @escaping @Sendable () async throws(EngineError) -> CommandResult
    ) -> RouteAnswer {
        .later { () throws(APIError) -> Response in
            let result = try await retryingStaleCopies { () async throws(EngineError) -> CommandResult in
                let result = try await change()
                try await result.commit?.durable()
                return result
            }
            return commandResponse(result)
        }
    }

    /// Registers `GET pattern`, which answers with `respond` from session `id`'s state, counting
    /// as use, or 304 when `If-None-Match` names its version (the answer depends on nothing else).
    private func addSnapshotRoute(
        _ pattern: String, into router: inout Router, _ respond: @escaping @Sendable (SessionSnapshot) -> Response
    ) {
        let engines = self.engines
        router.add(.get, pattern) { context throws(APIError) in
            let id = try context.sessionID(), unchanged = Self.notModifiedVersions(context)
            let required = context.request.requiredVersion
            return try answer(session: id, in: engines) { engine throws(EngineError) in
                let snapshot = try engine.snapshot(of: id)
                try required?.check(snapshot.version)
                return snapshot
            } then: { snapshot in
                if let unchanged, unchanged.accepts(snapshot.version) {
                    return Response(status: 304, headers: [.eTag: ETag.header(for: snapshot.version)])
                }
                return respond(snapshot)
            }
        }
    }

    private func addCommand(
        _ method: HTTPRequest.Method, _ pattern: String, into router: inout Router,
        _ parse: @escaping @Sendable (Request) throws(APIError) -> PagerCommand
    ) {
        addSessionCommand(method, pattern, into: &router) { context throws(APIError) in try parse(context.request) }
    }

    private func addPageCommand(
        _ method: HTTPRequest.Method, _ pattern: String, into router: inout Router,
        _ parse: @escaping @Sendable (Request, String) throws(APIError) -> PagerCommand
    ) {
        addSessionCommand(method, pattern, into: &router) { context throws(APIError) in
            try parse(context.request, try context.parameter("pageId"))
        }
    }

    /// Registers a route that applies the command `parse` reads from the request. Without a store
    /// nothing is waited for (no commit, no copy to load or to lose), so the command is applied
    /// and answered now; with one, it is applied in the work for later, which waits for the
    /// commit.
    private func addSessionCommand(
        _ method: HTTPRequest.Method, _ pattern: String, into router: inout Router,
        _ parse: @escaping @Sendable (RouteContext) throws(APIError) -> PagerCommand
    ) {
        let engines = self.engines
        router.add(method, pattern) { context throws(APIError) in
            let command = try parse(context)
            let id = try context.sessionID(), precondition = context.request.versionPrecondition
            guard engines.store != nil else {
                do throws(EngineError) {
                    let result = try engines.shard(for: id).withLock { engine throws(EngineError) in
                        try engine.apply(command, to: id, precondition: precondition)
                    }
                    return .now(commandResponse(result))
                } catch {
                    throw APIError(engineError: error)
                }
            }
            return changing { () throws(EngineError) in
                try await loadingFirst(id, in: engines) { engine throws(EngineError) in
                    try engine.apply(command, to: id, precondition: precondition)
                }
            }
        }
    }
}
