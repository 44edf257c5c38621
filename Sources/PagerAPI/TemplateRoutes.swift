import HTTPTypes
import JSON
import MicroHTTP
import PagerModel

/// `GET /v1/templates` and `GET /v1/templates/{name}`.
struct TemplateRoutes {
    let templates: [String: Template]

    func register(in router: inout Router) {
        let sorted = templates.values.sorted { $0.name < $1.name }
        let list = Self.list(sorted)
        router.add(.get, "/v1/templates") { _ in
            .now(Response(status: 200, headers: [.contentType: "application/json; charset=utf-8"], body: list))
        }
        let documents = Dictionary(uniqueKeysWithValues: sorted.map { ($0.name, Self.document($0)) })
        router.add(.get, "/v1/templates/{name}") { context throws(APIError) in
            let name = try context.parameter("name")
            guard let document = documents[name] else { throw APIError.templateNotFound(name) }
            return .now(
                Response(status: 200, headers: [.contentType: "application/json; charset=utf-8"], body: document))
        }
    }

    /// `{"templates": [{name, description, pageCount, mode, layout}]}`.
    static func list(_ templates: [Template]) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("templates")
        w.beginArray()
        for template in templates {
            w.beginObject()
            w.field("name"); w.string(template.name)
            w.field("description"); w.string(template.description)
            w.field("pageCount"); w.int(template.definition["pages"]?.arrayValue?.count ?? 0)
            w.field("mode"); w.string(template.definition["mode"]?.stringValue ?? PagerMode.bounded.rawValue)
            w.field("layout");
            w.string(template.definition["tabBar"]?["layout"]?.stringValue ?? TabLayout.fixed.rawValue)
            w.field("catalog"); w.beginArray(); for page in template.catalog { w.string(page.id) }; w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    /// The template as it could be written to a file: name, description, definition, catalog.
    static func document(_ template: Template) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("name"); w.string(template.name)
        w.field("description"); w.string(template.description)
        for (key, value) in template.definition { w.member(key, value) }
        w.field("catalog")
        w.beginArray()
        for page in template.catalog { StateDocument.write(page, &w) }
        w.endArray()
        w.endObject()
        return w.bytes
    }
}
