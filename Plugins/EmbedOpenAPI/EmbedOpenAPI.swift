import PackagePlugin

/// Embeds `openapi.json`, the hand-written contract at the package's root, in the target it is
/// applied to: at build time the `EmbedText` tool turns the file into a Swift source that
/// declares `OpenAPIDocument.text`, so the binary serves the document wherever it runs and
/// nothing generated is committed.
@main
struct EmbedOpenAPI: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let document = context.package.directoryURL.appending(path: "openapi.json")
        let source = context.pluginWorkDirectoryURL.appending(path: "OpenAPIDocument+Text.swift")
        return [
            .buildCommand(
                displayName: "Embedding openapi.json in \(target.name)",
                executable: try context.tool(named: "EmbedText").url,
                arguments: [document.path(), source.path(), "OpenAPIDocument"],
                inputFiles: [document],
                outputFiles: [source])
        ]
    }
}
