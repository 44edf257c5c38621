// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "498ec2aad4e04c7eabc4a8cf9bdf257191bc91ee4279215c0875e4b196f8f4e9"
}
