import HTTPTypes

extension HTTPField.Name {
    /// Tells nginx not to buffer a response (an event stream).
    static let xAccelBuffering = HTTPField.Name("X-Accel-Buffering")!
    /// The last event a reconnecting event-stream client saw.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}

extension HTTPFields {
    /// Appends a field, keeping any field of the same name.
    mutating func add(_ name: HTTPField.Name, _ value: String) {
        append(HTTPField(name: name, value: value))
    }

    /// The value of the field `name`, as `self[name]` gives it (several fields joined), but a
    /// single field's value is returned as it is, with no new string made: the hot routes read
    /// Content-Type and the conditional headers on every request.
    func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }

    /// Replaces every field called `name` with one field holding `value`.
    mutating func set(_ name: HTTPField.Name, _ value: String) {
        self[name] = value
    }
}
