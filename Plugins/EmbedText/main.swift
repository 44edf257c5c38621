// `EmbedText INPUT OUTPUT TYPE` writes OUTPUT, a Swift source declaring `TYPE.text`: the UTF-8
// text of INPUT in one raw string literal. The literal's delimiter has one `#` more than the
// longest run of `#` in the text, so no content can end the literal or start an interpolation.
// The EmbedOpenAPI build-tool plugin runs it on openapi.json.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: EmbedText INPUT OUTPUT TYPE\n".utf8))
    exit(2)
}
let (input, output, type) = (arguments[1], arguments[2], arguments[3])
guard let data = FileManager.default.contents(atPath: input), let text = String(validating: data, as: UTF8.self)
else {
    FileHandle.standardError.write(Data("EmbedText: \(input) cannot be read as UTF-8 text\n".utf8))
    exit(1)
}

var longestRun = 0
var run = 0
for character in text.unicodeScalars {
    run = character == "#" ? run + 1 : 0
    longestRun = max(longestRun, run)
}
let delimiter = String(repeating: "#", count: longestRun + 1)
// A multiline literal takes its content from the line after the opening quotes to the line
// before the closing ones; the closing quotes at column 0 keep every line's indentation.
let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
let name = URL(fileURLWithPath: input).lastPathComponent
let source = """
    // Written at build time by the EmbedOpenAPI plugin from \(name); edit that file.
    extension \(type) {
        /// The text of \(name) when this binary was built.
        static let text = \(delimiter)\"\"\"
    \(body)
    \"\"\"\(delimiter)
    }

    """
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("EmbedText: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
