extension JSONValue {
    /// An estimate of the heap memory this value occupies beyond its own inline slot, from the
    /// layout of `JSONValue` on 64-bit platforms: a value is 24 bytes inline; strings of more
    /// than 15 UTF-8 bytes, arrays and objects keep a heap buffer with a 32-byte header, and an
    /// object's member is 40 bytes in its buffer.
    /// Used for memory budgets; it runs in time linear in the value.
    public var estimatedHeapBytes: Int {
        switch self {
        case .null, .bool, .number: 0
        case .string(let string): Self.heapBytes(of: string)
        case .array(let array): 32 + array.reduce(24 * array.count) { $0 + $1.estimatedHeapBytes }
        case .object(let object): object.estimatedHeapBytes
        }
    }

    static func heapBytes(of string: String) -> Int {
        let count = string.utf8.count
        return count > 15 ? 32 + count : 0
    }
}

extension JSONObject {
    /// An estimate of the heap memory the object's members occupy (see
    /// ``JSONValue/estimatedHeapBytes``).
    public var estimatedHeapBytes: Int {
        guard !isEmpty else { return 0 }
        var total = 32 + 40 * count
        for (key, value) in self { total += JSONValue.heapBytes(of: key) + value.estimatedHeapBytes }
        return total
    }
}
