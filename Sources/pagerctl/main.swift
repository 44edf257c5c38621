// pagerctl: create, move and follow a pagerd session from the shell, with PagerClient.
import Foundation
import PagerdClient

let usage = """
    usage: pagerctl [--url URL] [--token TOKEN] COMMAND [ARGUMENTS]

    commands:
      templates                      list the server's templates
      create [TEMPLATE]              create a session (from TEMPLATE) and print its id
      state ID                       print the session's state
      next ID | previous ID          move one page
      select ID INDEX|PAGE           jump to a page
      scroll ID PROGRESS             report a swipe's progress (-1 to 1)
      end ID completed|cancelled     end the swipe in flight
      delete ID                      delete the session
      follow ID [COUNT]              print the session's events as they come (COUNT of them, or
                                     until interrupted or the session ends)

    The server is PAGERD_URL (http://127.0.0.1:8080 by default) and the token PAGERD_TOKEN, unless
    --url and --token say otherwise. A state prints as one line: version, index, page and transition.
    A refusal prints the problem's status, code and field and exits with 1; bad usage exits with 2.
    """

/// What the command line asks for.
struct Invocation {
    var url = ProcessInfo.processInfo.environment["PAGERD_URL"] ?? "http://127.0.0.1:8080"
    var token = ProcessInfo.processInfo.environment["PAGERD_TOKEN"]
    var words: [String] = []

    init(_ arguments: ArraySlice<String>) throws(UsageError) {
        var rest = arguments
        while let first = rest.first, first.hasPrefix("--") {
            rest = rest.dropFirst()
            guard let value = rest.first else { throw UsageError("\(first) needs a value") }
            rest = rest.dropFirst()
            switch first {
            case "--url": url = value
            case "--token": token = value
            default: throw UsageError("unknown option \(first)")
            }
        }
        words = Array(rest)
    }
}

/// A command line pagerctl does not understand.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Writes `text` and a newline to standard output at once (unbuffered, so that `follow` shows
/// each event as it comes even through a pipe).
func say(_ text: String) {
    FileHandle.standardOutput.write(Data("\(text)\n".utf8))
}

/// One line for a state: what a person watching the pager wants to see.
func line(_ state: PagerState) -> String {
    var text = "version \(state.version) index \(state.index.map(String.init) ?? "-") page \(state.page?.id ?? "-")"
    if let transition = state.transition {
        text += " transition \(transition.from)->\(transition.to) \(transition.progress)"
    }
    return text
}

func run(_ invocation: Invocation) async throws -> Int32 {
    guard let url = URL(string: invocation.url), url.scheme != nil else {
        throw UsageError("bad --url \(invocation.url)")
    }
    let client = PagerClient(baseURL: url, token: invocation.token)
    let words = invocation.words
    guard let command = words.first else { throw UsageError("no command") }
    func argument(_ position: Int) throws(UsageError) -> String {
        guard position < words.count else { throw UsageError("\(command) needs more arguments") }
        return words[position]
    }
    if command != "templates" && command != "create" {
        try await client.open(sessionID: try argument(1))
    }
    // A command from the shell applies to the session as it is when it arrives (as with curl):
    // sent without If-Match, it is never refused because a tick or another client moved the
    // pager since `open` read it.
    switch command {
    case "templates":
        for template in try await client.templates() {
            say("\(template.name)\t\(template.pageCount) pages\t\(template.description)")
        }
    case "create":
        let state = try await client.createSession(template: words.count > 1 ? words[1] : nil)
        say(state.id)
    case "state": say(line(try await client.refresh()))
    case "next": say(line(try await client.next(ifMatch: .none)))
    case "previous": say(line(try await client.previous(ifMatch: .none)))
    case "select":
        let target = try argument(2)
        if let index = Int(target) {
            say(line(try await client.select(index: index, ifMatch: .none)))
        } else {
            say(line(try await client.select(page: target, ifMatch: .none)))
        }
    case "scroll":
        guard let progress = Double(try argument(2)) else { throw UsageError("PROGRESS is a number") }
        say(line(try await client.scroll(.progress(progress), ifMatch: .none)))
    case "end":
        let outcome = try argument(2)
        guard outcome == "completed" || outcome == "cancelled" else {
            throw UsageError("end takes completed|cancelled")
        }
        say(line(try await client.end(completed: outcome == "completed", ifMatch: .none)))
    case "delete":
        try await client.delete(ifMatch: .none)
        say("deleted")
    case "follow":
        var limit: Int?
        if words.count > 2 {
            guard let count = Int(words[2]), count > 0 else { throw UsageError("COUNT is a whole number above 0") }
            limit = count
        }
        var seen = 0
        for try await event in try await client.events() {
            say("\(event.kind.rawValue) \(line(event.state))\(event.cause.map { " cause \($0.rawValue)" } ?? "")")
            seen += 1
            if let limit, seen >= limit { break }
        }
    default: throw UsageError("unknown command \(command)")
    }
    return 0
}

let status: Int32
do {
    status = try await run(try Invocation(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    FileHandle.standardError.write(Data("pagerctl: \(error.message)\n\n\(usage)\n".utf8))
    status = 2
} catch let error as PagerClientError {
    FileHandle.standardError.write(Data("pagerctl: \(error)\n".utf8))
    status = 1
}
exit(status)
