/// A tab's badge: a short text or a count, echoed as given.
public enum Badge: Sendable, Equatable {
    case text(String)
    case count(Int)
}

/// A tab's icon and badge (docs/api.md, «Tab icons and badges»).
public struct TabDecoration: Sendable, Equatable {
    /// An opaque string for the client (a URL, a symbol name), 1–2048 characters.
    public var icon: String?
    public var badge: Badge?

    /// Creates a decoration.
    public init(icon: String? = nil, badge: Badge? = nil) {
        self.icon = icon
        self.badge = badge
    }

    /// The most characters an icon may have.
    public static let maxIconLength = 2048
    /// The most characters a text badge may have.
    public static let maxBadgeLength = 32
    /// The largest count badge.
    public static let maxCount = 1_000_000_000

    /// Checks the icon and badge; `field` names the decoration (`pages[0].tab`).
    func validate(field: String) throws(PagerError) {
        if let icon, icon.utf8.count > 4 * Self.maxIconLength || !(1...Self.maxIconLength).contains(icon.count) {
            throw .invalid(
                field: "\(field).icon",
                "An icon is 1 to \(Self.maxIconLength) characters, and at most \(4 * Self.maxIconLength) bytes of UTF-8."
            )
        }
        switch badge {
        case .text(let text)
        where text.utf8.count > 4 * Self.maxBadgeLength || !(1...Self.maxBadgeLength).contains(text.count):
            throw .invalid(
                field: "\(field).badge",
                "A text badge is 1 to \(Self.maxBadgeLength) characters, and at most \(4 * Self.maxBadgeLength) bytes of UTF-8."
            )
        case .count(let count) where !(0...Self.maxCount).contains(count):
            throw .invalid(field: "\(field).badge", "A count badge is an integer from 0 to \(Self.maxCount).")
        default: break
        }
    }

    /// Bytes counted for it, as budgets count session data.
    var storedBytes: Int {
        var bytes = (icon?.utf8.count ?? 0)
        if case .text(let text) = badge { bytes += text.utf8.count }
        return bytes
    }
}

/// How a page PATCH changes a decoration: RFC 7396 over `{icon, badge}`.
public enum TabChange: Sendable, Equatable {
    case keep
    /// `"tab": null`: no icon and no badge.
    case clear
    case merge(icon: FieldChange<String>, badge: FieldChange<Badge>)

    /// The decoration after the change.
    func applied(to old: TabDecoration?) -> TabDecoration? {
        switch self {
        case .keep: return old
        case .clear: return nil
        case .merge(let icon, let badge):
            var tab = old ?? TabDecoration()
            tab.icon = icon.applied(to: tab.icon)
            tab.badge = badge.applied(to: tab.badge)
            return tab.icon == nil && tab.badge == nil ? nil : tab
        }
    }
}
