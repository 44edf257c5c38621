extension PagerClient {
    // MARK: - Moving the pager

    /// Moves one page forward (docs/api.md, «Navigation»).
    @discardableResult
    public func next(ifMatch: VersionPrecondition = .lastKnown) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call { try await api.next(path: .init(id: id), headers: .init(ifMatch: tag)).ok.body.json })
    }

    /// Moves one page back.
    @discardableResult
    public func previous(ifMatch: VersionPrecondition = .lastKnown) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call { try await api.previous(path: .init(id: id), headers: .init(ifMatch: tag)).ok.body.json })
    }

    /// Jumps to the page at `index` (docs/api.md, «Jumps»); the answer carries the keyframes.
    @discardableResult
    public func select(
        index: Int, path: Components.Schemas.SelectByIndex.PathPayload? = nil,
        animation: Components.Schemas.SelectByIndex.AnimationPayload? = nil,
        ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        try await select(.SelectByIndex(.init(index: index, path: path, animation: animation)), ifMatch: ifMatch)
    }

    /// Jumps to the page whose id is `page`.
    @discardableResult
    public func select(
        page: String, path: Components.Schemas.SelectByPage.PathPayload? = nil,
        animation: Components.Schemas.SelectByPage.AnimationPayload? = nil,
        ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        try await select(.SelectByPage(.init(page: page, path: path, animation: animation)), ifMatch: ifMatch)
    }

    private func select(
        _ body: Components.Schemas.Select, ifMatch: VersionPrecondition
    ) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call {
                try await api.select(path: .init(id: id), headers: .init(ifMatch: tag), body: .json(body)).ok.body.json
            })
    }

    /// Reports where the finger is during a swipe (docs/api.md, «Swipes»).
    @discardableResult
    public func scroll(
        _ input: ScrollInput, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError)
        -> PagerState
    {
        let (id, tag) = try target(ifMatch)
        let body: Components.Schemas.Scroll =
            switch input {
            case .progress(let value): .ScrollByProgress(.init(progress: value))
            case .offset(let value): .ScrollByOffset(.init(offset: value))
            case .windowOffset(let value): .ScrollByWindowOffset(.init(windowOffset: value))
            }
        return adopt(
            try await call {
                try await api.scroll(path: .init(id: id), headers: .init(ifMatch: tag), body: .json(body)).ok.body.json
            })
    }

    /// Begins a swipe toward the neighbour at `index` (docs/api.md, «The transition lifecycle»).
    @discardableResult
    public func begin(
        to index: Int, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError)
        -> PagerState
    {
        try await transition(.TransitionBegin(.init(phase: .begin, to: index)), ifMatch: ifMatch)
    }

    /// Ends the swipe in flight as the client decided: it lands on its target when `completed`,
    /// goes back otherwise.
    @discardableResult
    public func end(
        completed: Bool, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        try await transition(.TransitionEnd(.init(phase: .end, completed: completed)), ifMatch: ifMatch)
    }

    /// Ends the swipe in flight as a device decides on release: the server completes it when the
    /// finger was flung toward the target at the flick velocity or faster, or was past half way
    /// and not flung back (docs/api.md, «Release by velocity»). `velocity` is in pages per second,
    /// signed like progress; the answer's `settle` says how it ended.
    @discardableResult
    public func end(
        velocity: Double, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        try await transition(.TransitionRelease(.init(phase: .end, velocity: velocity)), ifMatch: ifMatch)
    }

    private func transition(
        _ body: Components.Schemas.TransitionRequest, ifMatch: VersionPrecondition
    ) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call {
                try await api.transition(path: .init(id: id), headers: .init(ifMatch: tag), body: .json(body)).ok.body
                    .json
            })
    }

    /// Starts, stops, pauses or resumes auto-advance (docs/api.md, «Auto-advance»).
    @discardableResult
    public func autoAdvance(
        _ action: Components.Schemas.AutoAdvanceControl.ActionPayload, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call {
                try await api.autoAdvance(
                    path: .init(id: id), headers: .init(ifMatch: tag), body: .json(.init(action: action))
                ).ok.body.json
            })
    }

    /// The neighbours of the current page, changing nothing.
    public func neighbors() async throws(PagerClientError) -> Components.Schemas.Neighbors {
        let id = try requireSession()
        return try await call { try await api.neighbors(path: .init(id: id)).ok.body.json }
    }

    // MARK: - Settings

    /// Changes settings: `changes` is merged over them (docs/api.md, «Settings»); members left
    /// nil keep their value.
    @discardableResult
    public func patch(
        _ changes: Components.Schemas.SettingsPatch, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        let changed = try await call {
            try await api.patchSession(path: .init(id: id), headers: .init(ifMatch: tag), body: .json(changes)).ok
                .body.json
        }
        settings = nil
        return adopt(changed)
    }

    // MARK: - Pages and stacks

    /// The session's pages, with their content and stacks.
    public func pages() async throws(PagerClientError) -> [Components.Schemas.Page] {
        let id = try requireSession()
        return try await call { try await api.listPages(path: .init(id: id)).ok.body.json.pages }
    }

    /// Inserts `page` at `position` (the end by default) (docs/api.md, «Changing pages»).
    @discardableResult
    public func insert(
        _ page: Components.Schemas.PageInput, at position: Int? = nil,
        then: Components.Schemas.InsertPage.ThenPayload? = nil, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        try await insert(.InsertPage(.init(page: page, at: position, then: then)), ifMatch: ifMatch)
    }

    /// Inserts the page `id` of the template's catalog.
    @discardableResult
    public func insert(
        fromCatalog id: String, at position: Int? = nil,
        then: Components.Schemas.InsertFromCatalog.ThenPayload? = nil, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        try await insert(.InsertFromCatalog(.init(from: id, at: position, then: then)), ifMatch: ifMatch)
    }

    private func insert(
        _ body: Components.Schemas.Insert, ifMatch: VersionPrecondition
    ) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call {
                try await api.insertPage(path: .init(id: id), headers: .init(ifMatch: tag), body: .json(body)).ok.body
                    .json
            })
    }

    /// Replaces every page.
    @discardableResult
    public func replacePages(
        _ pages: [Components.Schemas.PageInput], ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call {
                try await api.replacePages(
                    path: .init(id: id), headers: .init(ifMatch: tag), body: .json(.init(pages: pages))
                ).ok.body.json
            })
    }

    /// Changes the page `pageID` (title, content, tab, …) or moves it (`moveTo`).
    @discardableResult
    public func updatePage(
        _ pageID: String, _ changes: Components.Schemas.PagePatch, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call {
                try await api.updatePage(
                    path: .init(id: id, pageId: pageID), headers: .init(ifMatch: tag), body: .json(changes)
                ).ok.body.json
            })
    }

    /// Removes the page `pageID`.
    @discardableResult
    public func removePage(
        _ pageID: String, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError)
        -> PagerState
    {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call {
                try await api.removePage(path: .init(id: id, pageId: pageID), headers: .init(ifMatch: tag)).ok.body.json
            })
    }

    /// Pushes `screen` on the stack of the page `pageID` (docs/api.md, «Navigation stacks»).
    @discardableResult
    public func push(
        _ screen: Components.Schemas.ScreenInput, onPage pageID: String, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call {
                try await api.pushScreen(
                    path: .init(id: id, pageId: pageID), headers: .init(ifMatch: tag),
                    body: .json(.init(screen: screen))
                ).ok.body.json
            })
    }

    /// Pops one screen off the stack of the page `pageID`, or all of them with `toRoot`.
    @discardableResult
    public func pop(
        onPage pageID: String, toRoot: Bool = false, ifMatch: VersionPrecondition = .lastKnown
    ) async throws(PagerClientError) -> PagerState {
        let (id, tag) = try target(ifMatch)
        return adopt(
            try await call {
                try await api.popScreen(
                    path: .init(id: id, pageId: pageID), query: .init(to: toRoot ? .root : nil),
                    headers: .init(ifMatch: tag)
                ).ok.body.json
            })
    }

    // MARK: - Optimistic concurrency

    /// Runs `change` with the newest state, and when another client changed the session first
    /// (`412 version_mismatch`), runs it again on the state it lost to, at most `maxAttempts`
    /// times in all. `change` makes its requests through this client, whose `If-Match` then
    /// names the state it was given, and after each of its requests the state that request
    /// made. Throws what `change` throws (the last `version_mismatch` when every attempt met
    /// one), or the ``PagerClientError`` of reading the state.
    ///
    /// ```swift
    /// // Go one page further than wherever the pager is, even if others move it meanwhile.
    /// try await client.retryingOnConflict { state in
    ///     try await client.select(index: (state.index ?? 0) + 1)
    /// }
    /// ```
    public func retryingOnConflict<T>(
        maxAttempts: Int = 3, isolation: isolated (any Actor)? = #isolation,
        _ change: (PagerState) async throws -> T
    ) async throws -> T {
        var current = try await currentState()
        var attempt = 1
        while true {
            do {
                let given = current
                let pin = PinnedVersion(client: ObjectIdentifier(self), version: given.version)
                return try await Self.$pinnedVersion.withValue(pin) { try await change(given) }
            } catch let error as PagerClientError where error.code == ProblemCode.versionMismatch.rawValue {
                guard attempt < maxAttempts else { throw error }
                attempt += 1
                // The refused request read the state it lost to, unless that read failed.
                let held = await state
                if case .problem(let problem) = error, let now = problem.currentVersion, let held, held.version >= now {
                    current = held
                } else {
                    current = try await refresh()
                }
            }
        }
    }

    /// The state held, or the session's state read now when none is held.
    func currentState() async throws(PagerClientError) -> PagerState {
        if let state { return state }
        return try await refresh()
    }

    /// The session and the `If-Match` value for a change.
    func target(_ precondition: VersionPrecondition) throws(PagerClientError) -> (String, String?) {
        (try requireSession(), tag(precondition))
    }
}

extension PagerClient {
    // MARK: - Prediction

    /// What pagerd will answer to `input` from the state held, computed on the device with the
    /// client's predictor (no request): the members to draw a frame of a swipe with. It needs the
    /// settings of the state's `settingsVersion`, and reads them first (``loadSettings()``) when
    /// the client holds none or holds older ones.
    public func predictScroll(_ input: ScrollInput) async throws(PagerClientError) -> ScrollMembers {
        guard let predictor else { throw .predictionUnavailable }
        _ = try await currentState()
        // Settings of another settingsVersion than the state's would predict wrongly: read again
        // (once for all the frames that ask meanwhile), and again should an event bring newer
        // settings during the read. State and settings are taken together, with no wait between.
        for _ in 0..<3 {
            if settingsAreCurrent, let settings, let state {
                return try predictor.predictScroll(state: state, settings: settings, input: input)
            }
            try await readSettingsOnce()
        }
        throw .predictionUnavailable
    }

    /// Reads the settings, or waits for the read ``predictScroll(_:)`` started already: frames
    /// drawn during a read share it instead of sending one each.
    private func readSettingsOnce() async throws(PagerClientError) {
        let read: Task<PagerSettings, any Error>
        if let pending = pendingSettingsRead {
            read = pending
        } else {
            read = Task { try await self.loadSettings() }
            pendingSettingsRead = read
        }
        defer { if pendingSettingsRead == read { pendingSettingsRead = nil } }
        do { _ = try await read.value } catch { throw PagerClientError.from(error) }
    }
}
