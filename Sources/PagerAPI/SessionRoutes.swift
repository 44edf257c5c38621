import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerSessions

/// The `/v1/sessions` routes: each parses its body into a command, makes one call to the
/// engine and answers with the state document.
struct SessionRoutes {
    let engines: PagerEngines
    let templates: [String: Template]

    func register(in router: inout Router) {
        router.add(.post, "/v1/sessions") { context throws(APIError) in
            let body = try context.request.jsonObjectOrEmpty()
            // Decoded before the engine is entered: only the new session's state is made under it.
            let definition = try Template.definition(from: body, templates: templates)
            let created: PagerEngine.Created
            do throws(EngineError) { created = try engines.create(definition) } catch {
                throw APIError(engineError: error)
            }
            try await durable(created.commit)
            let snapshot = created.snapshot
            var response = stateResponse(snapshot, status: .created)
            response.headers.add(.location, "/v1/sessions/\(snapshot.id)")
            return response
        }
        router.add(.get, "/v1/sessions/{id}") { context throws(APIError) in
            let id = try context.sessionID(), unchanged = Self.notModifiedVersions(context)
            let read = try callNow(engines, session: id) { engine throws(EngineError) in
                try engine.readImmediately(id, unlessVersionIn: unchanged)
            }
            return read.map(stateOrNotModified)
        } _: { context throws(APIError) in
            let id = try context.sessionID(), unchanged = Self.notModifiedVersions(context)
            let read = try await call(engines, session: id) { engine throws(EngineError) in
                try engine.read(id, unlessVersionIn: unchanged)
            }
            return stateOrNotModified(read)
        }
        router.add(.patch, "/v1/sessions/{id}") { context throws(APIError) in
            let body = try context.request.jsonObjectOrEmpty()
            let id = try context.sessionID(), precondition = context.request.versionPrecondition
            let result = try await retryingStaleCopies { () async throws(EngineError) -> CommandResult in
                let result = try await Self.patch(id, with: body, precondition: precondition, engines: engines)
                try await result.commit?.durable()
                return result
            }
            return commandResponse(result)
        }
        router.add(.delete, "/v1/sessions/{id}") { context throws(APIError) in
            let id = try context.sessionID(), precondition = context.request.versionPrecondition
            try await retryingStaleCopies { () async throws(EngineError) in
                let commit = try await onShard(engines, session: id) { engine throws(EngineError) in
                    try engine.delete(id, precondition: precondition)
                }
                try await commit?.durable()
            }
            return Response(status: 204)
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
        router.add(.get, "/v1/sessions/{id}/neighbors") { context throws(APIError) in
            let id = try context.sessionID()
            let snapshot = try await call(engines, session: id) { engine throws(EngineError) in
                try engine.snapshot(of: id)
            }
            return jsonBytesResponse(StateDocument.neighbors(snapshot.pager), version: snapshot.version)
        }
        router.add(.get, "/v1/sessions/{id}/settings") { context throws(APIError) in
            let id = try context.sessionID(), unchanged = Self.notModifiedVersions(context)
            let snapshot = try await call(engines, session: id) { engine throws(EngineError) in
                try engine.snapshot(of: id)
            }
            if let unchanged, unchanged.accepts(snapshot.version) {
                return Response(status: 304, headers: [.eTag: ETag.header(for: snapshot.version)])
            }
            let bytes = JSONWriter.encode(.object(snapshot.pager.settings.document))
            return jsonBytesResponse(bytes, version: snapshot.version)
        }
        router.add(.get, "/v1/sessions/{id}/pages") { context throws(APIError) in
            let id = try context.sessionID()
            let snapshot = try await call(engines, session: id) { engine throws(EngineError) in
                try engine.snapshot(of: id)
            }
            return jsonBytesResponse(StateDocument.pages(snapshot.pager), version: snapshot.version)
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
        context.request.headers.value(of: .ifNoneMatch).map(ETag.precondition(from:))
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
            engines.shard(for: snapshot.id).keepImmediately(
                bytes, asReadOf: snapshot.id, version: snapshot.version, forms: made)
            return jsonBytesResponse(bytes, version: snapshot.version)
        }
    }

    /// The state document after a command, written with the session's tab forms; forms it made
    /// are handed to the engine to keep.
    private func commandResponse(_ result: CommandResult) -> Response {
        let snapshot = result.snapshot
        let (bytes, made) = StateDocument.encode(snapshot, outcome: result.outcome, tabForms: result.tabForms)
        if let made { engines.shard(for: snapshot.id).immediately { $0.keep(made, for: snapshot.id) } }
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
            let current = try await onShard(engines, session: id) { engine throws(EngineError) in
                try engine.latest(of: id)
            }
            let settings: PagerSettings
            do { settings = try current.pager.settings.patched(with: body) } catch { throw .pager(error) }
            do throws(EngineError) {
                return try engines.shard(for: id).immediately { engine throws(EngineError) in
                    try engine.apply(
                        .updateSettings(settings), to: id, precondition: precondition,
                        expectedVersion: current.version)
                }
            } catch .versionMismatch(let now) where precondition?.accepts(now) ?? true {
                continue  // changed meanwhile by someone else: merge over the newer settings
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

    private func addSessionCommand(
        _ method: HTTPRequest.Method, _ pattern: String, into router: inout Router,
        _ parse: @escaping @Sendable (RouteContext) throws(APIError) -> PagerCommand
    ) {
        let engines = self.engines
        // Only without a store is nothing waited for (no commit, no copy to load or to lose), so
        // only then is a command answered at once.
        var immediate: ImmediateRouteHandler?
        if engines.store == nil {
            immediate = { context throws(APIError) -> Response? in
                let command = try parse(context)
                let id = try context.sessionID(), precondition = context.request.versionPrecondition
                let result = try callNow(engines, session: id) { engine throws(EngineError) -> CommandResult in
                    try engine.applyImmediately(command, to: id, precondition: precondition)
                }
                return result.map(commandResponse)
            }
        }
        router.add(method, pattern, immediate: immediate) { context throws(APIError) in
            let command = try parse(context)
            let id = try context.sessionID(), precondition = context.request.versionPrecondition
            let result = try await retryingStaleCopies { () async throws(EngineError) -> CommandResult in
                let result = try await onShard(engines, session: id) { engine throws(EngineError) in
                    try engine.apply(command, to: id, precondition: precondition)
                }
                try await result.commit?.durable()
                return result
            }
            return commandResponse(result)
        }
    }
}
