// For comparison with the typed reader: the create body decoded the way types generated from
// openapi.json (swift-openapi-generator's `types` mode) would decode it, Codable structs with
// optional members and string enumerations read by Foundation's JSONDecoder. Written by hand
// for the members `createBody` uses. It checks no unknown member, names no field in its errors
// and makes none of the model's values: a lower bound on what that path would cost.
import Benchmark
import Foundation

func codableComparisonBenchmarks() {
    for count in [4, 100] {
        let body = Data(createBody(pages: count).utf8)
        Benchmark("decoding: create body into Codable mirrors, JSONDecoder, no checks (\(count) pages)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try! JSONDecoder().decode(CodableCreate.self, from: body))
            }
        }
    }
}

/// Any JSON value, as a generator types free-form content.
enum AnyJSON: Decodable {
    case null, bool(Bool), number(Double), string(String), array([AnyJSON]), object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }
}

struct CodableCreate: Decodable {
    enum Mode: String, Decodable { case bounded, loop }
    enum Direction: String, Decodable { case ltr, rtl }
    enum Swipe: String, Decodable { case both, forward, reverse, none }
    enum BandStyle: String, Decodable { case none, linear, resistance }
    enum Layout: String, Decodable { case fixed, scrollable, auto }
    enum IndicatorStyle: String, Decodable { case linear, elastic, fade }
    enum Tracking: String, Decodable { case continuous, halfway }

    struct Page: Decodable {
        var id: String
        var title: String
        var content: [String: AnyJSON]?
    }
    struct Viewport: Decodable {
        var width: Double?
        var height: Double?
    }
    struct RubberBand: Decodable {
        var style: BandStyle?
        var ratio: Double?
    }
    struct Indicator: Decodable {
        var style: IndicatorStyle?
        var height: Double?
        var tracking: Tracking?
    }
    struct Title: Decodable {
        var color: String?
        var selectedColor: String?
        var scale: Double?
        var selectedScale: Double?
    }
    struct TabBar: Decodable {
        var layout: Layout?
        var spacing: Double?
        var indicator: Indicator?
        var title: Title?
    }
    struct Action: Decodable {
        var id: String
        var title: String
    }
    struct AutoAdvance: Decodable {
        var enabled: Bool?
        var interval: Int?
    }
    struct Release: Decodable {
        var flickVelocity: Double?
    }

    var pages: [Page]?
    var mode: Mode?
    var viewport: Viewport?
    var layoutDirection: Direction?
    var swipe: Swipe?
    var rubberBand: RubberBand?
    var tabBar: TabBar?
    var preload: Int?
    var trailingAction: Action?
    var autoAdvance: AutoAdvance?
    var release: Release?
    var dragTimeout: Int?
}
