#!/bin/sh
# Proves how an app consumes the client (docs/swift-client.md, «Adding the package»):
#  1. The client's targets have no unsafe flags (refused in a dependency required by version).
#  2. A fresh app package that depends on this repository by path, with a tiny executable using
#     PagerClient, builds with pkg-config unable to find any library (so a lookup of
#     libmicrohttpd, SQLite or libpq would show), and builds no server target. The package is
#     written anew in .build-client-app/ at each run; its build folder is kept there, so a second
#     run builds only what changed (CI, from a fresh clone, builds it all).
#  3. It runs against pagerd (PAGERD_BINARY, the release binary by default): creates a session,
#     moves it, and reads an event.
# It prints how long the app's build took: on a first build, what the client costs an app and CI.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
SWIFT=${SWIFT:-swift}
binary=${PAGERD_BINARY:-$repo/.build/release/pagerd}
work=$(mktemp -d "${TMPDIR:-/tmp}/pagerd-client-check.XXXXXX")
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

fail() {
    echo "check-client-package: $*" >&2
    exit 1
}

# 1. No unsafe flags in what an app builds.
$SWIFT package --package-path "$repo" dump-package > "$work/manifest.json"
python3 - "$work/manifest.json" <<'PYTHON' || fail "a target of the client has unsafe flags"
import json
import sys

manifest = json.load(open(sys.argv[1]))
client = {"PagerdClient", "PagerdOpenAPI"}
for target in manifest["targets"]:
    if target["name"] in client and "unsafeFlags" in json.dumps(target.get("settings", [])):
        sys.exit(f"{target['name']} has unsafe flags")
PYTHON
echo "check-client-package: no target of PagerClient has unsafe flags"

# 2. By path, built with no pkg-config data at all.
app="$repo/.build-client-app/HelloPager"
rm -rf "$app/Sources" "$app/Package.swift"
identity=$(basename "$repo" | tr '[:upper:]' '[:lower:]')
mkdir -p "$app/Sources/HelloPager" "$work/no-pkg-config"
cat > "$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "HelloPager",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: "$repo")],
    targets: [
        .executableTarget(name: "HelloPager", dependencies: [.product(name: "PagerClient", package: "$identity")])
    ]
)
MANIFEST
cat > "$app/Sources/HelloPager/main.swift" <<'SOURCE'
import Foundation
import PagerdClient

let client = PagerClient(baseURL: URL(string: CommandLine.arguments[1])!)
let created = try await client.createSession(template: "media")
let moved = try await client.next()
for try await event in try await client.events(after: created.version) {
    print("created version \(created.version), next: index \(moved.index ?? -1), event \(event.kind.rawValue) version \(event.state.version)")
    break
}
SOURCE
started=$(date +%s)
PKG_CONFIG_PATH="" PKG_CONFIG_LIBDIR="$work/no-pkg-config" \
    $SWIFT build --package-path "$app" --scratch-path "$app/.build" -v > "$work/build.log" 2>&1 ||
    { tail -40 "$work/build.log" >&2; fail "the app did not build"; }
seconds=$(($(date +%s) - started))
if grep -E -i "microhttpd|sqlite3|libpq|pkg-config|pc file" "$work/build.log" > "$work/lookups.log"; then
    head -5 "$work/lookups.log" >&2
    fail "the app's build looked up a server library"
fi
for module in CMicroHTTPD CSQLite CLibPQ Locking MicroHTTP JSON PagerModel PagerSessions PagerStorage PagerAPI PagerApp \
    ServiceLifecycle Prometheus Metrics; do
    if ls -d "$app/.build/debug/$module.build" "$app/.build/debug/Modules/$module.swiftmodule" > /dev/null 2>&1; then
        fail "the app's build built the server's module $module"
    fi
done
ls -d "$app/.build/debug/PagerdClient.build" > /dev/null 2>&1 || fail "the app's build has no PagerdClient"
echo "check-client-package: the app built in ${seconds} s with no server target and no pkg-config lookup"

# 3. Run it against pagerd.
[ -x "$binary" ] || fail "no pagerd at $binary (make test builds it; or set PAGERD_BINARY)"
PAGERD_STORAGE=memory "$binary" --port 0 > /dev/null 2> "$work/pagerd.log" &
server_pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(grep -o -E 'port[=":]+ *"?[0-9]+' "$work/pagerd.log" | grep -o -E '[0-9]+$' | head -1 || true)
    [ -n "$port" ] && [ "$port" != 0 ] && break
    sleep 0.1
done
[ -n "$port" ] || { cat "$work/pagerd.log" >&2; fail "pagerd did not report its port"; }
output=$("$app/.build/debug/HelloPager" "http://127.0.0.1:$port")
expected="created version 1, next: index 1, event state version 2"
[ "$output" = "$expected" ] || fail "the app printed '$output', not '$expected'"
echo "check-client-package: the app ran against pagerd: $output"
