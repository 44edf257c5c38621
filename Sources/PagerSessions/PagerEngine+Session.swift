import PagerModel

extension PagerEngine {
    /// One session. A class, so the table's buckets hold a reference rather than the whole
    /// value: a hash table keeps about half its buckets empty, and inline values made those
    /// empty buckets cost as much memory as the sessions themselves.
    ///
    /// Sessions without subscribers are also linked in `idleOrder`, least recently listed first,
    /// so eviction looks only at the sessions that expire.
    final class Session {
        let id: SessionID
        /// The newest state applied.
        var pager: Pager
        /// The newest state the store has made durable; nil until the creation commits. Without
        /// a store, always `pager`. A new durable state drops the read cache's form of the old.
        var durable: Pager? {
            didSet {
                if readForm != nil { forgetReadForm() }
                if let tabForms, tabForms.key != durable?.tabLayoutKey { forget(tabForms) }
            }
        }
        /// `durable` as readers get it, kept after the first read of this state (see
        /// ``PagerEngine/read(_:unlessVersionIn:)``); its capacity counts in
        /// `accounts.readCacheBytes`.
        private(set) var readForm: [UInt8]?
        /// The tabs at rest as the wire layer wrote them, for the pages and settings of the
        /// state that was durable when they were kept; dropped when a durable state has others.
        /// Counted in `accounts.readCacheBytes`.
        private(set) var tabForms: TabForms?
        let accounts: EngineAccounts
        /// Changes submitted to the store and not yet settled.
        var inFlight = 0
        /// The newest of them: a change waits for it with a shared store (see
        /// ``PagerEngine/apply(_:to:precondition:expectedVersion:)``).
        var newestCommit: Commit?
        /// A delete waits for its commit: commands see no session, reads still do.
        var deleting = false
        var lastUsed: Double
        /// When the store last recorded a use (engine clock).
        var storedUse: Double
        var subscribers: [Int: Subscriber] = [:]
        /// How many of `subscribers` each client address holds.
        var subscribersByAddress: [String: Int] = [:]
        /// The encoding slots of the newest events published to the subscribers, which keep
        /// their values (see ``PagerEngine/publish(_:to:)``), oldest first.
        var keptEncodings: [EncodedOnce] = []
        /// The slot subscriptions that begin at `version` share for their first event.
        var firstEncoding: (version: Int, slot: EncodedOnce)?
        /// With a shared store and subscribers: what they saw last and what waits for its turn
        /// (see ``PagerEngine/deliver(_:version:to:)``); nil otherwise.
        var feed: Feed?
        /// Neighbours in `idleOrder`. Unowned: the table holds every session strongly (two strong
        /// links would make every linked pair a cycle), and a session leaves the list before it
        /// leaves the table.
        unowned var older: Session?
        unowned var newer: Session?
        var isLinked = false
        /// When it was last moved to the newest end of `idleOrder` (engine clock).
        var listedAt: Double = 0
        /// When the auto-advance timer is due (wall-clock ms), while queued in `timers`.
        var timerDue: Int64 = 0
        /// Its place in `timers`; −1 when not queued.
        var timerSlot = -1

        init(id: SessionID, pager: Pager, durable: Pager?, lastUsed: Double, accounts: EngineAccounts) {
            self.id = id
            self.pager = pager
            self.durable = durable
            self.lastUsed = lastUsed
            self.storedUse = lastUsed
            self.accounts = accounts
        }

        /// Keeps `bytes` as the read form of the durable state if the read cache has room for
        /// them under `budget`.
        func keepReadForm(_ bytes: [UInt8], budget: Int) {
            guard readForm == nil, EngineAccounts.reserve(accounts.readCacheBytes, bytes.capacity, limit: budget)
            else { return }
            readForm = bytes
        }

        /// Drops the read form, giving its bytes back to the read cache.
        func forgetReadForm() {
            guard let readForm else { return }
            EngineAccounts.release(accounts.readCacheBytes, readForm.capacity)
            self.readForm = nil
        }

        /// Keeps `forms` instead of the tab forms kept before, if they were written from the
        /// durable state's pages and settings and the read cache has room for the difference under
        /// `budget` (otherwise the forms kept before stay). A mark never replaces written forms of
        /// the same pages and settings (a reader that started before they were kept hands one back).
        func keep(_ forms: TabForms, budget: Int) {
            guard forms !== tabForms, forms.key == durable?.tabLayoutKey else { return }
            if let tabForms, tabForms.isWritten, !forms.isWritten, tabForms.key == forms.key { return }
            // A reservation that shrinks always succeeds.
            let growth = forms.byteCount - (tabForms?.byteCount ?? 0)
            guard EngineAccounts.reserve(accounts.readCacheBytes, growth, limit: budget) else { return }
            tabForms = forms
        }

        /// Drops the tab forms, giving their bytes back to the read cache.
        func forget(_ forms: TabForms) {
            EngineAccounts.release(accounts.readCacheBytes, forms.byteCount)
            tabForms = nil
        }

        /// Drops everything kept for the wire layer (the session is leaving the table).
        func forgetForms() {
            forgetReadForm()
            if let tabForms { forget(tabForms) }
        }

        /// The session as commands see it: created durably and not being deleted.
        var acceptsCommands: Bool { durable?.version != nil && !deleting }  // reads no whole Pager
    }

    /// One event-stream subscriber.
    struct Subscriber {
        let continuation: AsyncStream<SessionEvent>.Continuation
        /// The client address it was opened from, for the per-address cap.
        let address: String
    }

}
