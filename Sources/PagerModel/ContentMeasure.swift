public import JSON

/// The sizes of one page's or screen's content, measured once when the content is set (while a
/// request is decoded, before the engine is entered), so that limits, budgets and change checks
/// never walk the content again.
public struct ContentMeasure: Sendable, Hashable {
    /// Bytes of the compact JSON encoding; `maxContentBytes` limits it.
    public let jsonBytes: Int
    /// An estimate of the memory the content occupies; budgets count it.
    public let memoryBytes: Int
    /// A hash of the compact encoding. Contents written as different bytes almost always have
    /// different fingerprints, so most changes are told apart without comparing the contents.
    let fingerprint: Int

    /// The measure of `{}`.
    public static let empty = ContentMeasure(jsonBytes: 2, memoryBytes: 0, fingerprint: 0)

    private init(jsonBytes: Int, memoryBytes: Int, fingerprint: Int) {
        self.jsonBytes = jsonBytes
        self.memoryBytes = memoryBytes
        self.fingerprint = fingerprint
    }

    /// Measures `content`, in time linear in its size.
    public init(_ content: JSONObject) {
        guard !content.isEmpty else {
            self = .empty
            return
        }
        let (byteCount, fingerprint) = JSONWriter.measure(.object(content))
        self.init(jsonBytes: byteCount, memoryBytes: content.estimatedHeapBytes, fingerprint: fingerprint)
    }
}
