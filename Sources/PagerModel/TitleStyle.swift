/// A colour with 8-bit channels, written `#RRGGBBAA`.
public struct RGBA: Sendable, Equatable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    /// Creates a colour.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Reads `#RRGGBB` or `#RRGGBBAA`, hex digits in either case; nil for anything else.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var channels: [UInt8] = []
        var index = 1
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            channels.append(high << 4 | low)
            index += 2
        }
        self.init(
            red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `#RRGGBBAA`, upper case.
    public var hex: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        for channel in [red, green, blue, alpha] {
            bytes.append(digits[Int(channel >> 4)])
            bytes.append(digits[Int(channel & 15)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Each channel at `fraction` of the way from this colour to `other`, rounded half up
    /// (floor(a + (b − a)·fraction + 0.5 + 1e-9), docs/api.md, «Tab rendering»).
    public func mixed(with other: RGBA, _ fraction: Double) -> RGBA {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            let value = (Double(a) + (Double(b) - Double(a)) * fraction + 0.5 + 1e-9).rounded(.down)
            return UInt8(min(max(value, 0), 255))
        }
        return RGBA(
            red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue),
            alpha: mix(alpha, other.alpha))
    }
}

/// How tab titles are drawn (docs/api.md, «Tab rendering»): colours and scales at rest and selected, interpolated
/// by each tab's selection.
public struct TitleStyle: Sendable, Equatable {
    public var color = RGBA(red: 0, green: 0, blue: 0)
    public var selectedColor = RGBA(red: 0x03, green: 0x7D, blue: 0xE9)
    public var scale = 1.0
    public var selectedScale = 1.0

    /// The defaults docs/api.md gives («Tab rendering»).
    public init() {}

    /// The largest scale accepted.
    public static let maxScale = 100.0
}

/// One page on screen and how much of it shows (docs/api.md, «Visibility»).
public struct VisiblePage: Sendable, Equatable {
    public var index: Int
    public var id: String
    public var fraction: Double

    /// Creates an entry.
    public init(index: Int, id: String, fraction: Double) {
        self.index = index
        self.id = id
        self.fraction = fraction
    }
}
