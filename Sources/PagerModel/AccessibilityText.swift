/// The texts a pager's accessibility descriptors are written from (docs/api.md, «Accessibility»). Each may use the
/// placeholders `{position}` (1-based), `{count}`, `{title}` and `{label}`.
public struct AccessibilityText: Sendable, Equatable {
    public var tabValueFormat = "Tab {position} of {count}"
    public var pageValueFormat = "Page {position} of {count}"
    public var firstPageMessage = "This is the first page"
    public var lastPageMessage = "This is the last page"

    /// The defaults docs/api.md gives («Accessibility»).
    public init() {}

    /// The placeholders a text may use.
    public static let placeholders: Set<String> = ["position", "count", "title", "label"]

    /// The most times a text may name `{title}` and `{label}` together: each stands for up to
    /// ``Page/maxTitleBytes`` bytes, and a tab's value is written for every tab of every document.
    public static let maxTextPlaceholders = 4

    /// Checks every text's length and placeholders; `field` names the setting.
    func validate(field: String) throws(PagerError) {
        for (text, member) in [
            (tabValueFormat, "tabValueFormat"), (pageValueFormat, "pageValueFormat"),
            (firstPageMessage, "firstPageMessage"), (lastPageMessage, "lastPageMessage"),
        ] {
            try Page.validateTitle(text, field: "\(field).\(member)")
            let names = Self.names(in: text)
            for name in names where !Self.placeholders.contains(name) {
                throw .invalid(
                    field: "\(field).\(member)",
                    "'{\(name)}' is not a placeholder; use {position}, {count}, {title} or {label}.")
            }
            guard names.count(where: { $0 == "title" || $0 == "label" }) <= Self.maxTextPlaceholders else {
                throw .invalid(
                    field: "\(field).\(member)",
                    "A text names {title} and {label} at most \(Self.maxTextPlaceholders) times in all.")
            }
        }
    }

    /// The `{letters}` in `text`, in order.
    static func names(in text: String) -> [String] {
        var names: [String] = []
        var text = text
        text.withUTF8 { bytes in
            scan(bytes) { name in
                names.append(String(decoding: name, as: UTF8.self))
            } literal: { _ in
            }
        }
        return names
    }

    /// `text` with each placeholder replaced by its value, after `leading` and ", " when
    /// `leading` is given (an announcement's "label, value"). It runs for every tab of every state
    /// document, so it writes the UTF-8 bytes into one buffer on the stack and makes one String
    /// of them at the end: a result of up to 15 bytes, as the default texts give, allocates nothing.
    static func format(
        _ text: String, position: Int, count: Int, title: String, label: String, leading: String? = nil
    ) -> String {
        var text = text, title = title, label = label, leading = leading ?? ""
        // A placeholder takes at least three bytes of `text` (`{x}`), and its value at most the
        // longer of the title, the label and 20 bytes (an Int).
        let placeholders = text.utf8.count / 3 + 1
        let capacity =
            leading.utf8.count + 2 + text.utf8.count + placeholders * max(20, title.utf8.count, label.utf8.count)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var written = 0
            func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                (buffer.baseAddress! + written).update(from: base, count: bytes.count)
                written += bytes.count
            }
            func append(_ number: Int) {
                // Positions and counts are never negative; the digits go in last one first.
                var rest = number.magnitude, digits = 1
                while rest >= 10 {
                    rest /= 10
                    digits += 1
                }
                rest = number.magnitude
                for at in stride(from: written + digits - 1, through: written, by: -1) {
                    buffer[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                written += digits
            }
            if !leading.isEmpty {
                leading.withUTF8 { append($0) }
                let comma: StaticString = ", "
                append(UnsafeBufferPointer(start: comma.utf8Start, count: comma.utf8CodeUnitCount))
            }
            text.withUTF8 { bytes in
                scan(bytes) { name in
                    switch Placeholder(name) {
                    case .position: append(position)
                    case .count: append(count)
                    case .title: title.withUTF8 { append($0) }
                    case .label: label.withUTF8 { append($0) }
                    case nil: append(UnsafeBufferPointer(rebasing: name.base[(name.startIndex - 1)...name.endIndex]))
                    }
                } literal: { piece in
                    append(UnsafeBufferPointer(rebasing: piece))
                }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<written]), as: UTF8.self)
        }
    }

    /// The placeholders, recognised from their letters.
    private enum Placeholder {
        case position, count, title, label

        init?(_ name: Slice<UnsafeBufferPointer<UInt8>>) {
            switch (name.count, name.first) {
            case (8, UInt8(ascii: "p")) where Self.spells(name, "position"): self = .position
            case (5, UInt8(ascii: "c")) where Self.spells(name, "count"): self = .count
            case (5, UInt8(ascii: "t")) where Self.spells(name, "title"): self = .title
            case (5, UInt8(ascii: "l")) where Self.spells(name, "label"): self = .label
            default: return nil
            }
        }

        private static func spells(_ name: Slice<UnsafeBufferPointer<UInt8>>, _ word: StaticString) -> Bool {
            word.withUTF8Buffer { name.elementsEqual($0) }
        }
    }

    /// Walks `bytes`, calling `placeholder` with the letters of each `{letters}` and `literal`
    /// with the bytes between them.
    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, placeholder: (Slice<UnsafeBufferPointer<UInt8>>) -> Void,
        literal: (Slice<UnsafeBufferPointer<UInt8>>) -> Void
    ) {
        var start = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, isASCIILetter(bytes[end]) { end += 1 }
            if end > index + 1, end < bytes.count, bytes[end] == UInt8(ascii: "}") {
                literal(bytes[start..<index])
                placeholder(bytes[(index + 1)..<end])
                index = end + 1
                start = index
            } else {
                index += 1
            }
        }
        literal(bytes[start..<bytes.count])
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}

/// What a screen reader is told about one tab (docs/api.md, «Accessibility»).
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

/// What a screen reader is told about the pager as a whole (docs/api.md, «Accessibility»).
public struct PagerAccessibility: Sendable, Equatable {
    public var value: String?
    public var traits: [String]
    public var actions: [String]
    public var platformActions: [String]
    /// `polite`, or `off` while an automatic advance would otherwise be read out.
    public var liveRegion: String
}
