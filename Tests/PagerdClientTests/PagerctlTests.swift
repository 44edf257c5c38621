import Foundation
import TestSupport
import Testing

/// pagerctl, the example executable, run as a person would from the shell.
@Suite struct PagerctlTests {
    /// The built pagerctl, beside the test bundle as `swift build` leaves it.
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("pagerctl")
    }

    /// Runs pagerctl with `arguments` and returns its exit status and outputs; a pagerctl still
    /// running after 30 s is terminated (and its status says so).
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        try await onThread {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            let error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) { if process.isRunning { process.terminate() } }
            let text = output.fileHandleForReading.readDataToEndOfFile()
            let problem = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: text, as: UTF8.self),
                String(decoding: problem, as: UTF8.self)
            )
        }
    }

    @Test func createsMovesAndFollows() async throws {
        let server = try await Server()
        let url = "http://127.0.0.1:\(server.port)"
        let created = try await Self.run(["--url", url, "create", "media"])
        #expect(created.status == 0)
        let id = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.count == 22)

        let following = Task { try await Self.run(["--url", url, "follow", id, "3"]) }
        await waitUntil("pagerctl follows") { (try? await server.metric("pagerd_event_subscribers")) == 1 }
        let next = try await Self.run(["--url", url, "next", id])
        #expect(next.status == 0 && next.output == "version 2 index 1 page videos\n")
        let scrolled = try await Self.run(["--url", url, "scroll", id, "0.5"])
        #expect(scrolled.output == "version 3 index 1 page videos transition 1->2 0.5\n")
        let followed = try await following.value
        #expect(followed.status == 0)
        #expect(
            followed.output == """
                state version 1 index 0 page photos
                pageChanged version 2 index 1 page videos cause request
                transition version 3 index 1 page videos transition 1->2 0.5 cause request

                """)

        let refused = try await Self.run(["--url", url, "select", id, "9"])
        #expect(refused.status == 1 && refused.error.contains("422 index_out_of_range"))
        let usage = try await Self.run(["--url", url, "jump", id])
        #expect(usage.status == 2 && usage.error.contains("unknown command jump"))
    }
}
