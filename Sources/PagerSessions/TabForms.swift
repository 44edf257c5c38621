public import PagerModel

/// Every tab of a session described at rest (``Pager/tabAtRest(_:)``), as the wire layer writes
/// it, kept with the session between documents so that a document copies the tabs at rest
/// instead of describing and writing each again. The engine holds the bytes without reading them.
public final class TabForms: Sendable {
    /// The pages and settings the forms were written from.
    public let key: TabLayoutKey
    /// The forms, one after another.
    public let bytes: [UInt8]
    /// The end of each tab's form in `bytes`, by position; a form starts where the one before
    /// ends.
    public let ends: [Int]

    /// Forms written from the pages and settings `key` names; with no forms (the default), a
    /// mark that one document was written from them, so that the next writes the forms: pages
    /// or settings changed by every command (a push after a push) never cost the forms.
    public init(key: TabLayoutKey, bytes: [UInt8] = [], ends: [Int] = []) {
        self.key = key
        self.bytes = bytes
        self.ends = ends
    }

    /// Whether the forms are written (not only the mark).
    public var isWritten: Bool { !ends.isEmpty }

    /// The bytes of the form of the tab at `position`.
    public func form(at position: Int) -> Range<Int> { (position == 0 ? 0 : ends[position - 1])..<ends[position] }

    /// The memory the forms hold, as the read cache counts it.
    var byteCount: Int { bytes.capacity + ends.capacity * MemoryLayout<Int>.stride }
}
