#!/bin/sh
# Proves how an app consumes the client (docs/swift-client.md, «Adding the package»):
#  1. No target the PagerClient product builds (its modules and every module they depend on in
#     this package) has unsafe flags, which SwiftPM refuses in a dependency required by version.
#  2. A fresh app package outside the repository, depending on it by path, whose main.swift is the
#     program of docs/swift-client.md «A first program», builds where libmicrohttpd, SQLite and
#     libpq cannot be found (no .pc file, empty headers), mentions none of them in its build, and
#     builds no server module. The package is written anew at each run in PAGERD_CLIENT_APP_DIR
#     (default: ~/.cache/pagerd-client-app); its build folder is kept there, so a second run builds
#     only what changed (CI, on a fresh machine, builds it all).
#  3. The program runs against pagerd (PAGERD_BINARY, the release binary by default) and prints
#     what the docs show.
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
targets = {target["name"]: target for target in manifest["targets"]}
product = next(p for p in manifest["products"] if p["name"] == "PagerClient")
built, waiting = set(), list(product["targets"])
while waiting:  # the product's targets and every target of this package they depend on
    name = waiting.pop()
    if name in built or name not in targets:
        continue
    built.add(name)
    for dependency in targets[name].get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency:
                waiting.append(dependency[kind][0])
for name in sorted(built):
    if "unsafeFlags" in json.dumps(targets[name].get("settings", [])):
        sys.exit(f"{name} has unsafe flags")
print(f"check-client-package: no target PagerClient builds has unsafe flags ({', '.join(sorted(built))})")
PYTHON

# 2. By path, outside the repository, built with no pkg-config data at all.
app="${PAGERD_CLIENT_APP_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/pagerd-client-app}/HelloPager"
case "$app/" in "$repo"/*) fail "PAGERD_CLIENT_APP_DIR must be outside the repository" ;; esac
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
# The program and what it prints: the first swift and text blocks after the docs' heading.
python3 - "$repo/docs/swift-client.md" "$app/Sources/HelloPager/main.swift" "$work/expected.txt" <<'PYTHON' ||
import re
import sys

text = open(sys.argv[1]).read()
section = text.split("\n## A first program\n", 1)[1].split("\n## ", 1)[0]
program = re.search(r"```swift\n(.*?)```", section, re.S).group(1)
printed = re.search(r"```text\n(.*?)```", section, re.S).group(1)
open(sys.argv[2], "w").write(program)
open(sys.argv[3], "w").write(printed)
PYTHON
    fail "docs/swift-client.md has no program and output under «A first program»"
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
# JSON, PagerModel, PagerWire and PagerDocuments are the client's too (its predictor runs the
# server's model and reads settings with the server's reader); nothing else of the server may be
# built.
for module in CMicroHTTPD CSQLite CLibPQ CEpoll Locking MicroHTTP PagerAccess PagerSessions PagerStorage \
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
"$app/.build/debug/HelloPager" "http://127.0.0.1:$port" > "$work/printed.txt" || fail "the app failed"
cmp -s "$work/printed.txt" "$work/expected.txt" ||
    fail "the app printed '$(cat "$work/printed.txt")', not what docs/swift-client.md shows: '$(cat "$work/expected.txt")'"
echo "check-client-package: the app ran against pagerd and printed what the docs show: $(tr '\n' '|' < "$work/printed.txt")"
