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
