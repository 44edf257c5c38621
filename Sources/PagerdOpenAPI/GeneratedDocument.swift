// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "cde61b178322bf6fc042afa43cd2a1820beecba53f71f1ebb08b773154427be4"
}
