// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "995d6a17af7ace23aa89022453c5ff145a53608192efbd0b591c14a3e73b8a30"
}
