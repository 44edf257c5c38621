import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerSessions
import PagerWire

extension Request {
    /// The JSON object body, or nil when there is no body. A body must be labelled
    /// `application/json` (or a `+json` type), parse, and be an object. A request without a body
    /// that declares another media type is refused too: that is what a cross-site form sends,
    /// with no preflight, so it must not move a pager.
    func jsonObject() throws(APIError) -> JSONObject? {
        let contentType = headers.value(of: .contentType) ?? ""
        guard !body.isEmpty else {
            guard contentType.isEmpty || Self.isJSONMediaType(contentType) else {
                throw APIError(
                    status: 415, code: .unsupportedMediaType,
                    detail: "Content-Type '\(contentType)' is not accepted; send no body, or application/json.")
            }
            return nil
        }
        guard Self.isJSONMediaType(contentType) else {
            throw APIError(
                status: 415, code: .unsupportedMediaType,
                detail: contentType.isEmpty
                    ? "A request body needs 'Content-Type: application/json'."
                    : "Content-Type '\(contentType)' is not accepted; send application/json.")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw APIError(status: 400, code: .invalidJSON, detail: "The body is not valid JSON: \(error).")
        }
        guard let object = value.objectValue else {
            throw APIError.invalidRequest("The body must be a JSON object, not \(value.kindName).")
        }
        return object
    }

    /// Whether a Content-Type names JSON: its media type (before any `;`, spaces and tabs
    /// around it ignored, in any case) is `application/json` or `application/…+json`. It reads
    /// the bytes in place: every command with a body asks.
    static func isJSONMediaType(_ contentType: String) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var start = 0
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            let type = UnsafeBufferPointer(rebasing: bytes[start..<end])
            func matches(_ word: StaticString, at offset: Int) -> Bool {
                guard offset >= 0, offset + word.utf8CodeUnitCount <= type.count else { return false }
                return word.withUTF8Buffer { letters in
                    letters.indices.allSatisfy { at in
                        let byte = type[offset + at]
                        // `word` is lower case; an upper-case ASCII letter matches its lower case.
                        let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                        return lower == letters[at]
                    }
                }
            }
            let prefix = "application/".utf8.count
            if type.count == prefix + 4 { return matches("application/json", at: 0) }
            return type.count > prefix + 5 && matches("application/", at: 0) && matches("+json", at: type.count - 5)
        }
    }

    /// The JSON object body; an empty body counts as `{}`.
    func jsonObjectOrEmpty() throws(APIError) -> JSONObject {
        try jsonObject() ?? JSONObject()
    }

    /// The body's reader, refusing members other than `allowed`.
    func reader(allowing allowed: [String]) throws(APIError) -> JSONReader {
        try JSONReader.reading(try jsonObjectOrEmpty(), allowing: allowed)
    }

    /// The precondition of a change, if either header was sent: `If-Match` (compared strongly)
    /// must name the current version, and `If-None-Match` (compared weakly; `*` names every
    /// version) must not (RFC 9110 §13.2.2); otherwise the change answers 412.
    var versionPrecondition: VersionPrecondition? {
        guard let noneMatch = headers.value(of: .ifNoneMatch).map({ ETag.precondition(from: $0, weak: true) }) else {
            return requiredVersion
        }
        return (requiredVersion ?? .any).excluding(noneMatch)
    }

    /// The `If-Match` precondition, if the header was sent: of a read as well, which answers 412
    /// when it does not name the current version.
    var requiredVersion: VersionPrecondition? {
        headers.value(of: .ifMatch).map { ETag.precondition(from: $0, weak: false) }
    }
}

extension JSONReader {
    /// A reader of `object`, refusing members other than `allowed`.
    static func reading(_ object: JSONObject, allowing allowed: [String]) throws(APIError) -> JSONReader {
        do {
            let reader = try JSONReader(.object(object))
            try reader.allowOnly(allowed)
            return reader
        } catch {
            throw APIError(pagerError: error)
        }
    }

    /// Runs `body`, turning pager errors into API errors.
    func read<T>(_ body: (JSONReader) throws(PagerError) -> T) throws(APIError) -> T {
        do { return try body(self) } catch { throw APIError(pagerError: error) }
    }
}
