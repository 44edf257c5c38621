public import JSON
public import PagerModel
import PagerWire

// pagerd's documents, as the JSON module parses them, read into PagerModel's prediction values
// (the settings with PagerWire's one reader of them), and the prediction written back as the
// members of a scroll answer. PagerModel stays free of JSON decoding; a client that decodes the
// documents itself (with JSONDecoder, say) builds ScrollState and PagerSettings directly and
// needs only PagerModel.

extension ScrollState {
    /// Reads the members a scroll starts from out of a state document (an answer, or an event's
    /// data).
    public init(document: JSONValue) throws(PredictionError) {
        let state = try DocumentReader(document, path: "")
        guard let pageCount = try state.integer("pageCount") else { throw state.mismatch("pageCount", "an integer") }
        let index = try state.integer("index")
        var transition: Transition?
        if let member = try state.object("transition") {
            guard let from = try member.integer("from"), let to = try member.integer("to"),
                let progress = try member.number("progress"),
                let direction = try member.choice("direction", as: Direction.self)
            else { throw .unexpected("'transition' lacks a member.") }
            transition = Transition(from: from, to: to, progress: progress, direction: direction)
        }
        var overscroll: Overscroll?
        if let member = try state.object("overscroll") {
            guard let edge = try member.choice("edge", as: Edge.self), let progress = try member.number("progress")
            else { throw .unexpected("'overscroll' lacks a member.") }
            overscroll = Overscroll(edge: edge, progress: progress)
        }
        var pageIDs: [Int: String] = [:]
        func name(_ summary: DocumentReader) throws(PredictionError) {
            if let position = try summary.integer("index"), let id = try summary.string("id") { pageIDs[position] = id }
        }
        if let index, let page = try state.object("page"), let id = try page.string("id") { pageIDs[index] = id }
        for key in ["previous", "next"] {
            if let summary = try state.object(key) { try name(summary) }
        }
        for key in ["preload", "visible"] {
            for (position, item) in (try state.array(key) ?? []).enumerated() {
                try name(try DocumentReader(item, path: "\(key)[\(position)]"))
            }
        }
        var tabs: [Tab] = []
        let tabValues = try state.array("tabs") ?? []
        tabs.reserveCapacity(tabValues.count)
        for (position, item) in tabValues.enumerated() {
            let tab = try DocumentReader(item, path: "tabs[\(position)]")
            try name(tab)
            guard let width = try tab.number("width") else { throw tab.mismatch("width", "a number") }
            tabs.append(Tab(width: width, baseWidth: try tab.number("baseWidth")))
        }
        let effectiveLayout = try state.object("tabBar")?.choice("effectiveLayout", as: TabLayout.self)
        self.init(
            index: index, pageCount: pageCount, transition: transition, overscroll: overscroll, tabs: tabs,
            effectiveLayout: effectiveLayout, pageIDs: pageIDs)
    }
}

extension ScrollInput {
    /// Reads a scroll request's body as pagerd reads it: an object with exactly one of
    /// `progress`, `offset` or `windowOffset` (null counts as absent), a number, and no other
    /// member. Throws the server's refusal, `invalid_request` naming the field.
    public init(body: JSONValue) throws(PredictionError) {
        guard let object = body.objectValue else {
            throw PredictionError(
                code: .invalidRequest, detail: "The body must be a JSON object, not \(body.kindName).")
        }
        let forms = ["progress", "offset", "windowOffset"]
        for (key, _) in object where !forms.contains(key) {
            throw PredictionError(
                code: .invalidRequest, field: key,
                detail: "Unknown member; expected one of offset, progress, windowOffset.")
        }
        var given: [(name: String, value: JSONValue)] = []
        for name in forms {
            if let value = object[name], !value.isNull { given.append((name, value)) }
        }
        guard given.count == 1 else {
            throw PredictionError(
                code: .invalidRequest, field: given.count > 1 ? given[1].name : "progress",
                detail: "Send exactly one of 'progress', 'offset' or 'windowOffset'.")
        }
        let (name, value) = given[0]
        guard let number = value.numberValue else {
            throw PredictionError(
                code: .invalidRequest, field: name, detail: "Expected a number, found \(value.kindName).")
        }
        switch name {
        case "progress": self = .progress(number)
        case "offset": self = .offset(number)
        default: self = .windowOffset(number)
        }
    }
}

extension ScrollPredictor {
    /// A predictor for the state document `state` and the settings document `settings`.
    public init(state: JSONValue, settings: JSONValue) throws(PredictionError) {
        try self.init(state: try ScrollState(document: state), settings: try Self.settings(document: settings))
    }

    /// The settings of a settings document (`GET /v1/sessions/{id}/settings`), read with the
    /// reader the server reads settings with (PagerWire's `PagerSettings(document:)`). A member
    /// that is absent takes its default, so a document from a server without a newer setting
    /// reads as that setting's default; one this reader does not know is ignored.
    public static func settings(document: JSONValue) throws(PredictionError) -> PagerSettings {
        do { return try PagerSettings(document: document) } catch {
            throw .unexpected("The settings document is not readable: \(error)")
        }
    }
}

/// The scroll members of pagerd's answer to `POST /v1/sessions/{id}/scroll` with the body
/// `input`, from a state document and the settings document of the same `settingsVersion`, as
/// the JSON module parses them. Throws what the server would answer (`invalid_request` for a bad
/// body, then `empty_pager`), or `unexpected_response` for a document that is not pagerd's.
public func predictScroll(
    state: JSONValue, settings: JSONValue, input: JSONValue
) throws(PredictionError)
    -> ScrollMembers
{
    let scroll = try ScrollInput(body: input)
    return try ScrollPredictor(state: state, settings: settings).predict(scroll)
}

extension ScrollMembers {
    /// The members as pagerd's answer writes them: `transition`, `overscroll`, `pageOffset`,
    /// `visible`, `indicator`, `tabBar` (`contentWidth` and `offset`), `tabs` (each tab's `x`,
    /// `width`, `selection`, `selected`, and `color` and `scale` when titles are styled), and
    /// `edge` and `blocked` when present.
    public var document: JSONValue {
        var object: JSONObject = [:]
        object["transition"] =
            transition.map {
                [
                    "from": .number(Double($0.from)), "to": .number(Double($0.to)), "progress": .number($0.progress),
                    "direction": .string($0.direction.rawValue),
                ]
            } ?? .null
        object["overscroll"] =
            overscroll.map { ["edge": .string($0.edge.rawValue), "progress": .number($0.progress)] } ?? .null
        object["pageOffset"] = .number(pageOffset)
        object["visible"] = .array(
            visible.map {
                ["index": .number(Double($0.index)), "id": .string($0.id), "fraction": .number($0.fraction)]
            })
        object["indicator"] =
            indicator.map { indicator in
                [
                    "x": .number(indicator.x), "width": .number(indicator.width), "height": .number(indicator.height),
                    "segments": .array(indicator.segments.map { ["x": .number($0.x), "width": .number($0.width)] }),
                    "alpha": .number(indicator.alpha),
                ]
            } ?? .null
        object["tabBar"] = ["contentWidth": .number(tabBar.contentWidth), "offset": .number(tabBar.offset)]
        object["tabs"] = .array(
            tabs.map { tab in
                var member: JSONObject = [
                    "x": .number(tab.x), "width": .number(tab.width), "selection": .number(tab.selection),
                    "selected": .bool(tab.selected),
                ]
                if let color = tab.color { member["color"] = .string(color.hex) }
                if let scale = tab.scale { member["scale"] = .number(scale) }
                return .object(member)
            })
        if let edge { object["edge"] = .string(edge.rawValue) }
        if let blocked { object["blocked"] = .string(blocked.rawValue) }
        return .object(object)
    }
}
