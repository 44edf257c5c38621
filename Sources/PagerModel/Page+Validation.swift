extension Page {
    /// The most characters a title (or any other text: a label, a hint, an action's title, an
    /// accessibility text) may have.
    public static let maxTitleLength = 200

    /// The most UTF-8 bytes a text may have besides its characters: four a character, which every
    /// ordinary text fits (a character of one code point takes at most four), while one character
    /// built of thousands of code points (a letter under 32,000 combining accents) does not. It
    /// keeps every state document within a size its limits give, whatever the text.
    public static let maxTitleBytes = 4 * maxTitleLength

    /// The most characters a page, screen, action or template id may have.
    public static let maxIDLength = 64

    /// Whether `id` is 1–64 characters of `[A-Za-z0-9._-]`.
    public static func isValidID(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard (1...maxIDLength).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default: false
            }
        }
    }

    /// Checks every rule a page must meet by itself; `field` prefixes the names in errors (an
    /// empty prefix names the members alone, as a page PATCH sends them).
    public func validate(field: String, limits: PagerLimits) throws(PagerError) {
        func path(_ member: String) -> String { field.isEmpty ? member : "\(field).\(member)" }
        try Self.validateID(id, field: path("id"))
        try Self.validateTitle(title, field: path("title"))
        if let tabWidth { try Self.validatePositive(tabWidth, field: path("tabWidth")) }
        try Self.validateContent(contentMeasure, field: path("content"), limits: limits)
        guard stack.count <= limits.maxStackDepth else {
            throw .limitExceeded(field: path("stack"), "A stack holds at most \(limits.maxStackDepth) screens.")
        }
        for (position, screen) in stack.enumerated() {
            try screen.validate(field: "\(path("stack"))[\(position)]", limits: limits)
        }
        try tab?.validate(field: path("tab"))
        if let accessibilityLabel { try Self.validateTitle(accessibilityLabel, field: path("accessibilityLabel")) }
        if let accessibilityHint { try Self.validateTitle(accessibilityHint, field: path("accessibilityHint")) }
    }

    static func validateID(_ id: String, field: String) throws(PagerError) {
        guard isValidID(id) else {
            throw .invalid(field: field, "An id is 1 to \(maxIDLength) characters of A-Z, a-z, 0-9, '.', '_' and '-'.")
        }
    }

    static func validateTitle(_ title: String, field: String) throws(PagerError) {
        // The bytes first: counting the characters of a very long text takes time.
        guard title.utf8.count <= maxTitleBytes, title.count <= maxTitleLength else {
            throw .invalid(
                field: field, "A text has at most \(maxTitleLength) characters and \(maxTitleBytes) bytes of UTF-8.")
        }
    }

    /// The largest length in points any width, spacing or inset may have, so that every derived
    /// position (a thousand tabs, offsets one period away) stays finite.
    public static let maxLength = 1e9

    static func validatePositive(_ value: Double, field: String) throws(PagerError) {
        guard value.isFinite, value > 0, value <= maxLength else {
            throw .invalid(field: field, "Must be a number greater than 0 and at most \(Int(maxLength)).")
        }
    }

    static func validateNonNegative(_ value: Double, field: String) throws(PagerError) {
        guard value.isFinite, value >= 0, value <= maxLength else {
            throw .invalid(field: field, "Must be a number from 0 to \(Int(maxLength)).")
        }
    }

    static func validateContent(_ measure: ContentMeasure, field: String, limits: PagerLimits) throws(PagerError) {
        let size = measure.jsonBytes
        guard measure == .empty || size <= limits.maxContentBytes else {
            throw .limitExceeded(
                field: field, "Content is \(size) bytes of JSON; at most \(limits.maxContentBytes) are allowed.")
        }
    }
}

extension Screen {
    /// Checks the screen's id, title and content.
    public func validate(field: String, limits: PagerLimits) throws(PagerError) {
        try Page.validateID(id, field: "\(field).id")
        if let title { try Page.validateTitle(title, field: "\(field).title") }
        if let contentMeasure { try Page.validateContent(contentMeasure, field: "\(field).content", limits: limits) }
    }
}

// MARK: - Stored bytes
