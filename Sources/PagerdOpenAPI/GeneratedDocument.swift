// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "a5e1d47b5e01cb8676a05d68dd1486d3697273ce805fc055373f6639ea35fa10"
}
