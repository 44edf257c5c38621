// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "b2f6a59feda8cb2728d0c6c6537d96947d68e90ec96039caefd8ba020e7a65ab"
}
