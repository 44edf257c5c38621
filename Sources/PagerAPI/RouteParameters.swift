/// The path parameters a pattern matched, by name. A pattern has one or two, so the first two
/// are kept inline and found by comparing names: matching a request builds no table.
public struct RouteParameters: Sendable {
    private var first: (name: String, value: String)?
    private var second: (name: String, value: String)?
    private var more: [(name: String, value: String)] = []

    /// No parameters.
    public init() {}

    /// Adds parameter `name` with `value`, after the others.
    public mutating func append(_ name: String, _ value: String) {
        if first == nil {
            first = (name, value)
        } else if second == nil {
            second = (name, value)
        } else {
            more.append((name, value))
        }
    }

    /// The value of parameter `name`, if the pattern has it.
    public subscript(name: String) -> String? {
        if let first, first.name == name { return first.value }
        if let second, second.name == name { return second.value }
        return more.first { $0.name == name }?.value
    }
}
