import PagerModel

// The read cache: a session's state document and its tabs at rest, as the wire layer wrote them.
// They are bytes of the API layer's output, yet kept here with the session, because they must be
// dropped in the same step as the state they were written from changes (`Session.durable`), and
// counted in the engine's memory accounts.
extension PagerEngine {
    /// Keeps what a read that missed the cache wrote, in one lookup of session `id`: `bytes` as
    /// the form a reader gets of its state at `version`, for later reads of that state (only
    /// while it is still the durable state), and `forms`, when given, as its tab forms (see
    /// ``keep(_:for:)``). Only if the read cache, which holds at most
    /// ``EngineLimits/readCacheBudgetBytes`` across all shards, has room: a full read cache keeps
    /// nothing more until a kept form's state changes or its session goes.
    public func keep(_ bytes: [UInt8], asReadOf id: SessionID, version: Int, forms: TabForms? = nil) {
        keep(read: bytes, version: version, forms: forms, for: id)
    }

    /// Both keeps in one lookup of session `id`: `read` as the read form of `version`, if given
    /// and `version` is still the durable state, and `forms`, if given.
    func keep(read: [UInt8]?, version: Int, forms: TabForms?, for id: SessionID) {
        guard let session = sessions[id] else { return }
        if let read, session.durable?.version == version {
            session.keepReadForm(read, budget: limits.readCacheBudgetBytes)
        }
        if let forms { session.keep(forms, budget: limits.readCacheBudgetBytes) }
    }

    /// Keeps `forms`, the tabs at rest of session `id` as the wire layer writes them, for the
    /// documents after this one: only if they were written from the pages and settings of its
    /// durable state, and only if the read cache has room (they replace forms kept before).
    public func keep(_ forms: TabForms, for id: SessionID) {
        keep(read: nil, version: 0, forms: forms, for: id)
    }
}
