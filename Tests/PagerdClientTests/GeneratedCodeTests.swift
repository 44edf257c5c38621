import Foundation
import PagerdClient
import TestSupport
import Testing

/// The committed generated code matches the contract.
@Suite struct GeneratedCodeTests {
    @Test func generatedFromTheRepositorysOpenAPIDocument() async throws {
        let document = PagerdProcess.repositoryRoot.appendingPathComponent("openapi.json").path
        let digest = try await onThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sha256sum", document]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return String(text.prefix(64))
        }
        #expect(
            digest == GeneratedDocument.sha256,
            "openapi.json changed since Sources/PagerdOpenAPI was made: run tools/generate-client.sh and commit")
    }
}
