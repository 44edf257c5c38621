extension String {
    /// The text without leading and trailing spaces and tabs, the optional whitespace HTTP allows
    /// around a field value (RFC 9110 §5.6.3). Returns the string itself, uncopied, when there is
    /// nothing to trim.
    package func trimmingASCIISpaces() -> String {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end {
            let last = bytes.index(before: end)
            guard bytes[last] == 0x20 || bytes[last] == 0x09 else { break }
            end = last
        }
        return start == bytes.startIndex && end == bytes.endIndex ? self : String(self[start..<end])
    }
}
