import Foundation
import TestSupport
import Testing

/// Foundation's `Process.run` reads past a buffer while it closes inherited descriptors (a
/// toolchain defect, not pagerd's), which AddressSanitizer stops at; `make test-asan` sets
/// PAGERD_SKIP_PROCESS_TESTS, and the same scenarios run against the real binary in tests/e2e.
@Suite(
    "The pagerd process", .serialized, .runsAlone,
    .disabled(
        if: ProcessInfo.processInfo.environment["PAGERD_SKIP_PROCESS_TESTS"] != nil, "Process.run fails under ASan"))
struct ProcessTests {
    @Test("starts on port 0 from flags, answers /healthz, and exits 0 on SIGTERM within 5 s")
    func sigtermStopsGracefully() async throws {
        let process = try PagerdProcess.launch(arguments: ["--port", "0", "--log-format", "json"])
        let port = try await process.port()
        let health = try await onThread { try RawHTTPConnection(port: port).request("GET", "/healthz") }
        #expect(health.status == 200)
        #expect(health.text == #"{"status":"ok"}"#)
        let started = ContinuousClock.now
        process.signal(SIGTERM)
        let status = try await process.waitForExit(timeout: .seconds(5))
        #expect(status == 0)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("SIGINT and SIGHUP also stop it with status 0", arguments: [SIGINT, SIGHUP])
    func otherSignalsStopGracefully(signal: Int32) async throws {
        let process = try PagerdProcess.launch(arguments: ["--port", "0"])
        _ = try await process.port()
        process.signal(signal)
        #expect(try await process.waitForExit(timeout: .seconds(5)) == 0)
    }

    @Test(
        "a bad setting exits 2 with a message naming it",
        arguments: [
            (["--port", "-1"], [String: String](), "port"),
            (["--port", "0"], ["PAGERD_MAX_SESSIONS": "lots"], "maxSessions"),
            (["--no-such-flag"], [String: String](), "no-such-flag"),
            (["--port", "0"], ["PAGERD_HOST": "pager.internal"], "host (from PAGERD_HOST)"),
        ])
    func badSettingExits2(arguments: [String], environment: [String: String], named: String) async throws {
        let process = try PagerdProcess.launch(arguments: arguments, environment: environment)
        #expect(try await process.waitForExit(timeout: .seconds(5)) == 2)
        #expect(process.standardError.contains(named))
    }
}
