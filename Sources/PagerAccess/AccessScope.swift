/// What a token lets its holder do. `watch`, `drive` and `control` are about one session (or
/// every session), each covering the one before it; `create` makes sessions.
public enum AccessScope: String, Sendable, CaseIterable, Comparable {
    /// Read the session and follow its events.
    case watch
    /// `watch`, and move the pager (a presenter's remote): no change to pages, stacks or
    /// settings, no deletion.
    case drive
    /// `drive`, and every other request on the session.
    case control
    /// Create sessions.
    case create

    /// The session scopes in the order each covers the one before it.
    private var rank: Int {
        switch self {
        case .watch: 0
        case .drive: 1
        case .control: 2
        case .create: 3
        }
    }

    public static func < (lhs: AccessScope, rhs: AccessScope) -> Bool { lhs.rank < rhs.rank }

    /// Whether holding this scope allows what `needed` allows: the same scope, or a session
    /// scope that covers it (`control` covers `drive` and `watch`, `drive` covers `watch`).
    public func covers(_ needed: AccessScope) -> Bool {
        if self == needed { return true }
        guard self != .create, needed != .create else { return false }
        return self > needed
    }
}

/// The scopes a token holds: a small set.
public struct AccessScopes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The set holding just `scope`.
    public init(_ scope: AccessScope) {
        switch scope {
        case .watch: self = .watch
        case .drive: self = .drive
        case .control: self = .control
        case .create: self = .create
        }
    }

    /// `watch`.
    public static let watch = AccessScopes(rawValue: 1)
    /// `drive`.
    public static let drive = AccessScopes(rawValue: 2)
    /// `control`.
    public static let control = AccessScopes(rawValue: 4)
    /// `create`.
    public static let create = AccessScopes(rawValue: 8)

    /// The scopes named by a `scope` claim: words separated by spaces; words that name no scope
    /// are ignored. The claim is split at each space byte and its words compared as bytes: a
    /// space followed by a combining mark still separates two words (as `Character`s they are
    /// one), and only the exact bytes of a scope's name name it.
    public init(claim: String) {
        self = []
        for word in claim.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true) {
            if let scope = AccessScope.allCases.first(where: { $0.rawValue.utf8.elementsEqual(word) }) {
                insert(AccessScopes(scope))
            }
        }
    }

    /// Whether one of the scopes covers `needed`.
    public func covers(_ needed: AccessScope) -> Bool {
        AccessScope.allCases.contains { contains(AccessScopes($0)) && $0.covers(needed) }
    }

    /// The scopes' names, in the order of ``AccessScope``, separated by spaces.
    public var claim: String {
        AccessScope.allCases.filter { contains(AccessScopes($0)) }.map(\.rawValue).joined(separator: " ")
    }
}
