import Foundation
import JSON
import PagerAccess
import PagerModel
import PagerWire
import Testing

@testable import PagerAPI

/// openapi.json against the Swift code: the limits it states are the model's constants, and its
/// problem codes are the ones the server can raise. The document is read from the bytes the
/// server serves (`OpenAPIDocument.bytes`, embedded at build time).
@Suite("openapi.json states the limits and problem codes the code enforces")
struct ContractTests {
    let document: JSONValue

    init() throws { document = try JSONParser.parse(OpenAPIDocument.bytes) }

    /// The schema at `path` under `components.schemas` (object members, then `properties` of each
    /// step after the first; `[]` steps into `items`, `?` into the non-null branch of an `anyOf`).
    func schema(_ name: String, _ path: [String] = []) throws -> JSONValue {
        var schema = try #require(document["components"]?["schemas"]?[name], "no schema \(name)")
        for step in path {
            if schema["anyOf"] != nil {
                schema = try #require(schema["anyOf"]?.arrayValue?.first { $0["type"] != "null" })
            }
            if let reference = schema["$ref"]?.stringValue {
                let target = String(reference.dropFirst("#/components/schemas/".count))
                schema = try #require(document["components"]?["schemas"]?[target])
            }
            switch step {
            case "[]": schema = try #require(schema["items"], "\(name): no items at \(step)")
            default: schema = try #require(schema["properties"]?[step], "\(name): no property \(step)")
            }
        }
        return schema
    }

    @Test("the server serves openapi.json as it is in the repository, byte for byte")
    func embedded() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try String(contentsOf: root.appending(path: "openapi.json"), encoding: .utf8)
        #expect(file.hasSuffix("\n") && OpenAPIDocument.text + "\n" == file)
        #expect(OpenAPIDocument.bytes == Array(OpenAPIDocument.text.utf8))
    }

    @Test("the problem codes are ProblemCode's, every one")
    func problemCodes() throws {
        let listed = try #require(schema("ProblemCode")["enum"]?.arrayValue).compactMap(\.stringValue)
        #expect(listed == ProblemCode.allCases.map(\.rawValue))
        #expect(try schema("Problem", ["code"])["$ref"] == "#/components/schemas/ProblemCode")
    }

    @Test("titles and accessibility texts have at most Page.maxTitleLength characters")
    func texts() throws {
        let texts: [(String, [String])] = [
            ("PageInput", ["title"]), ("PageInput", ["accessibilityLabel"]), ("PageInput", ["accessibilityHint"]),
            ("PagePatch", ["title"]), ("ScreenInput", ["title"]), ("Page", ["accessibilityLabel"]),
            ("AccessibilityText", ["tabValueFormat"]), ("AccessibilityTextInput", ["lastPageMessage"]),
        ]
        for (name, path) in texts {
            #expect(try schema(name, path)["maxLength"]?.intValue == Page.maxTitleLength, "\(name).\(path)")
        }
    }

    @Test("ids follow one pattern, the one Page.isValidID applies")
    func ids() throws {
        let pattern = "^[A-Za-z0-9._-]{1,\(Page.maxIDLength)}$"
        for (name, member) in [
            ("PageInput", "id"), ("ScreenInput", "id"), ("ActionInput", "id"), ("Page", "id"), ("Template", "name"),
            ("InsertFromCatalog", "from"), ("SelectByPage", "page"),
        ] {
            #expect(try schema(name, [member])["pattern"]?.stringValue == pattern, "\(name).\(member)")
        }
        let regex = try Regex(pattern)
        let longest = String(repeating: "a", count: Page.maxIDLength)
        for id in ["a", "A.b_c-9", longest, longest + "a", "", "a b", "é", "a/b", "a#", "ab\n"] {
            #expect(Page.isValidID(id) == (id.wholeMatch(of: regex) != nil), "\(id)")
        }
    }

    @Test("lengths in points are at most Page.maxLength")
    func lengths() throws {
        let positive: [(String, [String])] = [
            ("ViewportInput", ["width"]), ("ViewportInput", ["height"]), ("Viewport", ["width"]),
            ("PageInput", ["tabWidth"]), ("PagePatch", ["tabWidth"]), ("TabBarInput", ["minTabWidth"]),
            ("TabBarInput", ["charWidth"]), ("IndicatorInput", ["height"]), ("TabBarSettings", ["minTabWidth"]),
            ("TabBarInput", ["maxTabWidth"]), ("TabBarSettings", ["maxTabWidth"]),
            ("TabBarInput", ["selectedTabWidth"]),
            ("TabBarSettings", ["selectedTabWidth"]),
        ]
        for (name, path) in positive {
            let length = try schema(name, path)
            #expect(length["maximum"]?.numberValue == Page.maxLength, "\(name).\(path)")
            #expect(length["exclusiveMinimum"] == 0, "\(name).\(path)")
        }
        let insets = ["leading", "trailing", "firstLeading", "lastTrailing"].flatMap { member in
            [("TabBarInput", ["indicator", "inset", member]), ("TabBarSettings", ["indicator", "inset", member])]
        }
        for (name, path) in [
            ("TabBarInput", ["spacing"]), ("TabBarInput", ["inset"]), ("TabBarSettings", ["tabPadding"]),
            ("ViewportInput", ["pageSpacing"]), ("ViewportSettings", ["pageSpacing"]), ("Viewport", ["pageSpacing"]),
        ] + insets {
            let length = try schema(name, path)
            #expect(length["maximum"]?.numberValue == Page.maxLength, "\(name).\(path)")
            #expect(length["minimum"] == 0, "\(name).\(path)")
        }
    }

    @Test("icons, badges, intervals, preload and scales have the model's bounds")
    func otherBounds() throws {
        for (name, path) in [("TabDecorationInput", ["icon"]), ("TabDecoration", ["icon"]), ("Tab", ["icon"])] {
            let icon = try schema(name, path)
            #expect(icon["minLength"] == 1 && icon["maxLength"]?.intValue == TabDecoration.maxIconLength, "\(name)")
        }
        let badge = try #require(schema("Badge")["oneOf"]?.arrayValue)
        #expect(badge.count == 2)
        #expect(badge.first?["maxLength"]?.intValue == TabDecoration.maxBadgeLength)
        #expect(badge.last?["minimum"] == 0 && badge.last?["maximum"]?.intValue == TabDecoration.maxCount)
        for (name, path) in [
            ("AutoAdvanceInput", ["interval"]), ("AutoAdvance", ["interval"]), ("AutoAdvanceState", ["interval"]),
        ] {
            let interval = try schema(name, path)
            #expect(interval["minimum"]?.intValue == AutoAdvanceSettings.intervals.lowerBound, "\(name)")
            #expect(interval["maximum"]?.intValue == AutoAdvanceSettings.intervals.upperBound, "\(name)")
        }
        for name in ["SettingsPatch", "CreateSession", "Settings"] {
            #expect(try schema(name, ["preload"])["maximum"]?.intValue == PagerSettings.maxPreload, "\(name)")
        }
        for (name, member) in [("TitleStyleInput", "scale"), ("TitleStyle", "selectedScale")] {
            #expect(try schema(name, [member])["maximum"]?.numberValue == TitleStyle.maxScale, "\(name)")
        }
    }

    @Test("the layout settings take the model's values: tab layouts, positions and pages per view")
    func layoutValues() throws {
        func choices(_ name: String, _ path: [String]) throws -> [String] {
            try #require(schema(name, path)["enum"]?.arrayValue).compactMap(\.stringValue)
        }
        let layouts = TabLayout.allCases.map(\.rawValue)
        for name in ["TabBarInput", "TabBarSettings", "TabBar"] {
            #expect(try choices(name, ["layout"]) == layouts, "\(name)")
        }
        #expect(try choices("TemplateSummary", ["layout"]) == layouts)
        #expect(try choices("TabBar", ["effectiveLayout"]) == [TabLayout.fixed, .scrollable].map(\.rawValue))
        for name in ["TabBarInput", "TabBarSettings"] {
            for member in ["alignment", "selectedScrollPosition"] {
                #expect(try choices(name, [member]) == TabBarPosition.allCases.map(\.rawValue), "\(name).\(member)")
            }
        }
        for name in ["ViewportInput", "ViewportSettings", "Viewport"] {
            let perView = try schema(name, ["pagesPerView"])
            #expect(perView["minimum"] == 1 && perView["maximum"]?.numberValue == PagerSettings.maxPagesPerView)
        }
        #expect(try schema("Viewport", ["pageSize"])["exclusiveMinimum"] == 0)
        #expect(try schema("Tab", ["baseWidth"])["exclusiveMinimum"] == 0)
    }

    @Test("release and drag bounds, token lifetimes and colours are the model's")
    func releaseTokenAndColourBounds() throws {
        for name in ["Settings", "SettingsPatch", "CreateSession", "Template"] {
            let timeout = try schema(name, ["dragTimeout"])
            #expect(timeout["minimum"] == 0, "\(name)")  // 0: never; otherwise from the range's start
            #expect(timeout["maximum"]?.intValue == PagerSettings.dragTimeoutRange.upperBound, "\(name)")
            if name != "Settings" {  // the request forms say where the values other than 0 start
                #expect(
                    try #require(timeout["description"]?.stringValue).contains(
                        "from \(PagerSettings.dragTimeoutRange.lowerBound)"), "\(name)")
            }
        }
        for name in ["Release", "ReleaseInput"] {
            let flick = try schema(name, ["flickVelocity"])
            #expect(flick["exclusiveMinimum"] == 0 && flick["maximum"]?.numberValue == ReleaseSettings.maxFlickVelocity)
        }
        let velocity = try schema("TransitionRelease", ["velocity"])
        #expect(velocity["minimum"]?.numberValue == -Pager.maxReleaseVelocity)
        #expect(velocity["maximum"]?.numberValue == Pager.maxReleaseVelocity)
        #expect(try schema("MintTokenRequest", ["ttl"])["minimum"]?.intValue == AccessVerifier.lifetimeRange.lowerBound)
        // Colours: what the input pattern admits is what RGBA(hex:) reads; answers are upper-case #RRGGBBAA.
        let input = try Regex(try #require(schema("TitleStyleInput", ["color"])["pattern"]?.stringValue))
        #expect(
            try schema("TitleStyleInput", ["selectedColor"])["pattern"]
                == schema("TitleStyleInput", ["color"])["pattern"])
        for text in ["#1A2B3C", "#1a2b3c80", "#FFFFFFFF", "#12345", "#1234567", "123456", "#GG0000", "#1A2B3C4D5", ""] {
            #expect((RGBA(hex: text) != nil) == (text.wholeMatch(of: input) != nil), "\(text)")
        }
        for (name, member) in [("Tab", "color"), ("TitleStyle", "color"), ("TitleStyle", "selectedColor")] {
            #expect(try schema(name, [member])["pattern"] == "^#[0-9A-F]{8}$", "\(name).\(member)")
        }
    }

    @Test("every bound openapi.json states is one the code has")
    func everyBound() throws {
        // The model's constants, and the bounds of fractions and progress (0, 1, −1), by keyword.
        let known: [String: Set<Double>] = [
            "maxLength": Set(
                [Page.maxTitleLength, TabDecoration.maxIconLength, TabDecoration.maxBadgeLength].map(Double.init)),
            "minLength": [1],
            "maxItems": [2],  // an indicator is at most two segments (a bar's end and start in a loop)
            "exclusiveMinimum": [0],
            "minimum": [
                0, 1, -1, -Pager.maxReleaseVelocity, Double(AutoAdvanceSettings.intervals.lowerBound),
                Double(AccessVerifier.lifetimeRange.lowerBound),
            ],
            "maximum": [
                1, Page.maxLength, Double(TabDecoration.maxCount), PagerSettings.maxPagesPerView, TitleStyle.maxScale,
                ReleaseSettings.maxFlickVelocity, Pager.maxReleaseVelocity,
                Double(PagerSettings.dragTimeoutRange.upperBound), Double(AutoAdvanceSettings.intervals.upperBound),
                Double(PagerSettings.maxPreload),
            ],
        ]
        var unknown: [String] = []
        func visit(_ node: JSONValue, _ path: String) {
            if let object = node.objectValue {
                for (keyword, values) in known {
                    if let bound = object[keyword]?.numberValue, !values.contains(bound) {
                        unknown.append("\(path) \(keyword) \(bound)")
                    }
                }
                for (key, member) in object where key != "examples" { visit(member, "\(path)/\(key)") }
            } else if let array = node.arrayValue {
                for (index, member) in array.enumerated() { visit(member, "\(path)/\(index)") }
            }
        }
        visit(document, "")
        #expect(unknown.isEmpty, "bounds with no constant in the code: \(unknown)")
    }

    @Test("the settings document has exactly the members the Settings schema lists, at every depth")
    func settingsDocumentMembers() throws {
        var settings = PagerSettings()
        settings.tabBar.title = TitleStyle()
        settings.tabBar.maxTabWidth = 200
        settings.tabBar.selectedTabWidth = 120
        settings.trailingAction = PagerAction(id: "add", title: "Add")
        settings.emptyState = EmptyState(title: "None", action: PagerAction(id: "add", title: "Add"))
        for document in [PagerSettings().document, settings.document] {
            try expectMembers(of: .object(document), as: schema("Settings"), at: "Settings")
        }
    }

    /// Checks that `value`'s members (recursively, through references and nullable branches) are
    /// the ones `schema` lists, and that the ones it requires are among them.
    func expectMembers(of value: JSONValue, as schema: JSONValue, at path: String) throws {
        var schema = schema
        if let branches = schema["anyOf"]?.arrayValue {
            guard !value.isNull else { return }
            schema = try #require(branches.first { $0["type"] != "null" })
        }
        if let reference = schema["$ref"]?.stringValue {
            let target = String(reference.dropFirst("#/components/schemas/".count))
            schema = try #require(document["components"]?["schemas"]?[target])
        }
        guard let object = value.objectValue, let properties = schema["properties"]?.objectValue else { return }
        let required = Set(
            try #require(schema["required"]?.arrayValue, "\(path): no required").compactMap(\.stringValue))
        #expect(Set(object.keys) == Set(properties.keys), "\(path)")
        #expect(required.isSubset(of: object.keys), "\(path)")
        for (key, member) in object {
            if let memberSchema = properties[key] {
                try expectMembers(of: member, as: memberSchema, at: "\(path).\(key)")
            }
        }
    }
}
