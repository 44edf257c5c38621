/// The OpenAPI 3.1 document served at `/openapi.json`: `openapi.json` at the repository's root,
/// the hand-written contract, which the EmbedOpenAPI build-tool plugin compiles into this module
/// as ``text`` (Plugins/EmbedOpenAPI).
enum OpenAPIDocument {
    /// The document's bytes, as `/openapi.json` serves them.
    static let bytes: [UInt8] = Array(text.utf8)
}

#if PAGERD_WITHOUT_OPENAPI
    extension OpenAPIDocument {
        /// Fuzz builds (`make fuzz`) are compiled without the EmbedOpenAPI plugin: an empty document.
        static let text = "{}"
    }
#endif
