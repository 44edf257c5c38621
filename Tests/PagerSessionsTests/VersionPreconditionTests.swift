import Testing

@testable import PagerSessions

/// `If-Match` and `If-None-Match` combine into one precondition by `excluding`: a version passes
/// when the first accepts it and the second does not (RFC 9110 §13.2.2).
@Suite("Version preconditions")
struct VersionPreconditionTests {
    // The forms are made in the test, not kept in a static: a multi-payload enum keeps its case
    // in a pointer's spare bits, which LeakSanitizer does not follow from a global.
    @Test("excluding accepts exactly what the first accepts and the second does not")
    func excluding() {
        let forms: [VersionPrecondition] = [
            .any, .oneOf([]), .oneOf([2]), .oneOf([1, 3]), .except([]), .except([2]), .except([1, 3, 4]),
        ]
        for first in forms {
            for second in forms {
                let combined = first.excluding(second)
                for version in 0...6 {
                    #expect(
                        combined.accepts(version) == (first.accepts(version) && !second.accepts(version)),
                        "\(first) excluding \(second) at version \(version)")
                }
            }
        }
    }

    @Test("a precondition accepts by its form")
    func accepts() {
        #expect(VersionPrecondition.any.accepts(7))
        #expect(VersionPrecondition.oneOf([3, 5]).accepts(5))
        #expect(!VersionPrecondition.oneOf([3, 5]).accepts(4))
        #expect(!VersionPrecondition.oneOf([]).accepts(0))
        #expect(VersionPrecondition.except([3]).accepts(4))
        #expect(!VersionPrecondition.except([3]).accepts(3))
    }
}
