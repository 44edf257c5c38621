// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "0bdfcd20d34d188d6e059e77d06706d13c7d32c21106264fccb3950e536d8889"
}
