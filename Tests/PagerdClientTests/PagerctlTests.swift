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

    /// One command of a transcript in docs/swift-client.md and the lines it printed.
    struct Step {
        var arguments: [String]
        var output: [String]
    }

    /// The `text` transcripts of docs/swift-client.md's «pagerctl» section, each a list of
    /// pagerctl commands with what they printed (the build command left out).
    static func transcripts() throws -> [[Step]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/swift-client.md"), encoding: .utf8)
        guard
            let section = doc.components(separatedBy: "\n## pagerctl\n").dropFirst().first?
                .components(separatedBy: "\n## ").first
        else { return [] }
        let blocks = section.components(separatedBy: "```text\n").dropFirst().map {
            $0.components(separatedBy: "\n```").first ?? ""
        }
        return blocks.map { block in
            var steps: [Step] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("$ .build/debug/pagerctl ") {
                    let words = line.dropFirst("$ .build/debug/pagerctl ".count).split(separator: " ").map(String.init)
                    steps.append(Step(arguments: words, output: []))
                } else if !line.hasPrefix("$ "), !line.isEmpty, !steps.isEmpty {
                    steps[steps.count - 1].output.append(String(line))
                }
            }
            return steps
        }
    }

    @Test("the transcripts of docs/swift-client.md: every command prints what they show")
    func documentedTranscripts() async throws {
        let transcripts = try Self.transcripts()
        try #require(transcripts.count == 2)
        let (commands, followed) = (transcripts[0], transcripts[1])
        try #require(commands.count == 3 && followed.count == 1 && commands[0].arguments.last == "media")
        let server = try await Server()
        let url = "http://127.0.0.1:\(server.port)"
        // Each command runs against the test's server; the session's id is the one the create made.
        func arguments(_ step: Step, _ id: String?, documented: String) -> [String] {
            var words = step.arguments.map { id != nil && $0 == documented ? id! : $0 }
            if let at = words.firstIndex(of: "--url") { words.removeSubrange(at...(at + 1)) }
            return ["--url", url] + words
        }
        let created = try await Self.run(arguments(commands[0], nil, documented: ""))
        #expect(created.status == 0)
        let id = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.count == 22 && commands[0].output.count == 1 && commands[0].output[0].count == 22)
        let documentedID = commands[0].output[0]
        // follow, with the count of the events shown so that it ends after them.
        let follow = arguments(followed[0], id, documented: documentedID) + ["\(followed[0].output.count)"]
        let following = Task { try await Self.run(follow) }
        await waitUntil("pagerctl follows") { (try? await server.metric("pagerd_event_subscribers")) == 1 }
        for step in commands.dropFirst() {
            let ran = try await Self.run(arguments(step, id, documented: documentedID))
            #expect(ran.status == 0, "\(step.arguments)")
            #expect(ran.output == step.output.map { $0 + "\n" }.joined(), "\(step.arguments)")
        }
        let events = try await following.value
        #expect(events.status == 0)
        #expect(events.output == followed[0].output.map { $0 + "\n" }.joined())
    }

    @Test("refusals exit 1 with the problem; a command pagerctl does not know, or a bad COUNT, exits 2")
    func refusals() async throws {
        let server = try await Server()
        let url = "http://127.0.0.1:\(server.port)"
        let created = try await Self.run(["--url", url, "create", "media"])
        let id = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = try await Self.run(["--url", url, "select", id, "9"])
        #expect(refused.status == 1 && refused.error.contains("422 index_out_of_range"))
        let usage = try await Self.run(["--url", url, "jump", id])
        #expect(usage.status == 2 && usage.error.contains("unknown command jump"))
        let count = try await Self.run(["--url", url, "follow", id, "abc"])
        #expect(count.status == 2 && count.error.contains("COUNT is a whole number above 0"))
    }
}
