// libFuzzer entry point for the JSON parser: any bytes either parse or are refused with an error
// (never a crash, never a hang), and whatever parses is written back and re-parsed to the same
// value, members in the same order.
import FuzzSupport
import JSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    let written = JSONWriter.encode(value)
    guard let again = try? JSONParser.parse(written) else {
        fatalError("the writer's output does not parse: \(String(decoding: written, as: UTF8.self))")
    }
    precondition(again.isIdentical(to: value), "a round trip changed the value")
    precondition(JSONWriter.encode(again) == written, "a second round trip changed the bytes")
    return 0
}

/// The entry point SwiftPM links as `main`: libFuzzer's driver, on this target's callback.
@_cdecl("FuzzJSON_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzzJSON(data, size) }
}
