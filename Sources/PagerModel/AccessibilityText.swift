/// The texts a pager's accessibility descriptors are written from (SPEC §5.9). Each may use the
/// placeholders `{position}` (1-based), `{count}`, `{title}` and `{label}`.
public struct AccessibilityText: Sendable, Equatable {
    public var tabValueFormat = "Tab {position} of {count}"
    public var pageValueFormat = "Page {position} of {count}"
    public var firstPageMessage = "This is the first page"
    public var lastPageMessage = "This is the last page"

    /// The defaults of the spec.
    public init() {}

    /// The placeholders a text may use.
    public static let placeholders: Set<String> = ["position", "count", "title", "label"]

    /// Checks every text's length and placeholders; `field` names the setting.
    func validate(field: String) throws(PagerError) {
        for (text, member) in [
            (tabValueFormat, "tabValueFormat"), (pageValueFormat, "pageValueFormat"),
            (firstPageMessage, "firstPageMessage"), (lastPageMessage, "lastPageMessage"),
        ] {
            try Page.validateTitle(text, field: "\(field).\(member)")
            for name in Self.names(in: text) where !Self.placeholders.contains(name) {
                throw .invalid(
                    field: "\(field).\(member)",
                    "'{\(name)}' is not a placeholder; use {position}, {count}, {title} or {label}.")
            }
        }
    }

    /// The `{letters}` in `text`, in order.
    static func names(in text: String) -> [String] {
        var names: [String] = []
        Self.scan(text) { name in
            names.append(name)
        } literal: { _ in
        }
        return names
    }

    /// `text` with each placeholder replaced by its value.
    static func format(_ text: String, position: Int, count: Int, title: String, label: String) -> String {
        var result = ""
        scan(text) { name in
            switch name {
            case "position": result += String(position)
            case "count": result += String(count)
            case "title": result += title
            case "label": result += label
            default: result += "{\(name)}"
            }
        } literal: { piece in
            result += piece
        }
        return result
    }

    /// Walks `text`, calling `placeholder` for each `{letters}` and `literal` for the rest.
    private static func scan(_ text: String, placeholder: (String) -> Void, literal: (Substring) -> Void) {
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            let letters = rest[afterOpen...].prefix { $0.isASCII && $0.isLetter }
            let close = letters.endIndex
            if !letters.isEmpty, close < rest.endIndex, rest[close] == "}" {
                literal(rest[..<open])
                placeholder(String(letters))
                rest = rest[rest.index(after: close)...]
            } else {
                literal(rest[...open])
                rest = rest[afterOpen...]
            }
        }
        literal(rest)
    }
}

/// What a screen reader is told about one tab (SPEC §5.9).
public struct TabAccessibility: Sendable, Equatable {
    public var label: String
    public var hint: String?
    public var value: String
    public var selected: Bool
    public var traits: [String]
    public var actions: [String]

    /// Creates a descriptor.
    public init(label: String, hint: String?, value: String, selected: Bool, traits: [String], actions: [String]) {
        self.label = label
        self.hint = hint
        self.value = value
        self.selected = selected
        self.traits = traits
        self.actions = actions
    }
}

/// What a screen reader is told about the pager as a whole (SPEC §5.9).
public struct PagerAccessibility: Sendable, Equatable {
    public var value: String?
    public var traits: [String]
    public var actions: [String]
    public var platformActions: [String]
    /// `polite`, or `off` while an automatic advance would otherwise be read out.
    public var liveRegion: String
}
