// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "dabdfa62de8b6939a786ff23fd476769cd6e955922bc2d44d3631e36b4308bfe"
}
