// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "8227854d73747ad68d919bc74b7ba70bd8cd8653395264b2891b27c4d47ed186"
}
