#!/usr/bin/env python3
"""`make fanout`: one session watched by an audience.

Starts the release pagerd with its limits raised for FANOUT_WATCHERS (10,000) event streams,
measures `POST …/next` on another session with wrk at 64 connections, connects the watchers
(bench/fanout.c, one epoll thread), reads pagerd's resident memory before and after (the growth
per watcher), measures the same `POST …/next` again with the audience connected (FANOUT_ROUNDS,
6, rounds whose order alternates), then moves the watched session FANOUT_CHANGES (20) times and prints, per change, how many watchers were reached
and the delivery latency (p50, p99, max: from the command's answer to each watcher's receipt).

Knobs (environment): FANOUT_WATCHERS, FANOUT_CHANGES, FANOUT_WRK_SECONDS (5), FANOUT_TOKEN=1
(the watchers and the commands carry access tokens: HS256 keys are configured and a control
token minted), and PAGERD_* settings, which are passed to pagerd as they are
(PAGERD_CONNECTION_MEMORY_LIMIT is 4,096 unless set, the setting for an audience).
"""
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGERD = os.environ.get("PAGERD_BINARY", str(ROOT / ".build/release/pagerd"))
CLIENT = str(ROOT / ".build/bench/fanout")
WATCHERS = int(os.environ.get("FANOUT_WATCHERS", "10000"))
CHANGES = int(os.environ.get("FANOUT_CHANGES", "20"))
WRK_SECONDS = int(os.environ.get("FANOUT_WRK_SECONDS", "5"))
WITH_TOKEN = os.environ.get("FANOUT_TOKEN") == "1"
ROUNDS = int(os.environ.get("FANOUT_ROUNDS", "6"))
SECRET = "ZmFub3V0LWJlbmNobWFyay1zZWNyZXQtMzItYnl0ZXM"  # 32 bytes, for this benchmark only
OPERATOR = "fanout-operator-token"

NEXT_SCRIPT = """
request = function()
  return wrk.format("POST", "/v1/sessions/%s/next", {%s})
end
"""


def cpu_seconds(pid):
    """User and system CPU time the process has used, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    return int(re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text()).group(1))


def call(port, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=headers)
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def next_rate(port, session, token, pid):
    """POST …/next at 64 connections for WRK_SECONDS: (requests per second, server CPU in µs per
    request). The rate moves with whatever else the machine runs; the CPU per request does not."""
    header = f'["Authorization"] = "Bearer {token}"' if token else ""
    script = ROOT / ".build/bench/fanout-next.lua"
    script.write_text(NEXT_SCRIPT % (session, header))
    cpu = cpu_seconds(pid)
    out = subprocess.run(["wrk", "-t2", "-c64", f"-d{WRK_SECONDS}s", "-s", str(script), f"http://127.0.0.1:{port}/"],
                         capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"(\d+) requests in", out).group(1))
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), (cpu_seconds(pid) - cpu) / count * 1e6


def main():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items()}
    env.update(PAGERD_HOST="127.0.0.1", PAGERD_PORT=str(port), PAGERD_PER_IP_CONNECTION_LIMIT="0",
               PAGERD_LOG_LEVEL="warning", PAGERD_STORAGE="memory")
    # An audience from one address: every per-session and per-address cap raised (one address
    # may hold half of a session's places, so the session's cap is twice the audience).
    env.setdefault("PAGERD_CONNECTION_LIMIT", str(WATCHERS + 256))
    env.setdefault("PAGERD_MAX_SUBSCRIBERS", str(WATCHERS + 16))
    env.setdefault("PAGERD_MAX_SUBSCRIBERS_PER_SESSION", str(2 * WATCHERS + 16))
    env.setdefault("PAGERD_MAX_SUBSCRIBERS_PER_ADDRESS", str(WATCHERS + 16))
    # The per-connection pool docs/deploy.md gives an audience («Audiences»): most of a watcher's
    # memory, since libmicrohttpd touches it whole.
    env.setdefault("PAGERD_CONNECTION_MEMORY_LIMIT", "4096")
    token = None
    if WITH_TOKEN:
        env["PAGERD_AUTH_TOKEN"] = OPERATOR
        env["PAGERD_ACCESS_KEYS"] = json.dumps([{"kid": "fanout", "alg": "HS256", "secret": SECRET}])
    server = subprocess.Popen([PAGERD], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(400):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz")
                break
            except OSError:
                time.sleep(0.05)
        operator = OPERATOR if WITH_TOKEN else None
        watched = call(port, "POST", "/v1/sessions", {"template": "media", "mode": "loop"}, operator)["id"]
        other = call(port, "POST", "/v1/sessions", {"template": "media", "mode": "loop"}, operator)["id"]
        if WITH_TOKEN:
            token = call(port, "POST", f"/v1/sessions/{watched}/tokens", {"scope": "drive", "ttl": 3600}, operator)["token"]
        print(f"pagerd {PAGERD}, {WATCHERS} watchers of one session, {CHANGES} changes"
              + (", with access tokens" if WITH_TOKEN else ""))
        # POST …/next on another session, alone and beside the connected audience, in ROUNDS
        # rounds whose order alternates (alone then beside, then beside then alone, …), so that
        # neither is always measured first or just after the audience came or went. The machine's
        # other load moves the rates by more than 5 %; the server's CPU per request is the figure
        # compared (the median of the rounds' ratios), and the rates' ratio is printed beside it.
        args = [CLIENT, str(port), watched, str(WATCHERS), str(CHANGES)] + ([token] if token else [])
        client, before, after = None, None, None

        def connect():
            nonlocal client, before, after, connected, seconds
            if before is None:
                # Memory is read at the first connection only: the allocator keeps what a
                # departed audience used, so later ones would find it already grown.
                before = rss_kib(server.pid)
            client = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            line = client.stdout.readline()
            if not line.startswith("connected"):
                raise SystemExit(f"fanout: the watchers did not connect ({line.strip()})")
            _, connected, seconds = line.split()
            time.sleep(2)  # let the server settle after the connections
            if after is None:
                after = rss_kib(server.pid)

        def disconnect():
            nonlocal client
            client.kill()
            client.wait()
            client = None
            time.sleep(2)  # the server notices the departures and frees the streams

        connected, seconds = "0", "0"
        ratios, rate_ratios = [], []
        for round in range(ROUNDS):
            measured = {}
            for what in (("alone", "beside") if round % 2 == 0 else ("beside", "alone")):
                if what == "beside" and client is None:
                    connect()
                if what == "alone" and client is not None:
                    disconnect()
                measured[what] = next_rate(port, other, operator, server.pid)
            (alone, alone_cpu), (beside, beside_cpu) = measured["alone"], measured["beside"]
            ratios.append(beside_cpu / alone_cpu)
            rate_ratios.append(beside / alone)
            print(f"round {round + 1} ({'alone first' if round % 2 == 0 else 'beside first'}): POST …/next, "
                  f"64 connections: alone {alone:,.0f} req/s, {alone_cpu:.1f} µs of server CPU each; beside "
                  f"{connected} watchers {beside:,.0f} req/s, {beside_cpu:.1f} µs each "
                  f"({(beside_cpu / alone_cpu - 1) * 100:+.1f} %)")
        if client is None:
            connect()
        per_watcher = (after - before) / WATCHERS
        effect = (sorted(ratios)[len(ratios) // 2] - 1) * 100
        rate_effect = (sorted(rate_ratios)[len(rate_ratios) // 2] - 1) * 100
        print(f"{connected} watchers connected in {float(seconds):.1f} s; pagerd's RSS {before / 1024:,.1f} MiB → "
              f"{after / 1024:,.1f} MiB: {per_watcher:.1f} KiB per watcher")
        cpu_before = cpu_seconds(server.pid)
        client.stdin.write("go\n")
        client.stdin.flush()
        rows = []
        for line in client.stdout:
            print(line.rstrip())
            match = re.search(r"reached (\d+)/(\d+) p50_ms ([\d.]+) p99_ms ([\d.]+) max_ms ([\d.]+)", line)
            if match:
                rows.append([float(x) for x in match.groups()])
        if client.wait() != 0:
            raise SystemExit("fanout: the client failed")
        # The server's CPU over the changes (each followed by 200 ms of quiet, heartbeats only):
        # unlike latency, it does not depend on what else the machine runs.
        cpu_per_change = (cpu_seconds(server.pid) - cpu_before) / max(1, len(rows)) * 1000
        if rows:
            every = all(r[0] == r[1] for r in rows)
            worst_p99 = max(r[3] for r in rows)
            median_p50 = sorted(r[2] for r in rows)[len(rows) // 2]
            print(f"summary: every change reached every watcher: {'yes' if every else 'NO'}; "
                  f"p50 (median over changes) {median_p50:.1f} ms; worst p99 {worst_p99:.1f} ms; "
                  f"max {max(r[4] for r in rows):.1f} ms; server CPU {cpu_per_change:.0f} ms per change; "
                  f"{per_watcher:.1f} KiB per watcher; "
                  f"CPU per POST …/next beside the audience {effect:+.1f} %, its rate {rate_effect:+.1f} % "
                  f"(medians of {ROUNDS} rounds)")
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    sys.exit(main())
