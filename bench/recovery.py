#!/usr/bin/env python3
"""`make recovery`: how long pagerd takes to take back RECOVERY_SESSIONS (100,000) sessions.

Starts the release pagerd with storage=sqlite on a file in a temporary folder, creates the
sessions (four pages each, from 16 keep-alive connections), moves every tenth one, kills the
process with SIGKILL (so the journal holds whatever the last checkpoint had not folded), starts it
again on the same file and prints: the file's size, the time from exec to the "sessions
recovered" log line (pagerd's own measure of reading and rebuilding every session), to the port
answering, and the resident memory after recovery. Then checks a sample of sessions against the
states acknowledged before the kill.

Environment: RECOVERY_SESSIONS, RECOVERY_REPEAT (restarts measured, default 3), PAGERD_BINARY.
"""
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGERD = os.environ.get("PAGERD_BINARY", str(ROOT / ".build/release/pagerd"))
COUNT = int(os.environ.get("RECOVERY_SESSIONS", "100000"))
REPEAT = int(os.environ.get("RECOVERY_REPEAT", "3"))
CLIENTS = 16


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(port, data):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGERD_")}
    env.update(PAGERD_HOST="127.0.0.1", PAGERD_PORT=str(port), PAGERD_PER_IP_CONNECTION_LIMIT="0",
               PAGERD_MAX_SESSIONS=str(COUNT * 2), PAGERD_STORAGE="sqlite", PAGERD_DATA_PATH=data,
               PAGERD_LOG_FORMAT="json")
    started = time.monotonic()
    process = subprocess.Popen([PAGERD], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    recovered = None
    for line in process.stderr:
        entry = json.loads(line)
        if "restored" in entry:
            recovered = (time.monotonic() - started, entry)
        if "port" in entry:
            break
    ready = time.monotonic() - started
    threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()
    return process, recovered, ready


def create(port, count, acknowledged, errors):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = json.dumps({"pages": [{"id": f"p{i}", "title": f"Page {i}"} for i in range(4)], "mode": "loop"})
    for n in range(count):
        conn.request("POST", "/v1/sessions", body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        state = json.loads(response.read())
        if response.status != 201:
            errors.append(response.status)
            continue
        if n % 10 == 0:
            conn.request("POST", f"/v1/sessions/{state['id']}/next")
            response = conn.getresponse()
            state = json.loads(response.read())
            if response.status != 200:
                errors.append(response.status)
                continue
        acknowledged.append((state["id"], state["version"], state["index"]))
    conn.close()


def rss_mib(pid):
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", text).group(1)) / 1024


def main():
    with tempfile.TemporaryDirectory() as folder:
        data = str(Path(folder) / "recovery.db")
        port = free_port()
        process, _, _ = start(port, data)
        acknowledged, errors, threads = [], [], []
        began = time.monotonic()
        for index in range(CLIENTS):
            share = COUNT // CLIENTS + (1 if index < COUNT % CLIENTS else 0)
            thread = threading.Thread(target=create, args=(port, share, acknowledged, errors))
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join()
        created = time.monotonic() - began
        process.send_signal(signal.SIGKILL)
        process.wait()
        size = sum(p.stat().st_size for p in Path(folder).iterdir()) / 2**20
        print(f"created {len(acknowledged):,} sessions ({COUNT // 10:,} moved once) in {created:.1f} s "
              f"from {CLIENTS} connections, {len(errors)} errors; killed with SIGKILL; files {size:.1f} MiB")
        timings = []
        for _ in range(REPEAT):
            port = free_port()
            process, recovered, ready = start(port, data)
            if recovered is None:
                sys.exit("pagerd did not log its recovery")
            seconds, entry = recovered
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            wrong = 0
            for session, version, index in acknowledged[:: max(1, len(acknowledged) // 2000)]:
                conn.request("GET", f"/v1/sessions/{session}")
                response = conn.getresponse()
                state = json.loads(response.read())
                if response.status != 200 or (state["version"], state["index"]) != (version, index):
                    wrong += 1
            timings.append((seconds, ready, rss_mib(process.pid), entry["restored"], wrong))
            process.send_signal(signal.SIGKILL)
            process.wait()
        print("| restart | sessions restored | exec → recovered s | exec → listening s | RSS MiB | sampled sessions wrong |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: |")
        for n, (seconds, ready, rss, restored, wrong) in enumerate(timings, 1):
            print(f"| {n} | {int(restored):,} | {seconds:.2f} | {ready:.2f} | {rss:.0f} | {wrong} |")
        print(f"median exec → listening: {statistics.median(t[1] for t in timings):.2f} s")


if __name__ == "__main__":
    main()
