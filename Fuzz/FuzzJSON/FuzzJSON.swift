// libFuzzer entry point for the JSON parser: any bytes either parse or are refused with an error
// (never a crash, never a hang), and whatever parses is written back and re-parsed to the same
// value, members in the same order.
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

// SwiftPM names an executable's entry point `<module>_main` and links `main` to it, so libFuzzer's
// own `main` is not used: this entry point hands the arguments to libFuzzer's driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

@_cdecl("FuzzJSON_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzJSON(data, size) }
}
