// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "ed2b527848f769c4eeece5dca8140eb0b602f56e36a4e6bb0965e3d60c1800c8"
}
