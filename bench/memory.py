#!/usr/bin/env python3
"""`make memory`: resident memory per idle four-page session.

Starts the release pagerd, reads its resident set size, creates MEMORY_SESSIONS (1,000,000)
sessions of four pages with wrk, reads it again, and prints the growth per session. Sessions are
created from explicit page lists (not a template), so no page array is shared between them.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGERD = os.environ.get("PAGERD_BINARY", str(ROOT / ".build/release/pagerd"))
COUNT = int(os.environ.get("MEMORY_SESSIONS", "1000000"))

SCRIPT = """
local body = '{"pages": [{"id": "p0", "title": "Page 0"}, {"id": "p1", "title": "Page 1"}, {"id": "p2", "title": "Page 2"}, {"id": "p3", "title": "Page 3"}]}'
local headers = {["Content-Type"] = "application/json"}
request = function()
  return wrk.format("POST", "/v1/sessions", headers, body)
end
"""


def rss_kib(pid):
    return int(re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text()).group(1))


def sessions(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
    return int(float(re.search(r"^pagerd_sessions (\S+)$", text, re.M).group(1)))


def main():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, PAGERD_HOST="127.0.0.1", PAGERD_PORT=str(port), PAGERD_PER_IP_CONNECTION_LIMIT="0",
               PAGERD_LOG_LEVEL="warning", PAGERD_MAX_SESSIONS=str(COUNT), PAGERD_STORAGE="memory")
    server = subprocess.Popen([PAGERD], cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                sessions(port)
                break
            except OSError:
                time.sleep(0.05)
        before = rss_kib(server.pid)
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
            script.write(SCRIPT)
        started = time.monotonic()
        # wrk creates sessions until the server holds COUNT (further creates answer 503).
        load = subprocess.Popen(["wrk", "-t1", "-c16", "-d900s", "-s", script.name, f"http://127.0.0.1:{port}/"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while sessions(port) < COUNT and load.poll() is None:
            time.sleep(0.5)
        load.terminate()
        load.wait()
        os.unlink(script.name)
        elapsed = time.monotonic() - started
        created = sessions(port)
        time.sleep(1)
        after = rss_kib(server.pid)
        growth = (after - before) * 1024
        print(f"sessions created: {created:,} in {elapsed:.1f} s ({created / elapsed:,.0f}/s)")
        print(f"resident memory: {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB after, "
              f"growth {growth / 2**20:.1f} MiB")
        print(f"resident memory per session: {growth / created:.0f} bytes")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
