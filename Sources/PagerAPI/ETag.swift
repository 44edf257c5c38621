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

    /// Parses `If-Match`/`If-None-Match`: `*`, or a list of tags; weak tags compare by their value
    /// and tags that are not ours match nothing.
    static func precondition(from header: String) -> VersionPrecondition {
        let trimmed = header.trimmingASCIISpaces()
        if trimmed == "*" { return .any }
        var versions: [Int] = []
        for part in trimmed.split(separator: ",") {
            var tag = String(part).trimmingASCIISpaces()
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            guard tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\""),
                let version = Int(tag.dropFirst().dropLast())
            else { continue }
            versions.append(version)
        }
        return .oneOf(versions)
    }
}
