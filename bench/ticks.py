#!/usr/bin/env python3
"""`make ticks`: what auto-advance costs the server (docs/api.md, «Auto-advance»).

Starts the release pagerd (memory store unless TICKS_STORAGE=sqlite), creates TICKS_SESSIONS
(10,000) four-page loop sessions with auto-advance every TICKS_INTERVAL ms (1000), and measures the
server's CPU time (utime + stime from /proc) over TICKS_SECONDS (10) while nothing but the timers
runs. Then it stops every timer (the control endpoint's `stop`) and measures the same idle server
again, so the difference is what the ticks cost. It prints CPU as a share of one core, the ticks
applied (from the versions) and the CPU per tick. Repeated TICKS_REPEAT (3) times; medians.
"""
import http.client
import json
import os
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from load import cpu_seconds, free_port

ROOT = Path(__file__).resolve().parents[1]
PAGERD = os.environ.get("PAGERD_BINARY", str(ROOT / ".build/release/pagerd"))
COUNT = int(os.environ.get("TICKS_SESSIONS", "10000"))
INTERVAL = int(os.environ.get("TICKS_INTERVAL", "1000"))
SECONDS = float(os.environ.get("TICKS_SECONDS", "10"))
REPEAT = int(os.environ.get("TICKS_REPEAT", "3"))
STORAGE = os.environ.get("TICKS_STORAGE", "memory")
CLIENTS = 8


def each_session(port, ids, work):
    """Runs `work(conn, id)` over `ids` from CLIENTS keep-alive connections."""
    def run(share):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for sid in share:
            work(conn, sid)
        conn.close()
    threads = [threading.Thread(target=run, args=(ids[i::CLIENTS],)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def call(conn, method, path, body=None):
    conn.request(method, path, json.dumps(body) if body is not None else None,
                 {"Content-Type": "application/json"} if body is not None else {})
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"null")


def measure(pid):
    before = cpu_seconds(pid)
    time.sleep(SECONDS)
    return cpu_seconds(pid) - before


def versions(port, ids):
    total = []
    each_session(port, ids[:: max(1, len(ids) // 500)],
                 lambda conn, sid: total.append(call(conn, "GET", f"/v1/sessions/{sid}")[1]["version"]))
    return sum(total) / len(total)


def one_run():
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAGERD_")}
        env.update(PAGERD_HOST="127.0.0.1", PAGERD_PORT=str(port), PAGERD_PER_IP_CONNECTION_LIMIT="0",
                   PAGERD_STORAGE=STORAGE, PAGERD_DATA_PATH=str(Path(folder) / "ticks.db"),
                   PAGERD_MAX_SESSIONS=str(COUNT * 2))
        process = subprocess.Popen([PAGERD], cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            body = {"pages": [{"id": f"p{i}", "title": f"Page {i}"} for i in range(4)], "mode": "loop",
                    "autoAdvance": {"enabled": True, "interval": INTERVAL}}
            ids = []
            each_session(port, list(range(COUNT)),
                         lambda conn, _: ids.append(call(conn, "POST", "/v1/sessions", body)[1]["id"]))
            time.sleep(INTERVAL / 1000 + 0.5)  # every timer has ticked at least once
            start_version = versions(port, ids)
            ticking = measure(process.pid)
            ticks = (versions(port, ids) - start_version) * COUNT
            each_session(port, ids, lambda conn, sid: call(conn, "POST", f"/v1/sessions/{sid}/autoAdvance",
                                                            {"action": "stop"}))
            time.sleep(0.5)
            idle = measure(process.pid)
            return ticking / SECONDS, idle / SECONDS, ticks / SECONDS
        finally:
            process.kill()
            process.wait()


def main():
    runs = [one_run() for _ in range(REPEAT)]
    ticking = statistics.median(r[0] for r in runs)
    idle = statistics.median(r[1] for r in runs)
    rate = statistics.median(r[2] for r in runs)
    cost = ticking - idle
    print(f"{COUNT:,} sessions ticking every {INTERVAL} ms, storage {STORAGE}, {SECONDS:.0f} s windows, "
          f"medians of {REPEAT}")
    print(f"{'server CPU while ticking':32} {ticking * 100:7.2f} % of one core")
    print(f"{'server CPU with timers stopped':32} {idle * 100:7.2f} % of one core")
    print(f"{'cost of the ticks':32} {cost * 100:7.2f} % of one core")
    print(f"{'ticks applied':32} {rate:9.0f} per second ({cost / rate * 1e6 if rate else 0:.2f} µs of CPU each)")


if __name__ == "__main__":
    main()
