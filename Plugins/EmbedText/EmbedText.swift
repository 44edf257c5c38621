import Foundation

/// `EmbedText INPUT OUTPUT TYPE` writes OUTPUT, a Swift source declaring `TYPE.text`: the UTF-8
/// text of INPUT in one raw string literal. The EmbedOpenAPI build-tool plugin runs it on
/// openapi.json.
@main
enum EmbedText {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 4 else { fail("usage: EmbedText INPUT OUTPUT TYPE", status: 2) }
        let (input, output, type) = (arguments[1], arguments[2], arguments[3])
        guard let data = FileManager.default.contents(atPath: input),
            let text = String(validating: data, as: UTF8.self)
        else { fail("EmbedText: \(input) cannot be read as UTF-8 text") }
        let name = URL(fileURLWithPath: input).lastPathComponent
        do {
            try Data(source(embedding: text, from: name, in: type).utf8).write(
                to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            fail("EmbedText: cannot write \(output): \(error)")
        }
    }

    /// The Swift source declaring `type.text` as `text`. The literal's delimiter has one `#` more
    /// than the longest run of `#` in the text, so no content can end the literal or start an
    /// interpolation; its closing quotes stand at column 0, so no line loses indentation.
    static func source(embedding text: String, from name: String, in type: String) -> String {
        var longestRun = 0
        var run = 0
        for scalar in text.unicodeScalars {
            run = scalar == "#" ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let delimiter = String(repeating: "#", count: longestRun + 1)
        // A multiline literal holds the lines between its quotes, without the last line break.
        let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return """
            // Written at build time by the EmbedOpenAPI plugin from \(name); edit that file.
            extension \(type) {
                /// The text of \(name) when this binary was built, without its last line break.
                static let text = \(delimiter)\"\"\"
            \(body)
            \"\"\"\(delimiter)
            }

            """
    }

    static func fail(_ message: String, status: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(status)
    }
}
