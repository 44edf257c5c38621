#!/bin/sh
# Regenerates the Swift client's typed requests and responses (Sources/PagerdOpenAPI)
# from openapi.json with apple/swift-openapi-generator 1.14.3. Run it after every change to
# openapi.json and commit what it writes; CI never runs it (the build uses the committed files,
# and GeneratedCodeTests fails while they were generated from another openapi.json).
#
# The generator is built once in .build-openapi/ (ignored by git) from a package made there.
#
# Generator 1.14.3 skips a property written `anyOf: [{$ref}, {"type": "null"}]` (it has no
# support for the null branch: it warns 'Schema "null" is not supported' and leaves the member
# out), which is how openapi.json writes a nullable named schema. So the generator reads a copy in
# which each such property is the reference alone and is left out of `required`: the Swift
# property is then an optional, and JSONDecoder decodes a null as nil. Any other use of a null
# schema stops this script.
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
PYTHON=${PYTHON:-python3}
scratch=.build-openapi
output=Sources/PagerdOpenAPI

mkdir -p "$scratch/generator"
cat > "$scratch/generator/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "generator",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")]
)
MANIFEST

$SWIFT build --package-path "$scratch/generator" --scratch-path "$scratch/build" --product swift-openapi-generator
generator="$($SWIFT build --package-path "$scratch/generator" --scratch-path "$scratch/build" --show-bin-path)/swift-openapi-generator"

$PYTHON - openapi.json "$scratch/openapi-for-swift.json" <<'PYTHON'
import json
import sys

source, target = sys.argv[1], sys.argv[2]
document = json.load(open(source, encoding="utf-8"))
NULL = {"type": "null"}


def nullable_reference(schema):
    """The {$ref} of anyOf: [{$ref}, {type: null}] (in either order), else None."""
    branches = schema.get("anyOf") if isinstance(schema, dict) else None
    if not branches or len(branches) != 2 or NULL not in branches:
        return None
    other = branches[0] if branches[1] == NULL else branches[1]
    return other if set(other) == {"$ref"} else None


def walk(node, path):
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            for name, schema in properties.items():
                reference = nullable_reference(schema)
                if reference is not None:
                    rest = {key: value for key, value in schema.items() if key != "anyOf"}
                    properties[name] = {**reference, **rest}
                    if name in node.get("required", []):
                        node["required"] = [member for member in node["required"] if member != name]
        if node == NULL or ("anyOf" in node and NULL in node["anyOf"]):
            sys.exit(f"generate-client: {path} uses a null schema in a form this script does not rewrite")
        for key, value in node.items():
            walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for position, value in enumerate(node):
            walk(value, f"{path}/{position}")


walk(document, "#")
json.dump(document, open(target, "w", encoding="utf-8"), ensure_ascii=False, indent=1)
PYTHON

mkdir -p "$output"
rm -f "$output"/*.swift
"$generator" generate "$scratch/openapi-for-swift.json" --config tools/openapi-generator-config.yaml \
    --output-directory "$output" 2> "$scratch/generator.log" || { cat "$scratch/generator.log" >&2; exit 1; }
if grep -q "warning" "$scratch/generator.log"; then
    grep "warning" "$scratch/generator.log" >&2
    echo "generate-client: the generator skipped parts of the document (above)" >&2
    exit 1
fi
digest=$(sha256sum openapi.json | cut -d' ' -f1)
cat > "$output/GeneratedDocument.swift" <<SWIFT
// Written by tools/generate-client.sh, do not modify.
// swift-format-ignore-file

/// The openapi.json the code beside this file was generated from.
package enum GeneratedDocument {
    /// Its SHA-256, for the test that the generated code is current.
    package static let sha256 = "$digest"
}
SWIFT
echo "generate-client: wrote $(ls "$output" | wc -l) files in $output from openapi.json $digest"
