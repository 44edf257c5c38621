import Foundation
import PagerdClient
import TestSupport
import Testing

/// A pagerd process for one test, and clients of it.
final class Server: Sendable {
    let process: PagerdProcess
    let port: Int

    /// Starts pagerd on a free port (or `port`), in memory unless `environment` says otherwise.
    init(port: Int = 0, environment: [String: String] = [:]) async throws {
        process = try PagerdProcess.launch(arguments: ["--port", "\(port)"], environment: environment)
        self.port = try await process.port()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// A new client of this server.
    func client(token: String? = nil) -> PagerClient { PagerClient(baseURL: url, token: token) }

    /// A gauge or counter of `/metrics`, summed over its label sets.
    func metric(_ name: String) async throws -> Double {
        let port = self.port
        let response = try await onThread { try RawHTTPConnection(port: port).request("GET", "/metrics") }
        var total = 0.0
        for line in response.text.split(separator: "\n") where line.hasPrefix(name) {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, fields[0] == name || fields[0].hasPrefix("\(name){") else { continue }
            total += Double(fields[1]) ?? 0
        }
        return total
    }

    /// Stops the process with SIGTERM and waits for it to exit.
    func stop() async throws {
        process.signal(SIGTERM)
        #expect(try await process.waitForExit(timeout: .seconds(10)) == 0)
    }
}

/// The `PagerClientError` that `body` throws, or an issue when it throws none or another error.
func refusal<T>(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T
) async -> PagerClientError? {
    do {
        _ = try await body()
        Issue.record("expected a refusal", sourceLocation: sourceLocation)
        return nil
    } catch let error as PagerClientError {
        return error
    } catch {
        Issue.record("expected a PagerClientError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
