#!/usr/bin/env python3
"""What a change costs the SQLite file: the disk figures of the storage hardening, for one pagerd
binary or two (before/after).

    python3 bench/disk.py --binary .build/release/pagerd --cwd .
    python3 bench/disk.py --compare /tmp/pagerd-old/.build/release/pagerd:/tmp/pagerd-old .build/release/pagerd:.

One session of 100 pages, each with ~15 KB of content (2,200 members), is built in a fresh
SQLite file (`sqliteSynchronous` full, the default); then 150 PATCHes each set one page's title
to a new 20-byte text. In a second file, 500 `next`s move a small session. Printed, per binary:

- bytes written per title PATCH: the growth of the process's `write_bytes` (/proc/PID/io: what
  reached the block layer, so the WAL, the database file and checkpoints, not the sockets)
  over the PATCHes, divided by their number; the same for a `next`;
- the size of the database file plus its WAL after the PATCHes (pagerd running), and after a
  fold (pagerd stopped with SIGTERM, which folds the journal into the table);
- the live data: the bytes of every stored blob except the journal's (the session's documents and
  positions as the file keeps them), read with Python's sqlite3 after the stop.

Each binary runs from its `cwd` (so that `config/templates` resolves). Progress goes to stderr,
the figures to stdout (a Markdown table with `--compare`).
"""
import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pytests"))
from rawhttp import Connection, call  # noqa: E402

HOST = "127.0.0.1"
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
PAGES = 100
PATCHES = 150
NEXTS = 500
ROWS = [
    ("bytes written per title PATCH", "bytes"),
    ("ms per title PATCH", "ms"),
    ("file after the PATCHes (db + WAL)", "bytes"),
    ("file after a fold (stopped)", "bytes"),
    ("live data", "bytes"),
    ("file after a fold / live data", "×"),
    ("bytes written per next", "bytes"),
]


def keys(count, width):
    out = []
    for i in range(count):
        key = ""
        for _ in range(width):
            i, digit = divmod(i, 62)
            key = ALPHABET[digit] + key
        out.append(key)
    return out


def written(pid):
    text = Path(f"/proc/{pid}/io").read_text()
    return int(re.search(r"^write_bytes: (\d+)$", text, re.M).group(1))


def file_bytes(path):
    return sum(os.path.getsize(p) for p in (path, f"{path}-wal") if os.path.exists(p))


def live_bytes(path):
    """Every blob's and text's bytes in the file, except the journal's."""
    total = 0
    with sqlite3.connect(path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            if table == "journal":
                continue
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            lengths = " + ".join(f"coalesce(length(CAST({c} AS BLOB)), 0)" for c in columns)
            total += db.execute(f"SELECT coalesce(sum({lengths}), 0) FROM {table}").fetchone()[0]
    db.close()
    return total


class Server:
    def __init__(self, binary, cwd, env):
        full = {k: v for k, v in os.environ.items() if not k.startswith("PAGERD_")}
        full.update({"PAGERD_HOST": HOST, "PAGERD_PORT": "0", "PAGERD_PER_IP_CONNECTION_LIMIT": "0"})
        full.update(env)
        self.proc = subprocess.Popen([binary], cwd=cwd, env=full, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.port = None
        found = threading.Event()

        def drain():
            for raw in self.proc.stderr:
                if self.port is None:
                    match = re.search(rb'port(?:=|":")(\d+)', raw)
                    if match:
                        self.port = int(match.group(1))
                        found.set()
            found.set()

        threading.Thread(target=drain, daemon=True).start()
        if not found.wait(30) or self.port is None:
            self.proc.kill()
            raise RuntimeError("pagerd did not start")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=60)


def measure(binary, cwd):
    figures = {}
    content = {key: 0 for key in keys(2200, 2)}
    with tempfile.TemporaryDirectory(prefix="pagerd-disk-") as folder:
        path = os.path.join(folder, "pagerd.db")
        server = Server(binary, cwd, {
            "PAGERD_STORAGE": "sqlite", "PAGERD_DATA_PATH": path,
            "PAGERD_SESSION_BUDGET_BYTES": "1000000000", "PAGERD_MEMORY_BUDGET_BYTES": "10000000000"})
        try:
            status, _, data = call(server.port, "POST", "/v1/sessions",
                                   {"pages": [{"id": "p0", "title": "P0", "content": content}]}, timeout=30)
            assert status == 201, data
            sid = json.loads(data)["id"]
            conn = Connection(server.port, timeout=60)
            for i in range(1, PAGES):
                status, _, data = conn.request("POST", f"/v1/sessions/{sid}/pages",
                                               {"page": {"id": f"p{i}", "title": f"P{i}", "content": content}})
                assert status == 200, data[:200]
            print(f"  {PAGES} pages built", file=sys.stderr)

            before, began = written(server.proc.pid), time.monotonic()
            for n in range(PATCHES):
                title = f"title number {n:07d}"  # 20 bytes
                status, _, data = conn.request("PATCH", f"/v1/sessions/{sid}/pages/p{n % PAGES}", {"title": title})
                assert status == 200, data[:200]
            elapsed = time.monotonic() - began
            figures["bytes written per title PATCH"] = (written(server.proc.pid) - before) / PATCHES
            figures["ms per title PATCH"] = elapsed * 1000 / PATCHES
            figures["file after the PATCHes (db + WAL)"] = file_bytes(path)
            print(f"  {PATCHES} PATCHes", file=sys.stderr)

            conn.close()
        finally:
            status = server.stop()
        assert status == 0, f"pagerd exited with {status}"
        figures["file after a fold (stopped)"] = file_bytes(path)
        figures["live data"] = live_bytes(path)
        figures["file after a fold / live data"] = figures["file after a fold (stopped)"] / figures["live data"]

        # The hot path, on a file of its own: a `next` journals the position only.
        path = os.path.join(folder, "moves.db")
        server = Server(binary, cwd, {"PAGERD_STORAGE": "sqlite", "PAGERD_DATA_PATH": path})
        try:
            status, _, data = call(server.port, "POST", "/v1/sessions", {"template": "mall"})
            assert status == 201, data
            small = json.loads(data)["id"]
            conn = Connection(server.port, timeout=60)
            before = written(server.proc.pid)
            for _ in range(NEXTS):
                status, _, data = conn.request("POST", f"/v1/sessions/{small}/next")
                assert status == 200, data[:200]
            figures["bytes written per next"] = (written(server.proc.pid) - before) / NEXTS
            conn.close()
        finally:
            server.stop()
    return figures


def text(value):
    return f"{value:.2f}" if isinstance(value, float) and value < 10 else f"{value:,.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/pagerd")
    parser.add_argument("--cwd", default=".")
    parser.add_argument("--compare", nargs=2, metavar="BINARY:CWD")
    args = parser.parse_args()
    if args.compare:
        runs = [tuple(item.split(":", 1)) for item in args.compare]
        results = []
        for binary, cwd in runs:
            print(f"{binary}:", file=sys.stderr)
            results.append(measure(binary, cwd))
        print("| figure | unit | before | after |")
        print("| --- | --- | --- | --- |")
        for name, unit in ROWS:
            print(f"| {name} | {unit} | {text(results[0][name])} | {text(results[1][name])} |")
    else:
        figures = measure(args.binary, args.cwd)
        for name, unit in ROWS:
            print(f"{name}: {text(figures[name])} {unit}")


if __name__ == "__main__":
    main()
