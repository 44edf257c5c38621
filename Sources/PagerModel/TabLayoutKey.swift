/// The pages and settings of a pager, by identity rather than by value: two pagers with equal
/// keys hold the same page list and the same settings, so they describe every tab at rest alike
/// (``Pager/tabAtRest(_:)``). Comparing is two pointer comparisons. A key holds what it names,
/// so while it exists neither can be changed in place (a pager that changes them copies them
/// first) nor freed and replaced by another at the same address.
public struct TabLayoutKey: Sendable, Equatable {
    let pages: [Page]
    let settings: SettingsBox

    public static func == (a: TabLayoutKey, b: TabLayoutKey) -> Bool {
        guard a.settings === b.settings, a.pages.count == b.pages.count else { return false }
        return a.pages.withUnsafeBufferPointer { x in
            b.pages.withUnsafeBufferPointer { x.baseAddress == $0.baseAddress }
        }
    }
}
