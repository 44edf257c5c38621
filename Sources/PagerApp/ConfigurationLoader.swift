import Foundation
import JSON

/// Builds the configuration from, in rising precedence: defaults, the file, the environment,
/// then command-line flags.
public struct ConfigurationLoader: Sendable {
    /// The file used when neither `PAGERD_CONFIG` nor `--config` names one.
    public static let defaultPath = "config/pagerd.json"

    /// The environment variables, by name.
    public var environment: [String: String]
    /// Flag values by setting key, as given on the command line.
    public var flags: [String: String]
    /// The file named by `--config`, if any.
    public var configFlag: String?

    /// Creates a loader.
    public init(environment: [String: String], flags: [String: String] = [:], configFlag: String? = nil) {
        self.environment = environment
        self.flags = flags
        self.configFlag = configFlag
    }

    /// Loads and validates the configuration.
    public func load() throws(ConfigurationError) -> Configuration {
        var configuration = Configuration()
        let explicitPath = configFlag ?? environment["PAGERD_CONFIG"]
        let path = explicitPath ?? Self.defaultPath
        if let data = FileManager.default.contents(atPath: path) {
            try applyFile(Array(data), path: path, to: &configuration)
        } else if explicitPath != nil {
            throw ConfigurationError(setting: "config", source: path, reason: "the file cannot be read")
        }
        for setting in Setting.all {
            if let raw = environment[setting.environment] {
                setting.apply(&configuration, try setting.parse(text: raw, source: setting.environment))
            }
        }
        for setting in Setting.all {
            if let raw = flags[setting.key] {
                setting.apply(&configuration, try setting.parse(text: raw, source: "--\(setting.flag)"))
            }
        }
        try validate(configuration)
        return configuration
    }

    private func applyFile(
        _ bytes: [UInt8], path: String, to configuration: inout Configuration
    ) throws(ConfigurationError) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ConfigurationError(setting: "config", source: path, reason: "not valid JSON: \(error)")
        }
        guard let object = document.objectValue else {
            throw ConfigurationError(setting: "config", source: path, reason: "the file must hold a JSON object")
        }
        for (key, value) in object {
            guard let setting = Setting.all.first(where: { $0.key == key }) else {
                if key.hasPrefix("$") || key.hasPrefix("_") { continue }  // comments and schema links
                throw ConfigurationError(setting: key, source: path, reason: "unknown setting")
            }
            setting.apply(&configuration, try setting.parse(json: value, source: path))
        }
    }

    private func validate(_ configuration: Configuration) throws(ConfigurationError) {
        for origin in configuration.corsOrigins where origin != "*" {
            guard origin.hasPrefix("http://") || origin.hasPrefix("https://"), !origin.hasSuffix("/") else {
                throw ConfigurationError(
                    setting: "corsOrigins", source: "configuration",
                    reason: "'\(origin)' is not an origin such as https://example.com")
            }
        }
        if let token = configuration.authToken,
            token.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value > 0x7E })
        {
            throw ConfigurationError(
                setting: "authToken", source: "configuration", reason: "must be printable ASCII without spaces")
        }
    }
}
