// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "a50d5705aab3059586b34c4ee20ddb676a1c5a586c0129e2875bbc0ae61daadf"
}
