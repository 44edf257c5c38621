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

    /// Replaces every field called `name` with one field holding `value`.
    mutating func set(_ name: HTTPField.Name, _ value: String) {
        self[name] = value
    }
}
