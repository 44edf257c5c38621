public import Foundation
import Locking

/// The built `pagerd` executable, started as a child process for tests.
public final class PagerdProcess: @unchecked Sendable {
    // @unchecked: the Process is only driven from the test that owns this object.
    private let process = Process()
    private let errorPipe = Pipe()
    private let output = LockedBuffer()

    /// The executable: `PAGERD_BINARY` when set, else the one `swift build` put beside the tests.
    public static var executableURL: URL {
        if let path = ProcessInfo.processInfo.environment["PAGERD_BINARY"] { return URL(fileURLWithPath: path) }
        let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return tests.deletingLastPathComponent().appendingPathComponent("pagerd")
    }

    /// The repository root, the working directory pagerd is started in.
    public static var repositoryRoot: URL {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }

    /// The release build's executable (`swift build -c release`, which `make test` runs before
    /// the tests) when it exists and no file under Sources is newer, else ``executableURL``; with
    /// `PAGERD_BINARY` set, that. For tests that drive a server hard, where a debug build is
    /// several times slower.
    public static var fastestExecutableURL: URL {
        if ProcessInfo.processInfo.environment["PAGERD_BINARY"] != nil { return executableURL }
        let release = repositoryRoot.appendingPathComponent(".build/release/pagerd")
        let files = FileManager.default
        guard let built = (try? files.attributesOfItem(atPath: release.path))?[.modificationDate] as? Date else {
            return executableURL
        }
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let entries = files.enumerator(at: sources, includingPropertiesForKeys: [.contentModificationDateKey])
        while let url = entries?.nextObject() as? URL {
            let changed = try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
            if let changed, changed > built { return executableURL }
        }
        return release
    }

    /// Starts pagerd (`executable`, by default ``executableURL``) with `arguments`, in the
    /// repository root, logging to a captured stderr. It keeps sessions in memory
    /// (config/pagerd.json names a data file) unless `environment` says otherwise.
    public static func launch(
        arguments: [String], environment: [String: String] = [:], executable: URL = executableURL
    ) throws -> PagerdProcess {
        let child = PagerdProcess()
        child.process.executableURL = executable
        child.process.arguments = arguments
        child.process.currentDirectoryURL = repositoryRoot
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PAGERD_") }
        env["PAGERD_STORAGE"] = "memory"
        env.merge(environment) { $1 }
        child.process.environment = env
        child.process.standardError = child.errorPipe
        child.process.standardOutput = FileHandle.nullDevice
        try child.process.run()
        // stderr is read by a thread of its own with blocking read(2) until end of file, not by a
        // FileHandle readabilityHandler: tearing down a pipe under such a handler while its
        // dispatch source is being cancelled can crash libdispatch's event loop on Linux (a bad
        // pointer in _dispatch_event_loop_drain, seen once in a full run). The thread holds the
        // reading handle until end of file, which comes when the process exits (run() closed the
        // parent's copy of the writing end).
        let buffer = child.output
        let reading = child.errorPipe.fileHandleForReading
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(reading.fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer.append(Data(chunk[..<count]))
                } else if count == 0 || errno != EINTR {
                    break  // end of file: the process closed its stderr
                }
            }
        }
        reader.name = "pagerd stderr"
        reader.start()
        return child
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// What the process wrote to stderr so far.
    public var standardError: String { output.text }

    /// The port from the "listening" log line; waits up to 30 s for it (under ThreadSanitizer,
    /// beside other tests, a start took more than 10 s).
    public func port() async throws -> Int {
        var found: Int?
        _ = await poll(timeout: .seconds(30)) {
            found = Self.port(in: standardError)
            return found != nil || !process.isRunning
        }
        guard let found else { throw RawHTTPError.malformed("pagerd did not report its port: \(standardError)") }
        return found
    }

    /// The port a "listening" log line in `text` names, if there is one.
    private static func port(in text: String) -> Int? {
        guard let range = text.range(of: #"port[=":]+\s*"?(\d+)"#, options: .regularExpression) else { return nil }
        return Int(text[range].filter(\.isNumber)).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Sends a signal.
    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the process to exit and returns its status; throws after `timeout`.
    public func waitForExit(timeout: Duration) async throws -> Int32 {
        guard await poll(timeout: timeout, { !process.isRunning }) else {
            process.terminate()
            throw RawHTTPError.malformed("pagerd did not exit within \(timeout)")
        }
        return process.terminationStatus
    }
}

private struct LockedBuffer: Sendable {
    private let data = Locked(Data())

    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
