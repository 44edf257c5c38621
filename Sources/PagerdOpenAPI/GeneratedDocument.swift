// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "27120bdbffed146a50199c23ed3467eb0bc2b1b9b9538208e4d5241c17c40f5b"
}
