import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerSessions

/// Entity tags: pagerd's are the version in quotes, `"7"`.
enum ETag {
    static func header(for version: Int) -> String { "\"\(version)\"" }

    /// The `ETag` field for `version`.
    static func field(for version: Int) -> HTTPField { HTTPField(name: .eTag, value: header(for: version)) }

    /// Parses `If-Match` (`weak` false) or `If-None-Match` (`weak` true): `*`, or a list of tags.
    /// `If-Match` compares strongly (RFC 9110 §13.1.1): a weak tag `W/"7"` matches nothing there,
    /// while `If-None-Match` compares weakly and takes it as `"7"`. A tag matches a version only
    /// when it is exactly what pagerd sends for it, so `"07"` and `"+7"` match nothing; tags that
    /// are not ours match nothing.
    static func precondition(from header: String, weak: Bool) -> VersionPrecondition {
        let trimmed = header.trimmingASCIISpaces()
        if trimmed == "*" { return .any }
        var versions: [Int] = []
        for part in trimmed.split(separator: ",") {
            var tag = Substring(String(part).trimmingASCIISpaces())
            if tag.hasPrefix("W/") {
                guard weak else { continue }
                tag = tag.dropFirst(2)
            }
            guard tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\""),
                let version = Self.version(tag.dropFirst().dropLast())
            else { continue }
            versions.append(version)
        }
        return .oneOf(versions)
    }

    /// The version a tag's text names when it is written as pagerd writes versions: decimal digits
    /// without a sign or a leading zero.
    private static func version(_ text: Substring) -> Int? {
        guard let first = text.utf8.first, first != UInt8(ascii: "0"), text.utf8.count <= 18,
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(text)
    }
}
