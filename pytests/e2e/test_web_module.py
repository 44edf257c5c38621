"""web/pagerd.js as a web team uses it, in Node against the real server: its errors,
cancellation, conflicts and event streams (web/test/client.test.mjs, with a fake server for what
pagerd never sends), the drag helper (web/test/drag.test.mjs), and pagerd.d.ts against real
documents (web/test/types.mjs)."""
import json
import os
import shutil
import subprocess

from support import ROOT


def node():
    path = shutil.which("node")
    assert path, "node is missing: `make browser-deps` installs Debian's nodejs"
    return path


def run(args, env=None, timeout=300):
    return subprocess.run([node(), *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def test_client_errors_cancellation_conflicts_and_streams(start_pagerd):
    server = start_pagerd()
    guarded = start_pagerd({"PAGERD_AUTH_TOKEN": "secret"})
    result = run(["--test", "web/test/client.test.mjs"], {
        "PAGERD_URL": f"http://127.0.0.1:{server.port}", "PAGERD_AUTH_URL": f"http://127.0.0.1:{guarded.port}"})
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# skipped 0" in result.stdout


def test_drag_helper(pagerd):
    result = run(["--test", "web/test/drag.test.mjs"], {"PAGERD_URL": f"http://127.0.0.1:{pagerd.port}"})
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# pass 9" in result.stdout
    print("\n" + "\n".join(line for line in result.stdout.splitlines() if "requests (" in line))


def test_type_declarations_cover_real_documents(pagerd):
    result = run(["web/test/types.mjs", "--base", f"http://127.0.0.1:{pagerd.port}"])
    assert result.returncode == 0, result.stdout + result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["problems"] == 0 and summary["checkedMembers"] > 1500
