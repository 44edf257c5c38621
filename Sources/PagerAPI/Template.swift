import HTTPTypes
public import JSON
public import PagerModel
import PagerSessions
import PagerWire

/// A named page set that sessions can be created from: a definition with defaults, and a catalog
/// of pages that can be inserted later by id.
public struct Template: Sendable, Equatable {
    /// The name used in `{"template": name}`.
    public var name: String
    /// A sentence about what it models.
    public var description: String
    /// The definition members, merged under a create request's overrides.
    public var definition: JSONObject
    /// Pages that can be inserted by id.
    public var catalog: [Page]

    /// Decodes and fully validates a template file's contents; `field` paths in errors are
    /// relative to the file.
    public init(json value: JSONValue, limits: PagerLimits = PagerLimits()) throws(PagerError) {
        let reader = try JSONReader(value)
        try reader.allowOnly(PagerDefinition.members.union(["name", "description", "catalog"]))
        name = try reader.requiredString("name")
        guard Page.isValidID(name) else {
            throw .invalid(
                field: "name",
                "A template name is 1 to \(Page.maxIDLength) characters of A-Z, a-z, 0-9, '.', '_' and '-'.")
        }
        description = try reader.string("description") ?? ""
        var catalog: [Page] = []
        for (position, page) in (try reader.array("catalog") ?? []).enumerated() {
            catalog.append(try Page(json: page, field: "catalog[\(position)]"))
        }
        self.catalog = catalog
        var definition = reader.object
        definition["name"] = nil
        definition["description"] = nil
        definition["catalog"] = nil
        self.definition = definition
        // A template must make a valid pager on its own.
        _ = try makeDefinition(overrides: JSONObject()).makePager(limits: limits)
    }

    /// The definition of a session created from this template with `overrides` merged over it.
    public func makeDefinition(
        overrides: JSONObject, extraMembers: Set<String> = []
    ) throws(PagerError) -> PagerDefinition {
        let reader = try JSONReader(.object(overrides))
        try reader.allowOnly(PagerDefinition.members.union(extraMembers))
        var merged = definition.merging(patch: overrides)
        for key in extraMembers { merged[key] = nil }
        if merged["pages"] == nil { merged["pages"] = .array([]) }
        return try PagerDefinition(json: merged, catalog: catalog)
    }
}

extension Template {
    /// The definition a create body asks for: `{"template": name, …overrides}` merges the
    /// overrides over the named template (RFC 7396), anything else is a definition by itself.
    /// Runs before the engine is entered, so decoding (which measures every page's content)
    /// never holds it.
    static func definition(from body: JSONObject, templates: [String: Template]) throws(APIError) -> PagerDefinition {
        var template: Template?
        if let nameValue = body["template"], !nameValue.isNull {
            guard let name = nameValue.stringValue else {
                throw APIError.invalidRequest("Expected a string, found \(nameValue.kindName).", field: "template")
            }
            guard let named = templates[name] else { throw APIError.templateNotFound(name, field: "template") }
            template = named
        }
        do throws(PagerError) {
            if let template { return try template.makeDefinition(overrides: body, extraMembers: ["template"]) }
            return try PagerDefinition(json: body, extraMembers: ["template"])
        } catch {
            throw APIError(pagerError: error)
        }
    }
}
