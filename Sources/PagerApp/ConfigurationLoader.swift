import Foundation
import JSON
import PagerAccess

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
        // Only from the environment, so that it is in no file, flag or process listing.
        if let password = environment["PAGERD_POSTGRES_PASSWORD"], !password.isEmpty {
            configuration.postgresPassword = password
        }
        // A secret may also come from a file (a container's mounted secret), named by the
        // environment; a file's token overrides the other sources.
        if let path = environment["PAGERD_AUTH_TOKEN_FILE"], !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError(setting: "authToken", source: path, reason: "the file cannot be read")
            }
            let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            // A file named for a secret and holding none is a mistake, never a way to turn the
            // check off (which would fail open).
            guard !token.isEmpty else {
                throw ConfigurationError(setting: "authToken", source: path, reason: "the file holds no token")
            }
            configuration.authToken = token
        }
        var keysSource = environment[Setting.accessKeysVariable] != nil ? Setting.accessKeysVariable : path
        var keysFromFile = false
        if let path = environment["PAGERD_ACCESS_KEYS_FILE"], !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError(setting: "accessKeys", source: path, reason: "the file cannot be read")
            }
            let text = String(decoding: data, as: UTF8.self)
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ConfigurationError(setting: "accessKeys", source: path, reason: "the file holds no keys")
            }
            let setting = Setting.named("accessKeys")!
            setting.apply(&configuration, try setting.parse(text: text, source: path))
            keysSource = path
            keysFromFile = true
        }
        // Checked here, so that a bad key stops pagerd at start-up; the reason names the key by
        // position and kid, never by its secret.
        var definitions: [AccessKeyDefinition] = []
        if let keys = configuration.accessKeys {
            do { definitions = try AccessKeyDefinition.parse(keys) } catch {
                throw ConfigurationError(setting: "accessKeys", source: keysSource, reason: error.reason)
            }
        }
        // A file named for keys that holds none (`[]`, `null`) would start pagerd without access
        // tokens, as an empty file would: both are refused.
        if keysFromFile, definitions.isEmpty {
            throw ConfigurationError(setting: "accessKeys", source: keysSource, reason: "the file holds no keys")
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
        if configuration.storage == .postgres {
            guard let url = configuration.postgresURL else {
                throw ConfigurationError(
                    setting: "postgresURL", source: "configuration", reason: "is required with storage 'postgres'")
            }
            try Self.validatePostgresURL(url)
        }
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

    /// A `postgres://` or `postgresql://` URI without a password. libpq decodes percent-encoding
    /// in the user information and in the query's parameter names, so they are decoded before
    /// they are looked at: `?pass%77ord=` is `?password=`. The messages never repeat the URL,
    /// which might hold one.
    static func validatePostgresURL(_ url: String) throws(ConfigurationError) {
        guard let schemeEnd = url.range(of: "://"),
            ["postgres", "postgresql"].contains(url[..<schemeEnd.lowerBound].lowercased())
        else {
            throw ConfigurationError(
                setting: "postgresURL", source: "configuration",
                reason: "must be a URI such as postgres://pagerd@127.0.0.1:5432/pagerd")
        }
        let holdsPassword = ConfigurationError(
            setting: "postgresURL", source: "configuration",
            reason: "must not hold a password; give it in PAGERD_POSTGRES_PASSWORD")
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        if let at = authority.lastIndex(of: "@"), percentDecoded(authority[..<at]).contains(":") {
            throw holdsPassword
        }
        guard let query = rest.firstIndex(of: "?") else { return }
        for parameter in rest[rest.index(after: query)...].split(separator: "&") {
            // Any parameter named for a password: `password`, and `sslpassword` (a key's).
            let name = percentDecoded(parameter.prefix { $0 != "=" }).lowercased()
            if name.contains("password") { throw holdsPassword }
        }
    }

    /// `text` with each `%XX` (two hex digits) replaced by that byte; anything else kept as it is.
    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.first {
            if byte == UInt8(ascii: "%"), rest.count >= 3,
                let value = UInt8(String(decoding: rest.dropFirst().prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(byte)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
