import Foundation
import HTTPTypes
import OpenAPIRuntime
import PagerdClient
import Testing

/// Answers every request with `status` and an HTML page of `size` bytes, as a proxy in front of
/// a server that is down might.
private struct PageTransport: ClientTransport {
    let status: Int
    let size: Int

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var response = HTTPResponse(status: .init(code: status))
        response.headerFields[.contentType] = "text/html"
        return (response, HTTPBody(String(repeating: "<p>Bad gateway</p>", count: size / 18)))
    }
}

/// Refusals reach the caller as `PagerClientError.problem` with the server's status, code and
/// field.
@Suite struct ProblemTests {
    @Test func refusalsCarryStatusCodeAndField() async throws {
        let server = try await Server()
        let client = server.client()

        let noSession = await refusal { try await client.next() }
        #expect(noSession == .noSession)

        let template = await refusal { try await client.createSession(template: "nothing") }
        #expect(template?.status == 404 && template?.code == "template_not_found" && template?.field == "template")

        let invalid = await refusal { try await client.createSession(.init(template: "media", preload: 101)) }
        #expect(invalid?.status == 400 && invalid?.code == "invalid_request" && invalid?.field == "preload")

        _ = try await client.createSession(template: "media")
        let range = await refusal { try await client.select(index: 7) }
        #expect(range?.status == 422 && range?.code == "index_out_of_range")
        let page = await refusal { try await client.select(page: "nowhere") }
        #expect(page?.status == 404 && page?.code == "page_not_found")
        let neighbor = await refusal { try await client.begin(to: 2) }
        #expect(neighbor?.status == 422 && neighbor?.code == "not_a_neighbor")
        let root = await refusal { try await client.pop(onPage: "photos") }
        #expect(root?.status == 409 && root?.code == "stack_root")
        let duplicate = await refusal { try await client.insert(.init(id: "photos", title: "Again")) }
        #expect(duplicate?.status == 409 && duplicate?.code == "duplicate_page_id")
        let badPage = await refusal { try await client.insert(.init(id: "has space", title: "X")) }
        #expect(badPage?.status == 400 && badPage?.field == "page.id")
        let stale = await refusal { try await client.next(ifMatch: .version(9)) }
        #expect(stale?.status == 412 && stale?.code == "version_mismatch")
        #expect(await client.state?.version == 1)  // nothing changed

        let empty = server.client()
        _ = try await empty.createSession(template: "piggybank")
        let nothing = await refusal { try await empty.next() }
        #expect(nothing?.status == 409 && nothing?.code == "empty_pager")
        if case .problem(let problem) = nothing {
            #expect(problem.knownCode == .emptyPager && problem.detail == "The pager has no pages.")
        }
    }

    @Test func tokenIsSentAsBearer() async throws {
        let server = try await Server(environment: ["PAGERD_AUTH_TOKEN": "s3cret-token"])
        let anonymous = server.client()
        let refused = await refusal { try await anonymous.createSession(template: "media") }
        #expect(refused?.status == 401 && refused?.code == "unauthorized")

        let client = server.client(token: "wrong")
        let wrong = await refusal { try await client.templates() }
        #expect(wrong?.status == 401)
        client.setToken("s3cret-token")
        let state = try await client.createSession(template: "media")
        #expect(state.version == 1)
        var kinds: [EventKind] = []
        for try await event in try await client.events() {
            kinds.append(event.kind)
            break
        }
        #expect(kinds == [.state])
    }

    @Test func aLargePageInsteadOfAProblemKeepsItsStatus() async throws {
        for (status, size) in [(502, 200_000), (404, 1_000_000)] {
            let client = PagerClient(
                baseURL: URL(string: "http://pagerd.invalid")!, transport: PageTransport(status: status, size: size))
            let refused = await refusal { try await client.templates() }
            guard case .unexpectedResponse(let code, let detail) = refused else {
                Issue.record("expected an unexpected response, got \(String(describing: refused))")
                continue
            }
            #expect(code == status && detail.hasPrefix("<p>Bad gateway</p>"))
        }
    }

    @Test func aBaseURLEndingInASlashNamesTheSameServer() async throws {
        let server = try await Server()
        let client = PagerClient(baseURL: URL(string: server.url.absoluteString + "/")!)
        #expect(client.baseURL == server.url)
        let created = try await client.createSession(template: "media")
        #expect(try await client.next().version == created.version + 1)
    }

    @Test func answersThatAreNotPagerdsAndNoServer() async throws {
        let server = try await Server()
        // /demo/ serves files, so a client whose base URL points there gets pagerd's own 404
        // for an unknown file: a problem, with the code of an unknown path.
        let misplaced = PagerClient(baseURL: server.url.appendingPathComponent("demo"))
        let notFound = await refusal { try await misplaced.templates() }
        #expect(notFound?.status == 404 && notFound?.code == "not_found")

        try await server.stop()
        let nobody = PagerClient(baseURL: server.url)
        let down = await refusal { try await nobody.templates() }
        guard case .transport = down else {
            Issue.record("expected a transport error, got \(String(describing: down))")
            return
        }
    }
}
