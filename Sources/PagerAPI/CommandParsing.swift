import HTTPTypes
import JSON
import MicroHTTP
import PagerModel
import PagerWire

/// Request bodies of the endpoints (docs/api.md, «Endpoints») turned into pager commands, with
/// errors naming the field.
extension SessionRoutes {
    /// `{"index": i}` or `{"page": "id"}`, with an optional `"path"` and `"animation"`.
    static func selectCommand(_ request: Request) throws(APIError) -> PagerCommand {
        let reader = try request.reader(allowing: ["index", "page", "path", "animation"])
        return try reader.read { reader throws(PagerError) in
            let path = try reader.choice("path", as: JumpPath.self) ?? .direct
            let animation = try reader.choice("animation", as: JumpAnimation.self) ?? .stepped
            switch (try reader.integer("index"), try reader.string("page")) {
            case (let index?, nil): return .select(.index(index), path: path, animation: animation)
            case (nil, let page?): return .select(.id(page), path: path, animation: animation)
            case (.some, .some):
                throw PagerError(kind: .invalid, field: "page", detail: "Send either 'index' or 'page', not both.")
            case (nil, nil):
                throw PagerError(kind: .invalid, field: "index", detail: "Send 'index' or 'page'.")
            }
        }
    }

    /// Exactly one of `progress`, `offset` or `windowOffset`.
    static func scrollCommand(_ request: Request) throws(APIError) -> PagerCommand {
        let reader = try request.reader(allowing: ["progress", "offset", "windowOffset"])
        return try reader.read { reader throws(PagerError) in
            // Counted without building a list of them: a scroll is the most frequent command.
            var given = 0
            var second = "progress"
            for name in ["progress", "offset", "windowOffset"] where reader.has(name) {
                given += 1
                if given == 2 { second = name }
            }
            guard given == 1 else {
                throw PagerError(
                    kind: .invalid, field: given > 1 ? second : "progress",
                    detail: "Send exactly one of 'progress', 'offset' or 'windowOffset'.")
            }
            if let p = try reader.number("progress") { return .scroll(.progress(p)) }
            if let x = try reader.number("offset") { return .scroll(.offset(x)) }
            return .scroll(.windowOffset(try reader.number("windowOffset") ?? 0))
        }
    }

    /// `{"phase": "begin", "to": i}`, or `{"phase": "end"}` with exactly one of `"completed": b`
    /// and `"velocity": v` (pages per second, signed like progress: the server decides).
    static func transitionCommand(_ request: Request) throws(APIError) -> PagerCommand {
        let reader = try request.reader(allowing: ["phase", "to", "completed", "velocity"])
        return try reader.read { reader throws(PagerError) in
            switch try reader.requiredString("phase") {
            case "begin":
                for member in ["completed", "velocity"] where reader.has(member) {
                    throw PagerError(
                        kind: .invalid, field: member, detail: "'\(member)' belongs to the end phase.")
                }
                guard let target = try reader.integer("to") else {
                    throw PagerError(kind: .invalid, field: "to", detail: "'to' is required to begin a transition.")
                }
                return .beginTransition(to: target)
            case "end":
                guard !reader.has("to") else {
                    throw PagerError(kind: .invalid, field: "to", detail: "'to' belongs to the begin phase.")
                }
                let completed = try reader.boolean("completed")
                if let velocity = try reader.number("velocity") {
                    guard completed == nil else {
                        throw PagerError(
                            kind: .invalid, field: "velocity",
                            detail: "Send 'completed' or 'velocity' to end a transition, not both.")
                    }
                    return .release(velocity: velocity)
                }
                guard let completed else {
                    throw PagerError(
                        kind: .invalid, field: "completed",
                        detail: "'completed' (or 'velocity') is required to end a transition.")
                }
                return .endTransition(completed: completed)
            case let other:
                throw PagerError(kind: .invalid, field: "phase", detail: "'\(other)' is not one of begin, end.")
            }
        }
    }

    /// `{"page": {...}, "at"?: i}` or `{"from": "<catalog id>", "at"?: i}`, with an optional
    /// `"then"`.
    static func insertCommand(_ request: Request) throws(APIError) -> PagerCommand {
        let reader = try request.reader(allowing: ["page", "from", "at", "then"])
        return try reader.read { reader throws(PagerError) in
            let at = try reader.integer("at")
            let then = try reader.choice("then", as: AfterInsert.self) ?? .stay
            switch (reader.has("page"), try reader.string("from")) {
            case (true, nil):
                return .insert(try Page(json: reader.object["page"] ?? .null, field: "page"), at: at, then: then)
            case (false, let id?): return .insertFromCatalog(id: id, at: at, then: then)
            case (true, .some):
                throw PagerError(kind: .invalid, field: "from", detail: "Send either 'page' or 'from', not both.")
            case (false, nil):
                throw PagerError(kind: .invalid, field: "page", detail: "Send 'page' or 'from'.")
            }
        }
    }

    /// `{"pages": [...]}`.
    static func replaceCommand(_ request: Request) throws(APIError) -> PagerCommand {
        let reader = try request.reader(allowing: ["pages"])
        return try reader.read { reader throws(PagerError) in
            guard let values = try reader.array("pages") else {
                throw PagerError(kind: .invalid, field: "pages", detail: "'pages' is required.")
            }
            var pages: [Page] = []
            for (position, value) in values.enumerated() {
                pages.append(try Page(json: value, field: "pages[\(position)]"))
            }
            return .replacePages(pages)
        }
    }

    /// `{"title"?, "content"?, "tabWidth"? (null clears it), "moveTo"?}`.
    static func updateCommand(_ request: Request, pageID: String) throws(APIError) -> PagerCommand {
        let reader = try request.reader(allowing: [
            "title", "content", "tabWidth", "moveTo", "tab", "accessibilityLabel", "accessibilityHint",
        ])
        return try reader.read { reader throws(PagerError) in
            var update = PageUpdate()
            if reader.object["title"]?.isNull == true {
                throw PagerError(kind: .invalid, field: "title", detail: "A page's title cannot be removed.")
            }
            update.title = try reader.string("title")
            if reader.object["content"]?.isNull == true {
                update.content = JSONObject()
            } else {
                update.content = try reader.rawObject("content")
            }
            update.tabWidth = try reader.change("tabWidth", reader.number)
            update.moveTo = try reader.integer("moveTo")
            if reader.object["tab"]?.isNull == true {
                update.tab = .clear
            } else if let tab = try reader.object("tab") {
                try tab.allowOnly(["icon", "badge"])
                update.tab = .merge(icon: try tab.change("icon", tab.string), badge: try tab.change("badge", tab.badge))
            }
            update.accessibilityLabel = try reader.change("accessibilityLabel", reader.string)
            update.accessibilityHint = try reader.change("accessibilityHint", reader.string)
            return .update(pageID: pageID, update)
        }
    }
}
