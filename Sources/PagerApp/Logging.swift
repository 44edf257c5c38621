import Foundation
import JSON
import Logging

/// Writes each log event as one JSON object per line on standard error.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.field("time")
        writer.string(ISO8601DateFormatter().string(from: Date()))
        writer.field("level")
        writer.string(event.level.rawValue)
        writer.field("logger")
        writer.string(label)
        writer.field("message")
        writer.string(event.message.description)
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            writer.key(key)
            writer.string(value.description)
        }
        writer.endObject()
        FileHandle.standardError.write(Data(writer.bytes + [0x0A]))
    }
}

/// Sets up swift-log once for the process.
enum LogSetup {
    static func bootstrap(format: LogFormat, level: LogLevel) {
        let level = Logger.Level(rawValue: level.rawValue) ?? .info
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }
}

/// libmicrohttpd's own messages, as pagerd logs them.
///
/// Some name a request's target. A session's id is a capability where no token is required, and
/// an event stream's query may carry an access token, so every target is cut to its route
/// (`/v1/sessions/{id}/…`) and its query dropped before the message is logged. A client that went
/// away mid-answer is routine (a browser tab closed), so those messages are logged at debug level;
/// the rest at notice.
enum LibraryLog {
    /// The message with every session id and query in it replaced.
    static func redacted(_ message: String) -> String {
        var result = ""
        result.reserveCapacity(message.utf8.count)
        var rest = Substring(message)
        let marker = "/v1/sessions/"
        while let found = rest.range(of: marker) {
            result += rest[..<found.upperBound]
            rest = rest[found.upperBound...]
            let id = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            if !id.isEmpty { result += "{id}" }
            rest = rest[id.endIndex...]
        }
        result += rest
        // A query runs from `?` to the end of the target: a quote, a space or the end.
        var cleaned = ""
        var inQuery = false
        for character in result {
            if inQuery {
                if "'\" \t".contains(character) {
                    inQuery = false
                    cleaned.append(character)
                }
                continue
            }
            if character == "?" {
                inQuery = true
                cleaned += "?…"
                continue
            }
            cleaned.append(character)
        }
        return cleaned
    }

    /// The level a message is logged at: debug for what any client can cause at will (leaving,
    /// opening connections past a limit, or sending a request the library refuses itself: no
    /// `Host`, a head too large, a malformed line or `Content-Length`), so that it cannot fill
    /// the log; notice for the rest.
    static func level(of message: String) -> Logger.Level {
        let routine = [
            "Connection socket is closed", "Failed to send", "Connection reset by peer", "Broken pipe",
            "Socket has been disconnected", "Connection was closed by remote side", "forcibly closed by remote peer",
            "Server reached connection limit", "Error processing request (HTTP response code is",
            "request without `Host' header", "value of 'Content-Length' header", "parse `Content-Length' header",
            "Not enough memory in pool to allocate header record",
        ]
        return routine.contains { message.contains($0) } ? .debug : .notice
    }
}
