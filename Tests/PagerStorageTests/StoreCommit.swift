import PagerSessions

/// Submits `change` to `store` and waits for its answer: nil when it was kept.
func commit(_ store: any SessionStore, _ change: SessionChange) async throws -> StoreError? {
    try await withCheckedThrowingContinuation { continuation in
        do {
            try store.submit(change) { error in continuation.resume(returning: error) }
        } catch {
            continuation.resume(throwing: error)
        }
    }
}
