/// What the command line asks for.
enum CommandLineOutcome: Equatable {
    /// Run with these flag values, by setting key, and this configuration file, if named.
    case run(flags: [String: String], config: String?)
    /// Print `message` and exit with `code` (0 after `--help`, 2 after a bad argument).
    case exit(code: Int32, message: String)
}

/// pagerd's command line: `--config PATH`, `--help`, and one flag per setting of
/// ``Setting/all``, as `--flag value` or `--flag=value`. Values are validated by the same code
/// as the file's and the environment's, when the configuration is loaded.
enum PagerdCommand {
    /// Parses `arguments` (without the program name).
    static func outcome(for arguments: [String]) -> CommandLineOutcome {
        var flags: [String: String] = [:]
        var config: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" { return .exit(code: 0, message: help) }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                return .exit(code: 2, message: "pagerd: unexpected argument '\(argument)' (see --help)")
            }
            let body = argument.dropFirst(2)
            let name: String
            var value: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                value = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            let setting = Setting.all.first { $0.hasFlag && $0.flag == name }
            guard name == "config" || setting != nil else {
                return .exit(code: 2, message: "pagerd: unknown option '--\(name)' (see --help)")
            }
            if value == nil { value = remaining.popFirst() }
            guard let value else { return .exit(code: 2, message: "pagerd: --\(name) needs a value") }
            if let setting { flags[setting.key] = value } else { config = value }
        }
        return .run(flags: flags, config: config)
    }

    /// The help text, generated from the settings table.
    static var help: String {
        var lines = [
            "pagerd: a headless pager engine behind an HTTP/JSON API.",
            "",
            "Usage: pagerd [--config PATH] [--FLAG VALUE | --FLAG=VALUE]...",
            "",
            "Settings come from config/pagerd.json (or PAGERD_CONFIG / --config), then PAGERD_* environment",
            "variables, then these flags. A bad value exits with status 2.",
            "",
            "  --config PATH    configuration file (default: config/pagerd.json)",
            "  --help, -h       this text",
            "",
        ]
        for setting in Setting.all {
            let shown = setting.defaultText.isEmpty ? "none" : setting.defaultText
            if setting.hasFlag {
                lines.append("  --\(setting.flag) (\(setting.environment), default \(shown))")
            } else {
                lines.append("  \(setting.environment) (no flag; default \(shown))")
            }
            lines.append("      \(setting.help)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
