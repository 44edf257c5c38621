import Foundation
import HTTPTypes
import OpenAPIRuntime
import PagerdClient
import TestSupport
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

        // A number JSON cannot carry is refused before anything is sent, as pagerd would refuse it.
        let client = server.client()
        let created = try await client.createSession(template: "media")
        let infinite = await refusal { try await client.scroll(.progress(.infinity)) }
        #expect(infinite?.status == 400 && infinite?.code == "invalid_request")
        #expect(try await client.refresh().version == created.version)

        try await server.stop()
        let nobody = PagerClient(baseURL: server.url)
        let down = await refusal { try await nobody.templates() }
        guard case .transport = down else {
            Issue.record("expected a transport error, got \(String(describing: down))")
            return
        }
    }
}

/// Forwards every request to pagerd but answers the operations in `answers` itself, as a proxy
/// that mangles them might: with the status, `Content-Type` (or none), `ETag` (or none) and body
/// given; `Forwarded.count` counts the answers it made up.
private struct MangledTransport: ClientTransport {
    struct Answer: Sendable {
        var status: Int
        var contentType: String?
        var body: String
        var eTag: String? = nil
        var retryAfter: String? = nil
    }

    final class Count: @unchecked Sendable {
        // @unchecked: `value` is changed only under `lock`.
        private let lock = NSLock()
        private var stored = 0
        var value: Int { lock.withLock { stored } }
        func increment() { lock.withLock { stored += 1 } }
    }

    let forward = PagerClient.defaultTransport()
    let answers: [String: Answer]
    let made = Count()

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let answer = answers[operationID] else {
            return try await forward.send(request, body: body, baseURL: baseURL, operationID: operationID)
        }
        made.increment()
        var response = HTTPResponse(status: .init(code: answer.status))
        if let contentType = answer.contentType { response.headerFields[.contentType] = contentType }
        if let eTag = answer.eTag { response.headerFields[.eTag] = eTag }
        if let retryAfter = answer.retryAfter { response.headerFields[.retryAfter] = retryAfter }
        return (response, answer.body.isEmpty ? nil : HTTPBody(answer.body))
    }
}

@Suite struct MangledAnswerTests {
    @Test func aSuccessThatIsNotPagerdsKeepsItsStatus() async throws {
        let server = try await Server()
        let transport = MangledTransport(answers: [
            "next": .init(status: 204, contentType: nil, body: ""),
            "previous": .init(status: 200, contentType: "application/json", body: ""),
            "listTemplates": .init(status: 200, contentType: "text/html", body: "<p>Welcome to the portal</p>"),
            "deleteSession": .init(status: 200, contentType: "application/json", body: "{}"),
        ])
        let client = PagerClient(baseURL: server.url, transport: transport)
        _ = try await client.createSession(template: "media")
        let answers = [
            await refusal { try await client.next() }, await refusal { try await client.previous() },
            await refusal { try await client.templates() }, await refusal { try await client.delete() },
        ]
        #expect(answers.map(\.?.status) == [204, 200, 200, 200])
        for answer in answers {
            guard case .unexpectedResponse = answer else {
                Issue.record("expected an unexpected response, got \(String(describing: answer))")
                continue
            }
        }
    }

    @Test func settingsWithoutAnETagOrWithAWeakOneAreReadOnce() async throws {
        let server = try await Server()
        let plain = server.client()
        _ = try await plain.createSession(template: "media")
        let settings = try await plain.loadSettings()
        let document = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        for eTag in [nil, #"W/"1""#] {
            let transport = MangledTransport(answers: [
                "getSettings": .init(status: 200, contentType: "application/json", body: document, eTag: eTag)
            ])
            let client = PagerClient(baseURL: server.url, transport: transport)
            _ = try await client.createSession(template: "media")
            for progress in [0.1, 0.2, 0.3] { _ = try await client.predictScroll(.progress(progress)) }
            #expect(transport.made.value == 1, "ETag \(eTag ?? "none")")
        }
    }

    @Test func aStreamThatEndsAtOnceIsAskedAgainLessAndLessOften() async throws {
        let server = try await Server()
        let transport = MangledTransport(answers: [
            "streamEvents": .init(status: 200, contentType: "text/event-stream", body: "")
        ])
        let client = PagerClient(baseURL: server.url, transport: transport)
        _ = try await client.createSession(template: "media")
        let following = Task {
            for try await _ in try await client.events() {}
        }
        try await Task.sleep(for: .seconds(2))
        following.cancel()
        // Waits of 0.25, 0.5 and 1 s (less up to half at random) fit at most five connections in
        // 2 s; a wait that stayed at 0.25 s would make eight or more.
        #expect((1...5).contains(transport.made.value), "\(transport.made.value) connections")
    }

    @Test func aStreamRefusedWithRetryAfterWaitsWhatItNames() async throws {
        let server = try await Server()
        let full = #"{"type": "about:blank", "title": "x", "status": 503, "code": "at_capacity", "detail": "full"}"#
        let transport = MangledTransport(answers: [
            "streamEvents": .init(status: 503, contentType: "application/problem+json", body: full, retryAfter: "3"),
            "next": .init(status: 503, contentType: "application/problem+json", body: full, retryAfter: " 7 "),
            "previous": .init(
                status: 503, contentType: "application/problem+json", body: full,
                retryAfter: "Fri, 27 Nov 2026 16:00:00 GMT"),
        ])
        let client = PagerClient(baseURL: server.url, transport: transport)
        _ = try await client.createSession(template: "media")
        let refused = await refusal { try await client.next() }
        #expect(refused?.status == 503 && refused?.code == "at_capacity" && refused?.retryAfter == 7)
        let dated = await refusal { try await client.previous() }
        #expect(dated?.status == 503 && dated?.retryAfter == nil)  // a date is not read

        let before = transport.made.value
        let following = Task {
            for try await _ in try await client.events() {}
        }
        await waitUntil("the stream was refused once") { transport.made.value - before == 1 }
        try await Task.sleep(for: .milliseconds(1500))
        // The backoff alone (0.25 s, then 0.5 s, less up to half) would have connected twice
        // more by now; Retry-After: 3 waits 3 to 3.75 s.
        #expect(transport.made.value - before == 1)
        following.cancel()
        _ = try await following.value
    }
}
