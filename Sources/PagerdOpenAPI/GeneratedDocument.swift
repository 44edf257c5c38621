// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "49a52b15dc6ec6fa3071aff578969421a6f3d9475a0e075bd2e0daaa0215bff4"
}
