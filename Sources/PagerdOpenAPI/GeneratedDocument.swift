// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "66f284ba68038228dfc0b10ee63f8a6b70202529a2a14bf3fe2a83720f8f5964"
}
