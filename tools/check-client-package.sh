#!/bin/sh
# Proves how an app consumes the client (docs/swift-client.md, «Adding the package»):
#  1. The client's targets have no unsafe flags (refused in a dependency required by version).
#  2. A fresh app package that depends on this repository by path, with a tiny executable using
#     PagerClient, builds where libmicrohttpd, SQLite and libpq cannot be found (no .pc file, empty
#     headers), mentions none of them in its build, and builds no server module. The package is
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
mkdir -p "$app/Sources/HelloPager"
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
# The build runs where the server's libraries cannot be found, when this script may make such a
# place (root and unshare, as on CI): in a mount namespace of its own, the pkg-config folders are
# empty and the headers of libmicrohttpd, SQLite and libpq are empty files. (SwiftPM reads the .pc
# file of every system-library target of the graph while planning, built or not, from its own
# list of folders: PKG_CONFIG_LIBDIR does not hide them.) Two checks first show the place is as
# said: pkg-config finds no libmicrohttpd, and C code using its header does not compile.
mkdir -p "$work/empty"
: > "$work/empty.h"
isolate=""
if [ "$(id -u)" = 0 ] && unshare --mount --propagation private true 2> /dev/null; then
    isolate="unshare --mount --propagation private"
else
    echo "check-client-package: cannot hide the server's libraries here (needs root and unshare); building beside them"
fi
started=$(date +%s)
$isolate sh -c '
    set -eu
    hide=$1 empty=$2 empty_header=$3 swift=$4 app=$5
    if [ "$hide" = yes ]; then
        for folder in /usr/lib/x86_64-linux-gnu/pkgconfig /usr/lib/aarch64-linux-gnu/pkgconfig /usr/lib/pkgconfig \
            /usr/share/pkgconfig /usr/local/lib/pkgconfig /usr/local/share/pkgconfig; do
            if [ -d "$folder" ]; then mount --bind "$empty" "$folder"; fi
        done
        for header in /usr/include/microhttpd.h /usr/include/sqlite3.h /usr/include/postgresql/libpq-fe.h; do
            if [ -f "$header" ]; then mount --bind "$empty_header" "$header"; fi
        done
        if pkg-config --exists libmicrohttpd 2> /dev/null; then echo "libmicrohttpd is still found" >&2; exit 3; fi
        if printf "#include <microhttpd.h>\nint yes = MHD_YES;\n" | cc -fsyntax-only -x c - 2> /dev/null; then
            echo "microhttpd.h still compiles" >&2
            exit 3
        fi
    fi
    "$swift" build --package-path "$app" --scratch-path "$app/.build" -v
' sh "$([ -n "$isolate" ] && echo yes || echo no)" "$work/empty" "$work/empty.h" "$SWIFT" "$app" > "$work/build.log" 2>&1 ||
    { tail -40 "$work/build.log" >&2; fail "the app did not build"; }
seconds=$(($(date +%s) - started))
# SwiftPM looks for the .pc file of every system-library target while planning, and where there is
# none it warns "you may be able to install libmicrohttpd using your system-packager" (with the apt
# line after it), even for a target it does not build: that much is expected. Anything else that
# names a server library (a flag, a header, a link) means the app used it.
grep -E -v "^warning: you may be able to install (libmicrohttpd|libpq|sqlite3) using your system-packager:$|^ +apt-get install (libmicrohttpd-dev|libpq-dev|libsqlite3-dev)$" \
    "$work/build.log" > "$work/build-used.log" || true
if grep -E -i "microhttpd|sqlite3|libpq|pkg-config" "$work/build-used.log" > "$work/lookups.log"; then
    head -5 "$work/lookups.log" >&2
    fail "the app's build used a server library"
fi
warned=$(grep -c -E "^warning: you may be able to install" "$work/build.log" || true)
# JSON, PagerModel and PagerDocuments are the client's too (its predictor runs the server's model);
# nothing else of the server may be built.
for module in CMicroHTTPD CSQLite CLibPQ CEpoll Locking MicroHTTP PagerWire PagerAccess PagerSessions PagerStorage \
    PagerAPI PagerApp ServiceLifecycle Prometheus Metrics JWTKit; do
    if ls -d "$app/.build/debug/$module.build" "$app/.build/debug/Modules/$module.swiftmodule" > /dev/null 2>&1; then
        fail "the app's build built the server's module $module"
    fi
done
ls -d "$app/.build/debug/PagerdClient.build" > /dev/null 2>&1 || fail "the app's build has no PagerdClient"
echo "check-client-package: the app built in ${seconds} s$([ -n "$isolate" ] && echo " without the server's libraries on the machine"), with no server module ($warned warnings of SwiftPM's about the missing libraries)"

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
