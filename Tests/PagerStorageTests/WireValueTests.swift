import JSON
import PagerModel
import PagerWire
import Testing

@testable import PagerStorage

@Suite("WireValue: each kind of value read in one place, by the API's reader and the record's")
struct WireValueTests {
    /// The sentence a conversion throws, or nil when it reads the value.
    static func failure<T>(_ read: () throws(WireMismatch) -> T) -> String? {
        do {
            _ = try read()
            return nil
        } catch { return error.description }
    }

    @Test("badges, colours, enumerations and integers, and what is said when a value is not one")
    func conversions() throws {
        #expect(try WireValue("new").badge() == .text("new"))
        #expect(try WireValue(12).badge() == .count(12))
        #expect(
            Self.failure { () throws(WireMismatch) in try WireValue(1.5).badge() }
                == "Expected a string or an integer, found a number.")
        #expect(
            Self.failure { () throws(WireMismatch) in try WireValue(true).badge() }
                == "Expected a string or an integer, found a boolean.")
        #expect(try WireValue("#01020304").color() == RGBA(red: 1, green: 2, blue: 3, alpha: 4))
        #expect(try WireValue("#C86432").color() == RGBA(red: 200, green: 100, blue: 50))
        #expect(
            Self.failure { () throws(WireMismatch) in try WireValue("#12").color() }
                == "'#12' is not a colour: use #RRGGBB or #RRGGBBAA.")
        #expect(try WireValue("loop").choice(PagerMode.self) == .loop)
        #expect(
            Self.failure { () throws(WireMismatch) in try WireValue("spiral").choice(PagerMode.self) }
                == "'spiral' is not one of bounded, loop.")
        #expect(try WireValue(3).integer() == 3)
        #expect(
            Self.failure { () throws(WireMismatch) in try WireValue(2.5).integer() }
                == "Expected an integer, found a number.")
        #expect(
            Self.failure { () throws(WireMismatch) in try WireValue(nil).string() } == "Expected a string, found null.")
    }

    @Test("the stored record's reader says the same as the API's for a value of the wrong kind")
    func recordReaderSharesTheConversions() throws {
        var again = Fields(["#12", "spiral", 7.5, [:]])
        var said: [String] = []
        do { _ = try again.color() } catch { said.append(error.description) }
        do { _ = try again.enumeration() as PagerMode } catch { said.append(error.description) }
        do { _ = try again.int() } catch { said.append(error.description) }
        do { _ = try again.array() } catch { said.append(error.description) }
        #expect(
            said == [
                "'#12' is not a colour: use #RRGGBB or #RRGGBBAA.", "'spiral' is not one of bounded, loop.",
                "Expected an integer, found a number.", "Expected an array, found an object.",
            ])
        #expect(again.isAtEnd)
    }
}
