import Foundation
import PagerdClient
import TestSupport
import Testing

/// The prediction tests run today against web/pagerd.js's `predictScroll` (in Node), the
/// implementation docs/client-prediction.md describes: this holds the tests themselves, the
/// inputs they derive and `ScrollMembers`'s JSON form to the server until PagerModel's predictor
/// replaces it.
@Suite(
    .enabled(if: WebModulePredictor.nodeAvailable, "Node is not installed (make browser-deps installs it)"),
    .serialized)
struct WebModulePredictionTests {
    @Test(arguments: PredictionTests.cases) func webModuleEqualsTheServer(_ testCase: PredictionTests.Case) async throws
    {
        let predictor = try WebModulePredictor()
        try await PredictionTests.expectPredictionEqualsTheServer(testCase, predictor: predictor)
    }

    @Test func webModuleRefusesAsTheServer() async throws {
        try await PredictionTests.expectRefusalsAreTheServers(predictor: try WebModulePredictor())
    }

    @Test func clientPredictsFromTheStateItHolds() async throws {
        let server = try await Server()
        let client = PagerClient(baseURL: server.url, predictor: try WebModulePredictor())
        _ = try await client.createSession(template: "mall")
        _ = try await client.select(index: 2)
        let predicted = try await client.predictScroll(.progress(0.5))  // reads the settings itself
        #expect(await client.settings?.mode == .loop)
        let answered = try await client.scroll(.progress(0.5))
        expectClose(predicted, ScrollMembers(of: answered), "mall across the seam")
        #expect(predicted.transition == .init(from: 2, to: 0, progress: 0.5, direction: .forward))

        let unable = server.client()
        _ = try await unable.createSession(template: "mall")
        let refused = await refusal { try await unable.predictScroll(.progress(0.5)) }
        #expect(refused == .predictionUnavailable)
    }
}

/// `predictScroll` of web/pagerd.js, in a Node process that answers one JSON line per request.
/// A call blocks its thread until Node answers (a millisecond or so), which is why the suite runs
/// its cases one at a time.
final class WebModulePredictor: ScrollPredicting, @unchecked Sendable {
    // @unchecked: the process and the buffer are used only under `lock`, one request at a time.
    private let lock = NSLock()
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    /// Node, as `make browser-deps` installs it.
    static var nodeAvailable: Bool {
        ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/node")
        } ?? false
    }

    init() throws {
        let module = PagerdProcess.repositoryRoot.appendingPathComponent("web/pagerd.js").path
        let script = """
            import { predictScroll } from \(String(reflecting: module));
            import { createInterface } from "node:readline";
            for await (const line of createInterface({ input: process.stdin })) {
              const { state, settings, input } = JSON.parse(line);
              let answer;
              try {
                answer = { members: predictScroll(state, settings, input) };
              } catch (error) {
                answer = { error: { status: error.status ?? 0, code: String(error.code), field: error.field ?? null,
                                    detail: String(error.message) } };
              }
              process.stdout.write(JSON.stringify(answer) + "\\n");
            }
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["node", "--input-type=module", "-e", script]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private struct Request: Encodable {
        var state: PagerState
        var settings: PagerSettings
        var input: [String: Double]
    }

    private struct Answer: Decodable {
        struct Refusal: Decodable {
            var status: Int
            var code: String
            var field: String?
            var detail: String
        }
        var members: ScrollMembers?
        var error: Refusal?
    }

    func predictScroll(
        state: PagerState, settings: PagerSettings, input: ScrollInput
    ) throws(PagerClientError)
        -> ScrollMembers
    {
        let form: [String: Double] =
            switch input {
            case .progress(let value): ["progress": value]
            case .offset(let value): ["offset": value]
            case .windowOffset(let value): ["windowOffset": value]
            }
        let answer: Answer
        do {
            let line = try JSONEncoder().encode(Request(state: state, settings: settings, input: form))
            answer = try JSONDecoder().decode(Answer.self, from: Data(lock.withLock { try exchange(Array(line)) }))
        } catch {
            throw .unexpectedResponse(status: 0, detail: "web/pagerd.js in Node: \(error)")
        }
        if let refusal = answer.error {
            throw .problem(
                .init(status: refusal.status, code: refusal.code, field: refusal.field, detail: refusal.detail))
        }
        guard let members = answer.members else { throw .unexpectedResponse(status: 0, detail: "no members") }
        return members
    }

    /// Writes one request line and reads one answer line.
    private func exchange(_ line: [UInt8]) throws -> [UInt8] {
        try input.fileHandleForWriting.write(contentsOf: line + [UInt8(ascii: "\n")])
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return answer
            }
            // read(2) itself: FileHandle's reads wait for a whole count or the end of the file.
            var chunk = [UInt8](repeating: 0, count: 65536)
            let descriptor = output.fileHandleForReading.fileDescriptor
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw CocoaError(.fileReadUnknown) }
            buffer += chunk[..<count]
        }
    }
}
