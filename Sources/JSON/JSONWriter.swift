/// Writes JSON into a byte buffer directly, without an intermediate tree when the caller writes
/// members one by one. Output is compact; strings escape only what RFC 8259 requires, plus
/// U+2028 and U+2029 so the text is safe inside JavaScript too.
///
/// The writer writes through a pointer into a plain buffer: an Array's append checks uniqueness
/// and capacity on every byte, which was most of the cost of a state document. The buffer is
/// its own, or (``bytes(capacity:_:)``) the storage of the array being made, until it outgrows
/// that. It is noncopyable, so a buffer it owns has exactly one owner and is freed with it; that
/// is also why it can be sent between tasks.
public struct JSONWriter: ~Copyable, @unchecked Sendable {
    @usableFromInline var buffer: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int
    /// Whether the next value in the innermost open container needs a comma before it.
    @usableFromInline var needsComma = false
    /// The `needsComma` of each enclosing container, innermost in bit 0; containers nested
    /// deeper than 64 keep theirs in `deepCommas`.
    @usableFromInline var enclosingCommas: UInt64 = 0
    @usableFromInline var depth = 0
    @usableFromInline var deepCommas: [Bool] = []
    /// Whether `buffer` is the writer's to free (else it is an array's, see `bytes(capacity:_:)`).
    @usableFromInline var ownsBuffer = true

    /// Creates an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        buffer = .allocate(capacity: self.capacity)
    }

    /// A writer into `storage`, which it does not own; growing past it moves to a buffer it owns.
    private init(into storage: UnsafeMutableBufferPointer<UInt8>) {
        buffer = storage.baseAddress!
        capacity = storage.count
        ownsBuffer = false
    }

    deinit { if ownsBuffer { buffer.deallocate() } }

    /// The bytes written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: buffer, count: count)) }

    /// The bytes `body` writes, written straight into the returned array's storage, so that a
    /// document that fits in `capacity` is never copied; one that does not is copied once from
    /// the writer's own larger buffer.
    public static func bytes(capacity: Int, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var outgrown: [UInt8]?
        let written = [UInt8](unsafeUninitializedCapacity: max(capacity, 16)) { storage, initialized in
            var writer = JSONWriter(into: storage)
            body(&writer)
            if writer.ownsBuffer {
                outgrown = writer.bytes
                initialized = 0
            } else {
                initialized = writer.count
            }
        }
        return outgrown ?? written
    }

    /// Writes a whole value.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        bytes(capacity: 1024) { $0.value(value) }
    }

    /// The length of a value's compact encoding and a hash of its bytes (equal values written
    /// alike have equal fingerprints), without handing the bytes out.
    public static func measure(_ value: JSONValue) -> (byteCount: Int, fingerprint: Int) {
        var writer = JSONWriter()
        writer.value(value)
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(start: writer.buffer, count: writer.count))
        return (writer.count, hasher.finalize())
    }

    /// Writes a whole value as a string.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    // MARK: - Structure

    /// Starts an object.
    @inlinable public mutating func beginObject() { open(UInt8(ascii: "{")) }
    /// Ends an object.
    @inlinable public mutating func endObject() { close(UInt8(ascii: "}")) }
    /// Starts an array.
    @inlinable public mutating func beginArray() { open(UInt8(ascii: "[")) }
    /// Ends an array.
    @inlinable public mutating func endArray() { close(UInt8(ascii: "]")) }

    @inlinable @inline(__always) mutating func open(_ bracket: UInt8) {
        separate()
        write(bracket)
        if depth >= 64 { pushDeepComma() }
        enclosingCommas = enclosingCommas << 1 | (needsComma ? 1 : 0)
        depth += 1
        needsComma = false
    }

    @inlinable @inline(__always) mutating func close(_ bracket: UInt8) {
        precondition(depth > 0, "unbalanced JSONWriter.close")
        needsComma = enclosingCommas & 1 != 0
        enclosingCommas >>= 1
        depth -= 1
        if depth >= 64 { popDeepComma() }
        write(bracket)
    }

    @usableFromInline mutating func pushDeepComma() { deepCommas.append(enclosingCommas >> 63 != 0) }

    @usableFromInline mutating func popDeepComma() {
        if let deeper = deepCommas.popLast() { enclosingCommas |= (deeper ? 1 : 0) << 63 }
    }

    /// Writes a member name known at compile time, which needs no escaping: the fast path for
    /// documents written member by member.
    @inlinable @inline(__always) public mutating func field(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        reserve(length + 4)
        if needsComma { buffer[count] = UInt8(ascii: ","); count += 1 }
        buffer[count] = UInt8(ascii: "\"")
        (buffer + count + 1).update(from: name.utf8Start, count: length)
        buffer[count + 1 + length] = UInt8(ascii: "\"")
        buffer[count + 2 + length] = UInt8(ascii: ":")
        count += length + 3
        needsComma = false
    }

    /// Writes a member name; the next value written is its value.
    public mutating func key(_ name: String) {
        separate()
        writeString(name)
        write(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: - Values written before

    /// The number of bytes written so far.
    public var writtenCount: Int { count }

    /// Writes `bytes`, a whole JSON value this writer (or another) wrote before, as the next
    /// value; they are copied as they are, unchecked.
    public mutating func writtenValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        separate()
        write(bytes)
    }

    /// Writes the next value with no comma before it, whatever was written before: for values
    /// written one after another, each to be copied out on its own (``writtenCount`` tells where
    /// each ends).
    public mutating func startFreshValue() { needsComma = false }

    // MARK: - Scalars

    /// Writes `null`.
    @inlinable public mutating func null() { separate(); writeLiteral("null") }
    /// Writes a Boolean.
    @inlinable public mutating func bool(_ value: Bool) { separate(); writeLiteral(value ? "true" : "false") }
    /// Writes a string.
    @inlinable public mutating func string(_ value: String) { separate(); writeString(value) }
    /// Writes an integer.
    @inlinable public mutating func int(_ value: Int) {
        separate()
        appendDigits(value)
    }

    /// Appends the decimal digits of `value` without making a String.
    @usableFromInline mutating func appendDigits(_ value: Int) {
        // At most 20 digits and a sign; the digits go straight into the buffer, last one first.
        reserve(21)
        if value < 0 {
            buffer[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var scale: UInt = 10
        while digits < 20, magnitude >= scale {
            digits += 1
            scale &*= 10
        }
        var at = count + digits - 1
        repeat {
            buffer[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            at -= 1
        } while magnitude > 0
        count += digits
    }

    /// Writes a number; integral values below 2^63 in magnitude print digit for digit without a
    /// fraction or exponent (an integer a client sent in a page's content comes back as it was,
    /// up to 2^53, past which a Double holds only the nearest), others in the shortest form that
    /// reads back to the same Double. Non-finite values, which JSON cannot hold, print null.
    public mutating func number(_ value: Double) {
        separate()
        guard value.isFinite else { writeLiteral("null"); return }
        // Int(value) truncates in one instruction; `rounded()` would call the C library. Below
        // 2^63 (9.223…e18) in magnitude the conversion cannot trap.
        if abs(value) < 9.2e18, Double(Int(value)) == value {
            appendDigits(Int(value))
        } else if !appendShortDecimal(value) {
            append(value.description)
        }
    }

    /// Writes `value` with at most six decimals when that reads back exactly, as most geometry
    /// does (97.5, 48.75); false, writing nothing, when it does not. The fewest decimals that
    /// read back is the shortest text, so this agrees with `description` wherever it applies
    /// (magnitudes from 0.001, below which `description` switches to an exponent, to 1e9).
    private mutating func appendShortDecimal(_ value: Double) -> Bool {
        guard abs(value) < 1e9, abs(value) >= 0.001 else { return false }
        var scale = 1.0
        for decimals in 1...6 {
            scale *= 10
            // Rounded half away from zero, as `rounded()` does, without a C library call; below
            // 1e15 in magnitude, so the conversion to Int is exact. Were it off by one in an
            // edge case, the check below would fail and more decimals would be tried.
            let product = value * scale
            let scaled = Double(Int(product + (product < 0 ? -0.5 : 0.5)))
            // Both sides are exact integers below 2^53 divided correctly rounded, so equality
            // means the decimal text scaled / 10^decimals parses back to exactly `value`.
            guard scaled / scale == value else { continue }
            let magnitude = Int(abs(scaled))
            if value < 0 { write(UInt8(ascii: "-")) }
            var divisor = 1
            for _ in 0..<decimals { divisor *= 10 }
            appendDigits(magnitude / divisor)
            write(UInt8(ascii: "."))
            var fraction = magnitude % divisor
            for _ in 0..<decimals {
                divisor /= 10
                write(UInt8(ascii: "0") + UInt8(fraction / divisor))
                fraction %= divisor
            }
            return true
        }
        return false
    }

    /// Writes any value.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(n)
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for (name, member) in object {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }

    /// Writes `name: value` for a parsed JSON value (a `.null` value is written as `null`).
    public mutating func member(_ name: String, _ value: JSONValue) {
        key(name)
        self.value(value)
    }

    // MARK: - Internals

    @inlinable @inline(__always) mutating func separate() {
        if needsComma { write(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Makes room for `extra` more bytes.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        grow(extra)
    }

    @usableFromInline mutating func grow(_ extra: Int) {
        let grown = Swift.max(capacity * 2, count + extra)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: buffer, count: count)
        if ownsBuffer { buffer.deallocate() }
        buffer = larger
        capacity = grown
        ownsBuffer = true
    }

    @inlinable @inline(__always)
    mutating func write(_ byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    @usableFromInline mutating func write(_ run: UnsafeBufferPointer<UInt8>) {
        guard let start = run.baseAddress, !run.isEmpty else { return }
        reserve(run.count)
        (buffer + count).update(from: start, count: run.count)
        count += run.count
    }

    /// Writes a literal known at compile time, such as `null`.
    @inlinable @inline(__always) mutating func writeLiteral(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        (buffer + count).update(from: text.utf8Start, count: length)
        count += length
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    @usableFromInline mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            let count = utf8.count
            // Room for the quotes and the common case, a string with nothing to escape, which is
            // copied as it is checked: eight bytes at a time while they are plain ASCII, then
            // byte by byte.
            reserve(count + 2)
            buffer[self.count] = UInt8(ascii: "\"")
            self.count += 1
            guard let source = utf8.baseAddress else { return }
            let target = buffer + self.count
            var i = 0
            while i + 8 <= count {
                let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                guard !Self.mayNeedEscaping(word) else { break }
                UnsafeMutableRawPointer(target + i).storeBytes(of: word, as: UInt64.self)
                i += 8
            }
            while i < count, !Self.needsEscaping(utf8, at: i) {
                target[i] = source[i]
                i += 1
            }
            self.count += i
            guard i < count else { return }
            // Something to escape: from here, runs that need no escaping are copied in one move
            // and the rest escaped byte by byte.
            var runStart = i
            while i < count {
                guard Self.needsEscaping(utf8, at: i) else {
                    i += 1
                    continue
                }
                if runStart < i { write(UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                escape(utf8, at: &i)
                runStart = i
            }
            if runStart < count { write(UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
        }
        write(UInt8(ascii: "\""))
    }

    /// Whether the byte at `i` starts something to escape: a control character, `"`, `\\`, or
    /// 0xE2 when it starts U+2028 or U+2029.
    @inline(__always)
    private static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        let byte = utf8[i]
        return byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (byte == 0xE2 && i + 2 < utf8.count && utf8[i + 1] == 0x80
                && (utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9))
    }

    /// Whether any of the eight bytes in `word` is not ASCII, or is a control character (bits 5
    /// and 6 clear), `"` or `\\`: each test is "some byte is zero", exact for the word as a whole.
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        return word & highs != 0 || hasZeroByte(word & 0x6060_6060_6060_6060)
            || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// Writes the escape for the special byte at `i` and moves `i` past what it covered.
    private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>, at i: inout Int) {
        let byte = utf8[i]
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): write(UInt8(ascii: "\\")); write(byte)
        case 0x0A: write(UInt8(ascii: "\\")); write(UInt8(ascii: "n"))
        case 0x0D: write(UInt8(ascii: "\\")); write(UInt8(ascii: "r"))
        case 0x09: write(UInt8(ascii: "\\")); write(UInt8(ascii: "t"))
        case 0xE2:
            for byte in "\\u202".utf8 { write(byte) }
            write(utf8[i + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
            i += 2
        default:
            for byte in "\\u00".utf8 { write(byte) }
            write(Self.hex[Int(byte >> 4)])
            write(Self.hex[Int(byte & 0xF)])
        }
        i += 1
    }
}
