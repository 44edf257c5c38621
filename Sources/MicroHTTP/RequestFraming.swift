import HTTPTypes

/// Checks the framing headers of a request (and its `Host`) before any of its body is read.
enum RequestFraming {
    /// The path of a request target: the target itself in origin form (`/v1/sessions`), and the
    /// path after the authority in absolute form (`http://host/v1/sessions`), which a server
    /// must accept too (RFC 9112 §3.2.2); `/` when that form has no path. libmicrohttpd has cut
    /// the query off already.
    static func path(ofTarget target: String) -> String {
        guard !target.hasPrefix("/") else { return target }
        let scheme = target.prefix(8).lowercased()
        let schemeLength = scheme.hasPrefix("http://") ? 7 : scheme.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return target }
        let rest = target.dropFirst(schemeLength)
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...])
    }

    /// The refusal a request's headers call for, or nil when its framing is sound.
    static func refusal(for headers: HTTPFields, maxBodyBytes: Int) -> HTTPRefusal? {
        // One pass over the fields, keeping the first of each and a count, with no lists made.
        var lengthCount = 0
        var encodingCount = 0
        var hostCount = 0
        var length: String?
        var encoding: String?
        for field in headers {
            if field.name == .contentLength {
                lengthCount += 1
                if length == nil { length = field.value }
            } else if field.name == .transferEncoding {
                encodingCount += 1
                if encoding == nil { encoding = field.value }
            } else if field.name == Self.host {
                hostCount += 1
            } else if let folded = foldedFramingName(field.name) {
                return .ambiguousFraming(reason: "a folded \(folded) line was sent")
            }
        }
        if hostCount > 1 {
            return .malformed(reason: "Host was sent more than once")
        }
        if lengthCount > 0 && encodingCount > 0 {
            return .ambiguousFraming(reason: "Content-Length and Transfer-Encoding were both sent")
        }
        if lengthCount > 1 {
            return .ambiguousFraming(reason: "Content-Length was sent more than once")
        }
        if encodingCount > 1 {
            return .ambiguousFraming(reason: "Transfer-Encoding was sent more than once")
        }
        if let encoding {
            let coding = encoding.trimmingASCIISpaces()
            guard coding.lowercased() == "chunked" else {
                return .ambiguousFraming(reason: "Transfer-Encoding '\(coding)' is not supported; only chunked is")
            }
            return .lengthRequired
        }
        if let length {
            let digits = length.trimmingASCIISpaces()
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .ambiguousFraming(reason: "Content-Length '\(digits)' is not a decimal number")
            }
            // A length too large for Int is certainly over the cap.
            if Int(digits).map({ $0 > maxBodyBytes }) ?? true {
                return .bodyTooLarge(limit: maxBodyBytes)
            }
        }
        return nil
    }

    /// `Host` (swift-http-types makes it the request's authority, so it has no static name).
    private static let host = HTTPField.Name("Host")!

    /// The framing field a name stands for when it is one continued by a folded line (obs-fold):
    /// libmicrohttpd joins a line that starts with a space onto the one before, so
    /// `Transfer-Encoding:` folded onto ` chunked` arrives as a field named
    /// `Transfer-Encodingchunked`. A framing field that another parser might read differently is
    /// refused as ambiguous.
    private static func foldedFramingName(_ name: HTTPField.Name) -> String? {
        let canonical = name.canonicalName
        for framing in ["transfer-encoding", "content-length"] where canonical.hasPrefix(framing) {
            return framing == "content-length" ? "Content-Length" : "Transfer-Encoding"
        }
        return nil
    }
}
