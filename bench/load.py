#!/usr/bin/env python3
"""`make load`: pagerd against the libmicrohttpd ceiling, with wrk, on this machine.

Starts the release pagerd and bench/ceiling, creates 1,000 four-page looping sessions in pagerd,
and runs wrk against each server in turn for POST …/next (rotating over the sessions), GET of
the state, and POST …/scroll (progress 0.25 and 0.5 in turn), at 1, 64 and 256 connections; every
POST changes its session. Prints req/s, p50/p99 latency, server CPU per
request and pagerd's ratio to the ceiling in the same run: medians of LOAD_REPEAT runs (3). The
servers take turns run by run, each repeat starting one server later in the order, so none is
always the first (or the last) to run after another endpoint's load.

pagerd runs in LOAD_THREADING mode (default poll) with LOAD_THREADS internal threads (default 2),
with sessions in memory, and again with one thread, to show how it scales; a third pagerd keeps
its sessions in SQLite (storage=sqlite, sqliteSynchronous=LOAD_SQLITE_SYNCHRONOUS, default full, in
a temporary folder on the same disk as the system's temporary files), so every 2xx to a POST there
waited for its commit. The ceiling runs in the same mode with one
thread and with two; its faster configuration for each endpoint and connection count is the
reference ("as fast as libmicrohttpd allows" on this machine), and both are printed. The table
gives pagerd's ratio to it with LOAD_THREADS threads and with whichever of pagerd's two
configurations was faster, and the CPU ratio: pagerd's CPU per request with LOAD_THREADS threads
over the reference's.

Environment: LOAD_DURATION (seconds per wrk run, default 5), LOAD_REPEAT (default 3),
LOAD_CONNECTIONS (default "1,64,256"), LOAD_THREADING, LOAD_THREADS, LOAD_SQLITE_SYNCHRONOUS, PAGERD_BINARY,
CEILING_BINARY.
"""
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGERD = os.environ.get("PAGERD_BINARY", str(ROOT / ".build/release/pagerd"))
CEILING = os.environ.get("CEILING_BINARY", str(ROOT / ".build/bench/ceiling"))
DURATION = int(os.environ.get("LOAD_DURATION", "5"))
REPEAT = int(os.environ.get("LOAD_REPEAT", "3"))
CONNECTIONS = [int(c) for c in os.environ.get("LOAD_CONNECTIONS", "1,64,256").split(",")]
THREADING = os.environ.get("LOAD_THREADING", "poll")
THREADS = os.environ.get("LOAD_THREADS", "2")
SYNCHRONOUS = os.environ.get("LOAD_SQLITE_SYNCHRONOUS", "full")
PAGERD_SERVERS = ("pagerd", "pagerd 1t", "pagerd sqlite")
SESSIONS = 1000
TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def wait_for_port(port, process):
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"server exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"nothing listens on {port}")


def create_sessions(port):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    ids = []
    # A loop, so every `next` changes the state (and, with storage, writes it).
    body = json.dumps({"pages": [{"id": f"p{i}", "title": f"Page {i}"} for i in range(4)], "initialPage": 1,
                       "mode": "loop"})
    for _ in range(SESSIONS):
        conn.request("POST", "/v1/sessions", body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        ids.append(json.loads(response.read())["id"])
    conn.close()
    return ids


def lua_script(folder, name, method, paths, bodies):
    """Requests rotating over `paths`; with `bodies`, each round over the paths sends the next
    body, so that a command repeated on a session still changes it."""
    path = Path(folder) / f"{name}.lua"
    lines = ["local paths = {" + ",".join(f'"{p}"' for p in paths) + "}", "local i = 0", "local round = 0",
             'local headers = {["Content-Type"] = "application/json"}', "request = function()",
             "  i = i % #paths + 1", "  if i == 1 then round = round + 1 end"]
    if bodies is None:
        lines.append(f'  return wrk.format("{method}", paths[i])')
    else:
        lines.insert(1, "local bodies = {" + ",".join(f"'{b}'" for b in bodies) + "}")
        lines.append(f'  return wrk.format("{method}", paths[i], headers, bodies[round % #bodies + 1])')
    lines.append("end")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def to_ms(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def run_wrk(port, script, connections, pid):
    before = cpu_seconds(pid)
    output = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{DURATION}s", "--latency", "-s", script, f"http://127.0.0.1:{port}/"],
        capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(pid) - before
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": to_ms(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1)),
        "p99": to_ms(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1)),
        "cpu_us": cpu / max(requests, 1) * 1e6,
        "errors": sum(int(g) for g in errors.groups()) if errors else 0,
        "non2xx": int(non2xx.group(1)) if non2xx else 0,
    }


def main():
    with tempfile.TemporaryDirectory() as data:
        run_all(data)


def run_all(data):
    ports = {name: free_port() for name in (*PAGERD_SERVERS, "ceiling 1t", "ceiling 2t")}
    processes = {}
    for name, threads, storage in (("pagerd", THREADS, "memory"), ("pagerd 1t", "1", "memory"),
                                   ("pagerd sqlite", THREADS, "sqlite")):
        env = dict(os.environ, PAGERD_HOST="127.0.0.1", PAGERD_PORT=str(ports[name]),
                   PAGERD_PER_IP_CONNECTION_LIMIT="0", PAGERD_LOG_LEVEL="warning", PAGERD_MAX_SESSIONS="2000000",
                   PAGERD_THREADING=THREADING, PAGERD_THREAD_POOL_SIZE=threads, PAGERD_STORAGE=storage,
                   PAGERD_DATA_PATH=str(Path(data) / "load.db"), PAGERD_SQLITE_SYNCHRONOUS=SYNCHRONOUS)
        processes[name] = subprocess.Popen([PAGERD], cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    for name, threads in (("ceiling 1t", "1"), ("ceiling 2t", "2")):
        processes[name] = subprocess.Popen([CEILING, str(ports[name]), THREADING, threads], stderr=subprocess.DEVNULL)
    try:
        for name, process in processes.items():
            wait_for_port(ports[name], process)
        session_ids = {name: create_sessions(ports[name]) for name in PAGERD_SERVERS}
        with tempfile.TemporaryDirectory() as folder:
            def scripts(tag, ids):
                return {
                    "POST next": lua_script(folder, f"next{tag}", "POST", [f"/v1/sessions/{i}/next" for i in ids],
                                            None),
                    "GET state": lua_script(folder, f"get{tag}", "GET", [f"/v1/sessions/{i}" for i in ids], None),
                    "POST scroll": lua_script(folder, f"scroll{tag}", "POST", [f"/v1/sessions/{i}/scroll" for i in ids],
                                              ['{"progress": 0.25}', '{"progress": 0.5}']),
                }
            endpoint_scripts = {"pagerd": scripts("a", session_ids["pagerd"]),
                                "pagerd 1t": scripts("b", session_ids["pagerd 1t"]),
                                "pagerd sqlite": scripts("c", session_ids["pagerd sqlite"])}
            endpoint_scripts["ceiling 1t"] = endpoint_scripts["ceiling 2t"] = endpoint_scripts["pagerd"]
            results = {}
            for repeat in range(REPEAT):
                for endpoint in ("POST next", "GET state", "POST scroll"):
                    for connections in CONNECTIONS:
                        servers = list(processes.items())
                        turn = repeat % len(servers)
                        for server, process in servers[turn:] + servers[:turn]:
                            figures = run_wrk(ports[server], endpoint_scripts[server][endpoint], connections, process.pid)
                            results.setdefault((endpoint, connections, server), []).append(figures)
                            print(f"  run {repeat + 1}/{REPEAT} {endpoint:11} c={connections:<3} {server:10} "
                                  f"{figures['rps']:9.0f} req/s", file=sys.stderr, flush=True)
        print_table(results)
    finally:
        for process in processes.values():
            process.terminate()
            process.wait(timeout=10)


def median(runs, key):
    return statistics.median(run[key] for run in runs)


def print_table(results):
    print(f"\npagerd vs the libmicrohttpd ceiling: wrk -t1, {DURATION} s per run, median of {REPEAT}, "
          f"{SESSIONS} sessions of 4 pages, {THREADING}; pagerd with {THREADS} server threads (and with 1), "
          f"the ceiling with 1 and 2, the faster taken as the reference; "
          f"{os.cpu_count()} cores shared by server and client\n")
    print("| endpoint | conns | pagerd req/s | pagerd 1 thread | ceiling 1 / 2 threads | ratio to best | "
          "ratio, faster pagerd | pagerd p50 / p99 ms | best ceiling p50 / p99 ms | "
          "pagerd CPU µs/req (1 thread) | ceiling CPU µs/req 1 / 2 threads | CPU ratio | errors |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    sqlite_rows = []
    keys = sorted({(name, c) for name, c, _ in results},
                  key=lambda k: (["POST next", "GET state", "POST scroll"].index(k[0]), k[1]))
    for name, connections in keys:
        runs = {server: results[(name, connections, server)]
                for server in (*PAGERD_SERVERS, "ceiling 1t", "ceiling 2t")}
        best = max(("ceiling 1t", "ceiling 2t"), key=lambda server: median(runs[server], "rps"))
        mine, ceiling = runs["pagerd"], runs[best]
        faster = max(median(mine, "rps"), median(runs["pagerd 1t"], "rps"))
        errors = sum(run["errors"] + run["non2xx"] for server_runs in runs.values() for run in server_runs)
        print(f"| {name} | {connections} | {median(mine, 'rps'):,.0f} | {median(runs['pagerd 1t'], 'rps'):,.0f} "
              f"| {median(runs['ceiling 1t'], 'rps'):,.0f} / {median(runs['ceiling 2t'], 'rps'):,.0f} "
              f"| {median(mine, 'rps') / median(ceiling, 'rps'):.2f} | {faster / median(ceiling, 'rps'):.2f} "
              f"| {median(mine, 'p50'):.2f} / {median(mine, 'p99'):.2f} "
              f"| {median(ceiling, 'p50'):.2f} / {median(ceiling, 'p99'):.2f} "
              f"| {median(mine, 'cpu_us'):.1f} ({median(runs['pagerd 1t'], 'cpu_us'):.1f}) "
              f"| {median(runs['ceiling 1t'], 'cpu_us'):.1f} / {median(runs['ceiling 2t'], 'cpu_us'):.1f} "
              f"| {median(mine, 'cpu_us') / median(ceiling, 'cpu_us'):.2f}× | {errors} |")
        stored = runs["pagerd sqlite"]
        sqlite_rows.append(
            f"| {name} | {connections} | {median(mine, 'rps'):,.0f} | {median(stored, 'rps'):,.0f} "
            f"| {median(stored, 'rps') / median(mine, 'rps'):.2f} "
            f"| {median(mine, 'p50'):.2f} / {median(mine, 'p99'):.2f} "
            f"| {median(stored, 'p50'):.2f} / {median(stored, 'p99'):.2f} "
            f"| {median(stored, 'cpu_us'):.1f} | {sum(run['errors'] + run['non2xx'] for run in stored)} |")
    print(f"\nstorage=sqlite (sqliteSynchronous={SYNCHRONOUS}) against storage=memory, same run, "
          f"{THREADS} server threads each\n")
    print("| endpoint | conns | memory req/s | sqlite req/s | sqlite / memory | memory p50 / p99 ms | "
          "sqlite p50 / p99 ms | sqlite CPU µs/req | sqlite errors |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in sqlite_rows:
        print(row)


if __name__ == "__main__":
    main()
