#!/usr/bin/env python3
"""The figures of the hardening issue, measured against one pagerd binary or two (before/after).

    python3 bench/hardening.py --binary .build/release/pagerd --cwd .
    python3 bench/hardening.py --compare /tmp/pagerd-old/.build/release/pagerd:/tmp/pagerd-old .build/release/pagerd:.

The first form prints one row per measurement (name, figure, unit); `--compare OLD:OLD_CWD NEW:NEW_CWD`
runs every measurement against both binaries in turn (old, then new, measurement by measurement)
and prints a before/after table in Markdown. `--only 1,5` runs a subset. Each binary runs from its
`cwd` (so its `config/templates` folder resolves); progress goes to stderr, the table to stdout.

Every measurement starts its own server (127.0.0.1, port 0 read from the `port=` line on stderr,
PAGERD_PER_IP_CONNECTION_LIMIT=0 unless the measurement is about that limit) and stops it at the
end; every socket and wait has a timeout, so a measurement lasts at most about 40 s and the whole
comparison a few minutes. A server that crashes, or a measurement that fails, shows up as
`failed: …` in its rows rather than stopping the run. All traffic stays on 127.0.0.0/8; "another
address" is 127.0.0.2. Figures are medians of repeated samples where the measurement repeats.
Load that must not share this interpreter's GIL with a latency probe runs in a forked child.
wrk is used to fill the server with sessions when it is installed (`apt-get install wrk`),
otherwise a slower Python loop does it.

 1. push at 200 wide pages — a session of 200 pages of ~2,200-member content (15 KB each); 20
    pushes onto the last page's stack (median and max ms) while another client GETs an unrelated
    small session in a loop (its p99 and max ms during the pushes).
 2. wide body reject — POST /v1/sessions with a 64 KiB body of ~8,190 members: time to the answer
    (median of 5) and its status; then 4 clients post it in a loop for 5 s while 127.0.0.2 probes
    /healthz one request at a time (p50/p99 ms and count).
 3. creates at capacity — PAGERD_MAX_SESSIONS=100000, filled to the cap; GET of one session from
    one keep-alive client on 127.0.0.2 for 5 s (median of 1-second rates), alone and while 4
    clients (wrk -c4) send creates that get 503.
 4. metrics after 20,000 invented methods — `M<n> /healthz` over keep-alive sockets, then the
    number of pagerd_http_requests_total series and the size of /metrics.
 5. SSE connect/close cycles — per-IP limit 64 (the default), heartbeat 15 s: 2,000 cycles of
    open the event stream, read the first `event: state`, close; served/refused/other, then the
    seconds until pagerd_event_subscribers is 0 (polled from 127.0.0.2, capped at 35 s).
 6. shutdown with stream on keep-alive during drain — 3 tries: SIGTERM, then 4 ms later an event
    stream request on a kept-alive connection (with one subscriber already open); exit statuses
    (134 = SIGABRT) and seconds from SIGTERM to exit (a stream accepted while stopping holds the
    process until shutdownGrace ends). The outcome depends on timing: it varies from try to try.
 7. SIGTERM with stuck upload — 10 of 1,000 announced body bytes sent, then SIGTERM: seconds to
    exit (capped at 35) and exit status.
 8. slowloris one address — per-IP limit 64: 300 slow sockets from 127.0.0.2 adding a header line
    a second; 200 /healthz probes from 127.0.0.1 (2 s timeout each): % served and p99 of served.
 9. 32 clients that never read a 16 MB answer — a session whose current page holds 16 MB of
    content; 32 sockets (4 KB receive buffers) ask for its state and read nothing for 3 s: peak
    RSS (VmHWM) meanwhile, then how many were answered and how many refused with 503.
"""
import argparse
import json
import multiprocessing
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pytests"))
from rawhttp import Closed, Connection, call, compact, request_bytes  # noqa: E402

HOST = "127.0.0.1"
OTHER = "127.0.0.2"
JSON_TYPE = {"Content-Type": "application/json"}
CTX = multiprocessing.get_context("fork")
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


class MeasurementError(Exception):
    """A measurement could not produce its figure (shown in the row)."""


# ── the server ─────────────────────────────────────────────────────────────────────────────────


class Server:
    """One pagerd process on a free port; stderr is drained by a thread (kept in `log`)."""

    def __init__(self, binary, cwd, env=None, per_ip="0"):
        full = {k: v for k, v in os.environ.items() if not k.startswith("PAGERD_")}
        full.update({"PAGERD_HOST": HOST, "PAGERD_PORT": "0", "PAGERD_STORAGE": "memory"})
        if per_ip is not None:
            full["PAGERD_PER_IP_CONNECTION_LIMIT"] = per_ip
        full.update(env or {})
        self.proc = subprocess.Popen([binary], cwd=cwd, env=full, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.log = []
        self.port = None
        self._found = threading.Event()
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()
        if not self._found.wait(15) or self.port is None:
            self.kill()
            raise MeasurementError("did not start: " + self.tail(300))

    def _drain(self):
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace")
            if len(self.log) < 5000:
                self.log.append(line)
            if self.port is None:
                match = re.search(r'port(?:=|":")(\d+)', line)
                if match:
                    self.port = int(match.group(1))
                    self._found.set()
        self._found.set()

    def tail(self, chars=400):
        return " ".join("".join(self.log).split())[-chars:]

    def alive(self):
        return self.proc.poll() is None

    def wait(self, timeout):
        """The exit status, or None if still running after `timeout` seconds."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self, timeout=12):
        """SIGTERM, then SIGKILL after `timeout` s; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        status = self.wait(timeout)
        if status is None:
            self.kill()
            status = self.proc.returncode
        self._drainer.join(timeout=2)
        return status

    def check(self, what):
        if not self.alive():
            raise MeasurementError(f"server exited ({exit_text(self.proc.returncode)}) {what}; {self.tail(200)}")


def exit_text(status):
    if status is None:
        return "running"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"{128 - status} ({name})"
    return str(status)


# ── requests (the raw client is pytests/rawhttp.py) ─────────────────────────────────────────────


def create_session(port, body, timeout=15):
    status, _, data = call(port, "POST", "/v1/sessions", body, timeout=timeout)
    if status != 201:
        raise MeasurementError(f"create answered {status}: {data[:200]!r}")
    return json.loads(data)["id"]


def metrics_text(port, source=None, timeout=30):
    status, _, data = call(port, "GET", "/metrics", source=source, timeout=timeout)
    if status != 200:
        raise MeasurementError(f"/metrics answered {status}")
    return data


def gauge(text, name):
    match = re.search(rb"^" + name.encode() + rb"(?:\{\})? (\S+)$", text, re.M)
    if not match:
        raise MeasurementError(f"no {name} in /metrics")
    return float(match.group(1))


def keys(count, width):
    """`count` distinct keys of `width` characters (base 62)."""
    out = []
    for i in range(count):
        key = ""
        for _ in range(width):
            i, digit = divmod(i, 62)
            key = ALPHABET[digit] + key
        out.append(key)
    return out


def percentile(values, fraction):
    """Nearest-rank percentile of `values` (non-empty)."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[index]


# ── forked children (load and probes that must not share the GIL with a measuring thread) ──────


def _child_main(send, fn, stop, args):
    try:
        send.send(("ok", fn(stop, *args)))
    except BaseException as error:  # noqa: BLE001 - reported to the parent
        send.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        send.close()


class Child:
    """Runs `fn(stop_event, *args)` in a forked process; `result()` sets the event and collects."""

    def __init__(self, fn, *args):
        self.stop = CTX.Event()
        self.recv, send = CTX.Pipe(duplex=False)
        self.proc = CTX.Process(target=_child_main, args=(send, fn, self.stop, args), daemon=True)
        self.proc.start()
        send.close()

    def result(self, timeout=30, stop=True):
        """The function's result; with `stop` false, the function is first given `timeout` seconds
        to end by itself."""
        if stop or not self.recv.poll(timeout):
            self.stop.set()
        try:
            if not self.recv.poll(timeout):
                raise MeasurementError("a load/probe process did not finish in time")
            kind, value = self.recv.recv()
        except EOFError:
            raise MeasurementError("a load/probe process died") from None
        finally:
            self.proc.join(2)
            if self.proc.is_alive():
                self.proc.kill()
                self.proc.join(2)
            self.recv.close()
        if kind == "error":
            raise MeasurementError(value)
        return value


def get_loop(stop, port, path, source, duration, timeout):
    """GETs `path` on one kept-alive connection until `stop` or `duration`; [(start, end, status)]."""
    samples, conn = [], None
    deadline = time.monotonic() + duration if duration else None
    data = request_bytes("GET", path)
    while not stop.is_set() and (deadline is None or time.monotonic() < deadline):
        started = time.monotonic()
        try:
            conn = conn or Connection(port, source, timeout)
            conn.send(data)
            status = conn.read_response()[0]
        except (OSError, Closed, ValueError) as error:
            status = type(error).__name__
            if conn:
                conn.close()
            conn = None
            time.sleep(0.01)
        samples.append((started, time.monotonic(), status))
    if conn:
        conn.close()
    return samples


def post_loop(stop, port, path, body, clients, duration, timeout):
    """`clients` threads POST `body` in a loop on kept-alive connections for `duration` s;
    returns {status: count}."""
    deadline = time.monotonic() + duration
    counts, lock = {}, threading.Lock()
    data = request_bytes("POST", path, body, JSON_TYPE)

    def client():
        conn = None
        while time.monotonic() < deadline and not stop.is_set():
            try:
                conn = conn or Connection(port, None, timeout)
                conn.send(data)
                status, headers, _ = conn.read_response()
                if "close" in headers.get("connection", "").lower():
                    conn.close()
                    conn = None
            except (OSError, Closed, ValueError) as error:
                status = type(error).__name__
                if conn:
                    conn.close()
                conn = None
                time.sleep(0.01)
            with lock:
                counts[status] = counts.get(status, 0) + 1
        if conn:
            conn.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(duration + timeout + 5)
    return counts


def counts_text(counts):
    return ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=lambda kv: str(kv[0])))


# ── the measurements ───────────────────────────────────────────────────────────────────────────
# Each one fills `rows` (name → figure) for the names it declares; what it leaves unfilled is
# reported with the failure.

MEASUREMENTS = []


def measurement(number, title, rows):
    def register(fn):
        MEASUREMENTS.append((number, title, rows, fn))
        return fn
    return register


@measurement(1, "push at 200 wide pages", [
    ("push median", "ms"), ("push max", "ms"),
    ("unrelated GET p99 during pushes", "ms"), ("unrelated GET max during pushes", "ms")])
def push_at_wide_pages(binary, cwd, rows):
    members = keys(2200, 2)
    content = {key: 0 for key in members}
    assert len(compact(content)) <= 16384

    def page(i):
        return {"id": f"p{i}", "title": f"P{i}", "content": content}

    server = Server(binary, cwd, {"PAGERD_SESSION_BUDGET_BYTES": "1000000000",
                                  "PAGERD_MEMORY_BUDGET_BYTES": "10000000000",
                                  "PAGERD_MAX_BODY_BYTES": "65536"})
    try:
        sid = create_session(server.port, {"pages": [page(i) for i in range(3)]}, timeout=30)
        small = create_session(server.port, {"template": "media"})
        conn = Connection(server.port, timeout=30)
        setup_deadline = time.monotonic() + 25
        try:
            for i in range(3, 200):
                if time.monotonic() > setup_deadline:
                    raise MeasurementError(f"only {i} pages added in 25 s")
                status, _, data = conn.request("POST", f"/v1/sessions/{sid}/pages", {"page": page(i)})
                if status != 200:
                    raise MeasurementError(f"adding page {i} answered {status}: {data[:200]!r}")
            prober = Child(get_loop, server.port, f"/v1/sessions/{small}", None, 60, 30)
            time.sleep(0.3)
            times, push_deadline = [], time.monotonic() + 25
            began = time.monotonic()
            for n in range(20):
                if time.monotonic() > push_deadline:
                    break
                started = time.monotonic()
                status, _, data = conn.request("POST", f"/v1/sessions/{sid}/pages/p199/stack",
                                               {"screen": {"id": "s"}})
                times.append((time.monotonic() - started) * 1000)
                if status != 200:
                    raise MeasurementError(f"push {n + 1} answered {status}: {data[:200]!r}")
            ended = time.monotonic()
            samples = prober.result()
        finally:
            conn.close()
        rows["push median"] = f"{statistics.median(times):.1f}" + ("" if len(times) == 20 else f" ({len(times)} pushes)")
        rows["push max"] = f"{max(times):.1f}"
        during = [(e - s) * 1000 for s, e, st in samples if e >= began and s <= ended]
        bad = [st for s, e, st in samples if e >= began and s <= ended and st != 200]
        if not during:
            raise MeasurementError("no unrelated GET during the pushes")
        note = f" ({len(during)} GETs" + (f", {len(bad)} not 200" if bad else "") + ")"
        rows["unrelated GET p99 during pushes"] = f"{percentile(during, 0.99):.1f}{note}"
        rows["unrelated GET max during pushes"] = f"{max(during):.1f}"
    finally:
        server.stop()


def wide_body():
    """A 64 KiB create body of `{"xyz":0,…}` members (3-character keys): 8,191 of them."""
    count = (65536 - 2 + 1) // 8
    return ("{" + ",".join(f'"{k}":0' for k in keys(count, 3)) + "}").encode(), count


@measurement(2, "wide body reject", [
    ("answer time", "ms"), ("/healthz p50 from 127.0.0.2 under 4 senders", "ms"),
    ("/healthz p99 from 127.0.0.2 under 4 senders", "ms"), ("/healthz probes in 5 s", "count")])
def wide_body_reject(binary, cwd, rows):
    body, count = wide_body()
    server = Server(binary, cwd)
    try:
        times, statuses, deadline = [], set(), time.monotonic() + 15
        for _ in range(5):
            if times and time.monotonic() > deadline:
                break
            started = time.monotonic()
            status = call(server.port, "POST", "/v1/sessions", body, JSON_TYPE, timeout=30)[0]
            times.append((time.monotonic() - started) * 1000)
            statuses.add(status)
        rows["answer time"] = (f"{statistics.median(times):.1f} (status {'/'.join(map(str, sorted(statuses)))}, "
                               f"{len(body)} B, {count} members)")

        load = Child(post_loop, server.port, "/v1/sessions", body, 4, 5, 30)
        probes, failures = [], 0
        stop_at = time.monotonic() + 5
        time.sleep(0.1)
        while time.monotonic() < stop_at:
            started = time.monotonic()
            try:
                status = call(server.port, "GET", "/healthz", source=OTHER, timeout=10)[0]
                if status == 200:
                    probes.append((time.monotonic() - started) * 1000)
                else:
                    failures += 1
            except (OSError, Closed, ValueError):
                failures += 1
        sent = load.result(timeout=45, stop=False)
        server.check("during the load")
        if not probes:
            raise MeasurementError(f"no probe answered 200 ({failures} failed)")
        rows["/healthz p50 from 127.0.0.2 under 4 senders"] = f"{statistics.median(probes):.2f}"
        rows["/healthz p99 from 127.0.0.2 under 4 senders"] = f"{percentile(probes, 0.99):.2f}"
        rows["/healthz probes in 5 s"] = (f"{len(probes)}" + (f" (+{failures} failed)" if failures else "")
                                          + f"; senders got {counts_text(sent)}")
    finally:
        server.stop()


FILL_LUA = """
wrk.method = "POST"
wrk.body = '{"template":"snap"}'
wrk.headers["Content-Type"] = "application/json"
response = function(status, headers, body)
  if status ~= 201 then wrk.thread:stop() end
end
"""

CREATE_LUA = """
wrk.method = "POST"
wrk.body = '{"template":"snap"}'
wrk.headers["Content-Type"] = "application/json"
"""


def fill_sessions(port, cap, folder):
    """Creates sessions until `cap` are live (wrk first, then Python for the rest)."""
    if shutil.which("wrk"):
        script = os.path.join(folder, "fill.lua")
        with open(script, "w") as f:
            f.write(FILL_LUA)
        # Each wrk thread stops at its first answer other than 201, but wrk itself runs for its
        # whole duration: it is interrupted as soon as the cap is reached.
        wrk = subprocess.Popen(["wrk", "-t2", "-c32", "-d30s", "-s", script, f"http://{HOST}:{port}/v1/sessions"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 32
            while wrk.poll() is None and time.monotonic() < deadline:
                time.sleep(0.5)
                try:
                    if gauge(metrics_text(port, timeout=5), "pagerd_sessions") >= cap:
                        break
                except (OSError, Closed, ValueError, MeasurementError):
                    pass
        finally:
            if wrk.poll() is None:
                wrk.send_signal(signal.SIGINT)
                try:
                    wrk.wait(5)
                except subprocess.TimeoutExpired:
                    wrk.kill()
                    wrk.wait(5)
    live = int(gauge(metrics_text(port), "pagerd_sessions"))
    deadline = time.monotonic() + 30
    conn = None
    try:
        while live < cap and time.monotonic() < deadline:
            conn = conn or Connection(port, timeout=10)
            status = conn.request("POST", "/v1/sessions", {"template": "snap"})[0]
            if status == 201:
                live += 1
            elif status == 503:
                break
            else:
                raise MeasurementError(f"create answered {status} while filling")
    finally:
        if conn:
            conn.close()
    return int(gauge(metrics_text(port), "pagerd_sessions"))


def rate(samples, start, seconds):
    """Median over whole seconds from `start` of the 200 answers completed in each."""
    buckets = [0] * seconds
    for _, end, status in samples:
        index = int(end - start)
        if status == 200 and 0 <= index < seconds:
            buckets[index] += 1
    return statistics.median(buckets), sum(1 for s in samples if s[2] != 200)


@measurement(3, "creates at capacity", [
    ("sessions live", "count"), ("GET one session, alone", "req/s"),
    ("GET one session, 4 clients creating (503)", "req/s")])
def creates_at_capacity(binary, cwd, rows):
    cap = 100000
    server = Server(binary, cwd, {"PAGERD_MAX_SESSIONS": str(cap)})
    try:
        with tempfile.TemporaryDirectory() as folder:
            started = time.monotonic()
            sid = create_session(server.port, {"template": "snap"})
            live = fill_sessions(server.port, cap, folder)
            rows["sessions live"] = f"{live:,} (filled in {time.monotonic() - started:.1f} s)"
            if live != cap:
                raise MeasurementError(f"{live} sessions, not {cap}")
            status, _, data = call(server.port, "POST", "/v1/sessions", {"template": "snap"})
            if status != 503:
                raise MeasurementError(f"a create at the cap answered {status}")

            path = f"/v1/sessions/{sid}"
            probe = Child(get_loop, server.port, path, OTHER, 5.2, 10)
            begin = time.monotonic()
            alone, errors = rate(probe.result(timeout=20, stop=False), begin, 5)
            rows["GET one session, alone"] = f"{alone:,.0f}" + (f" ({errors} errors)" if errors else "")

            if shutil.which("wrk"):
                script = os.path.join(folder, "create.lua")
                with open(script, "w") as f:
                    f.write(CREATE_LUA)
                load = subprocess.Popen(["wrk", "-t1", "-c4", "-d7s", "-s", script,
                                         f"http://{HOST}:{server.port}/v1/sessions"],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                loader = "wrk -t1 -c4"
            else:
                load = Child(post_loop, server.port, "/v1/sessions", {"template": "snap"}, 4, 7, 10)
                loader = "4 Python clients"
            try:
                time.sleep(1)
                probe = Child(get_loop, server.port, path, OTHER, 5.2, 10)
                begin = time.monotonic()
                loaded, errors = rate(probe.result(timeout=20, stop=False), begin, 5)
            finally:
                if isinstance(load, Child):
                    creates = counts_text(load.result(timeout=30, stop=False))
                else:
                    try:
                        output = load.communicate(timeout=15)[0]
                    except subprocess.TimeoutExpired:
                        load.kill()
                        output = load.communicate()[0]
                    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
                    creates = f"{float(match.group(1)):,.0f} creates/s" if match else "wrk: " + output[-200:]
            server.check("under the create load")
            rows["GET one session, 4 clients creating (503)"] = (f"{loaded:,.0f} ({loader}: {creates}"
                                                                  + (f"; {errors} GET errors" if errors else "") + ")")
    finally:
        server.stop()


@measurement(4, "metrics after 20,000 invented methods", [
    ("pagerd_http_requests_total series", "count"), ("/metrics size", "bytes")])
def invented_methods(binary, cwd, rows):
    server = Server(binary, cwd)
    try:
        total, workers = 20000, 8
        answered, failed, lock = [0], [0], threading.Lock()
        deadline = time.monotonic() + 30

        def worker(first):
            conn = None
            for i in range(first, total, workers):
                for _ in range(3):
                    if time.monotonic() > deadline:
                        return
                    try:
                        conn = conn or Connection(server.port, timeout=10)
                        status, headers, _ = conn.request(f"M{i}", "/healthz")
                        with lock:
                            answered[0] += 1
                        if "close" in headers.get("connection", "").lower():
                            conn.close()
                            conn = None
                        break
                    except (OSError, Closed, ValueError):
                        if conn:
                            conn.close()
                        conn = None
                else:
                    with lock:
                        failed[0] += 1
            if conn:
                conn.close()

        threads = [threading.Thread(target=worker, args=(w,), daemon=True) for w in range(workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(45)
        server.check("after the invented methods")
        text = metrics_text(server.port)
        series = len(re.findall(rb"^pagerd_http_requests_total\{", text, re.M))
        note = f" ({answered[0]:,} answered" + (f", {failed[0]} unanswered" if failed[0] else "") + ")"
        rows["pagerd_http_requests_total series"] = f"{series:,}{note}"
        rows["/metrics size"] = f"{len(text):,}"
    finally:
        server.stop()


def sse_cycle(port, sid):
    """One stream opened, read to its first `event: state`, closed: 'served', 'refused' or other."""
    try:
        conn = Connection(port, timeout=3)
    except OSError as error:
        return f"connect {type(error).__name__}"
    try:
        conn.send(f"GET /v1/sessions/{sid}/events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n"
                  .encode())
        status, headers = conn.read_head()
        if status == 503:
            return "refused"
        if status != 200:
            return str(status)
        text = ""
        while True:
            chunk = conn.read_chunk()
            if chunk is None:
                return "closed" if conn.closed_by_server else "ended"
            text += chunk.decode("utf-8", "replace")
            at = text.find("event: state")
            if at >= 0 and "\n\n" in text[at:]:
                return "served"
    except (Closed, ConnectionResetError, BrokenPipeError):
        return "closed"
    except socket.timeout:
        return "timeout"
    finally:
        conn.close()


@measurement(5, "SSE connect/close cycles", [
    ("served (200) of 2,000", "count"), ("refused (503)", "count"), ("other outcomes", "count"),
    ("until pagerd_event_subscribers is 0", "s")])
def sse_cycles(binary, cwd, rows):
    server = Server(binary, cwd, per_ip="64")
    try:
        sid = create_session(server.port, {"template": "media"})
        outcomes, deadline = {}, time.monotonic() + 20
        for _ in range(2000):
            if time.monotonic() > deadline:
                outcomes["not tried (20 s spent)"] = 2000 - sum(outcomes.values())
                break
            outcome = sse_cycle(server.port, sid)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        ended = time.monotonic()
        server.check("during the cycles")
        rows["served (200) of 2,000"] = f"{outcomes.pop('served', 0):,}"
        rows["refused (503)"] = f"{outcomes.pop('refused', 0):,}"
        rows["other outcomes"] = counts_text(outcomes) if outcomes else "0"
        last = None
        while True:
            try:
                last = gauge(metrics_text(server.port, source=OTHER, timeout=5), "pagerd_event_subscribers")
            except (OSError, Closed, ValueError, MeasurementError):
                last = None
            waited = time.monotonic() - ended
            if last == 0:
                rows["until pagerd_event_subscribers is 0"] = f"{waited:.1f}"
                break
            if waited > 35:
                rows["until pagerd_event_subscribers is 0"] = f"> 35 ({last if last is None else int(last)} left)"
                break
            time.sleep(0.1)
    finally:
        server.stop()


@measurement(6, "shutdown with stream on keep-alive during drain", [
    ("exit status (seconds after SIGTERM) of 3 tries", "status (s)"), ("slowest exit after SIGTERM", "s")])
def shutdown_during_drain(binary, cwd, rows):
    statuses, slowest = [], 0.0
    for _ in range(3):
        server = Server(binary, cwd)
        subscriber = kept = None
        try:
            sid = create_session(server.port, {"template": "media"})
            subscriber = Connection(server.port, timeout=5)
            subscriber.send(f"GET /v1/sessions/{sid}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
            if subscriber.read_head()[0] != 200:
                raise MeasurementError("the subscriber was not served")
            subscriber.read_chunk()
            kept = Connection(server.port, timeout=5)
            if kept.request("GET", "/healthz")[0] != 200:
                raise MeasurementError("/healthz was not served")
            events = f"GET /v1/sessions/{sid}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode()
            server.proc.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            time.sleep(0.004)
            try:
                kept.send(events)
            except OSError:
                pass
            status = server.wait(15)
            took = time.monotonic() - signalled
            if status is None:
                server.kill()
                statuses.append("still running after 15 s (killed)")
            else:
                statuses.append(f"{exit_text(status)} ({took:.2f})")
            slowest = max(slowest, took)
        finally:
            for conn in (subscriber, kept):
                if conn:
                    conn.close()
            server.stop(timeout=5)
    rows["exit status (seconds after SIGTERM) of 3 tries"] = ", ".join(statuses)
    rows["slowest exit after SIGTERM"] = f"{slowest:.2f}"


@measurement(7, "SIGTERM with stuck upload", [("time to exit", "s"), ("exit status", "status")])
def stuck_upload(binary, cwd, rows):
    server = Server(binary, cwd)
    conn = None
    try:
        conn = Connection(server.port, timeout=5)
        conn.send(b"POST /v1/sessions HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 1000\r\n\r\n" + b'{"template')
        time.sleep(0.3)
        server.proc.send_signal(signal.SIGTERM)
        started = time.monotonic()
        status = server.wait(35)
        if status is None:
            server.kill()
            rows["time to exit"] = "> 35 (killed)"
            rows["exit status"] = "none (killed)"
        else:
            rows["time to exit"] = f"{time.monotonic() - started:.2f}"
            rows["exit status"] = exit_text(status)
    finally:
        if conn:
            conn.close()
        server.stop(timeout=5)


@measurement(8, "slowloris one address", [("probes served of 200", "%"), ("probe p99 (served)", "ms")])
def slowloris(binary, cwd, rows):
    server = Server(binary, cwd, per_ip=None)  # the shipped per-IP limit, 64
    slow, opened, done = [], threading.Event(), threading.Event()

    def loris():
        for _ in range(300):
            if done.is_set():
                break
            try:
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.settimeout(2)
                sock.bind((OTHER, 0))
                sock.connect((HOST, server.port))
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n")
                slow.append(sock)
            except OSError:
                sock.close()
        opened.set()
        line = 0
        while not done.wait(1.0):
            for sock in list(slow):
                try:
                    sock.sendall(f"X-Slow-{line}: 1\r\n".encode())
                except OSError:
                    slow.remove(sock)
                    sock.close()
            line += 1

    attacker = threading.Thread(target=loris, daemon=True)
    attacker.start()
    try:
        if not opened.wait(20):
            raise MeasurementError("the slow sockets were not opened in 20 s")
        time.sleep(1.5)  # one header line has gone out on every slow socket
        held = len(slow)
        served, times, tried, deadline = 0, [], 0, time.monotonic() + 30
        for _ in range(200):
            if time.monotonic() > deadline:
                break
            tried += 1
            started = time.monotonic()
            try:
                if call(server.port, "GET", "/healthz", timeout=2)[0] == 200:
                    served += 1
                    times.append((time.monotonic() - started) * 1000)
            except (OSError, Closed, ValueError):
                pass
            time.sleep(0.02)
        server.check("under the slow sockets")
        rows["probes served of 200"] = (f"{served / 2:.1f}" + (f" ({200 - tried} not tried in 30 s)" if tried < 200 else "")
                                        + f"; {held} slow sockets open")
        rows["probe p99 (served)"] = f"{percentile(times, 0.99):.2f}" if times else "none served"
    finally:
        done.set()
        attacker.join(5)
        for sock in slow:
            sock.close()
        server.stop()


@measurement(9, "32 clients that never read a 16 MB answer", [
    ("peak RSS while the answers wait", "MiB"), ("answered / refused 503", "requests")])
def unread_answers(binary, cwd, rows):
    server = Server(binary, cwd, env={"PAGERD_MAX_BODY_BYTES": "17000000", "PAGERD_MAX_CONTENT_BYTES": "16777216"})
    readers = []
    try:
        pages = [{"id": "big", "title": "Big", "content": {"text": "x" * 16_000_000}}, {"id": "small", "title": "S"}]
        sid = create_session(server.port, {"pages": pages}, timeout=60)
        for _ in range(32):
            reader = Connection(server.port, timeout=30, receive_buffer=4096)
            reader.send(request_bytes("GET", f"/v1/sessions/{sid}"))
            readers.append(reader)
        time.sleep(3)  # every request answered or refused, nothing read
        server.check("with the answers waiting")
        status = dict(line.split(":", 1) for line in open(f"/proc/{server.proc.pid}/status").read().splitlines())
        rows["peak RSS while the answers wait"] = f"{int(status['VmHWM'].split()[0]) / 1024:.0f}"
        codes = {}
        for reader in readers:  # the status of each answer is enough
            code = reader.read_head()[0]
            codes[code] = codes.get(code, 0) + 1
        rows["answered / refused 503"] = f"{codes.get(200, 0)} / {codes.get(503, 0)}" + (
            f" ({counts_text({k: v for k, v in codes.items() if k not in (200, 503)})})"
            if set(codes) - {200, 503} else "")
    finally:
        for reader in readers:
            reader.close()
        server.stop()


# ── running and printing ───────────────────────────────────────────────────────────────────────


def run_one(entry, binary, cwd):
    """{row name: figure} for one measurement against one binary; failures fill the rest."""
    number, title, specs, fn = entry
    rows = {}
    started = time.monotonic()
    print(f"[{time.strftime('%H:%M:%S')}] {number}. {title} — {binary}", file=sys.stderr, flush=True)
    try:
        fn(binary, cwd, rows)
    except Exception as error:  # noqa: BLE001 - a failed measurement is a figure too
        reason = " ".join(f"{type(error).__name__ if not isinstance(error, MeasurementError) else ''} {error}".split())
        for name, _ in specs:
            rows.setdefault(name, f"failed: {reason[:300]}")
    print(f"    {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)
    return rows


def selected(only):
    if not only:
        return MEASUREMENTS
    wanted = {int(n) for n in only.split(",")}
    return [m for m in MEASUREMENTS if m[0] in wanted]


def cell(text):
    return str(text).replace("|", "\\|")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", help="pagerd binary to measure")
    parser.add_argument("--cwd", default=".", help="working directory to run it in (default .)")
    parser.add_argument("--compare", nargs=2, metavar="BINARY:CWD", help="old and new binary, each with its cwd")
    parser.add_argument("--only", help="comma-separated measurement numbers (default: all)")
    args = parser.parse_args()
    if not args.compare and not args.binary:
        parser.error("give --binary (with --cwd) or --compare OLD:CWD NEW:CWD")
    started = time.monotonic()

    if args.compare:
        sides = []
        for spec in args.compare:
            binary, _, cwd = spec.rpartition(":")
            if not binary:
                binary, cwd = cwd, "."
            sides.append((os.path.abspath(binary), os.path.abspath(cwd)))
        for binary, cwd in sides:
            if not os.access(binary, os.X_OK):
                sys.exit(f"not an executable: {binary}")
        table = []
        for entry in selected(args.only):
            before = run_one(entry, *sides[0])
            after = run_one(entry, *sides[1])
            for name, unit in entry[2]:
                table.append((f"{entry[0]}. {entry[1]}: {name}", unit, before.get(name, ""), after.get(name, "")))
        print(f"\nBefore: `{sides[0][0]}`  \nAfter: `{sides[1][0]}`  \n"
              f"{os.cpu_count()} cores shared by server and clients; total {time.monotonic() - started:.0f} s\n")
        print("| measurement | unit | before | after |")
        print("| --- | --- | ---: | ---: |")
        for name, unit, before, after in table:
            print(f"| {cell(name)} | {cell(unit)} | {cell(before)} | {cell(after)} |")
    else:
        binary, cwd = os.path.abspath(args.binary), os.path.abspath(args.cwd)
        if not os.access(binary, os.X_OK):
            sys.exit(f"not an executable: {binary}")
        table = []
        for entry in selected(args.only):
            rows = run_one(entry, binary, cwd)
            for name, unit in entry[2]:
                table.append((f"{entry[0]}. {entry[1]}: {name}", rows.get(name, ""), unit))
        width = max(len(r[0]) for r in table)
        print(f"\n{binary} (cwd {cwd}); total {time.monotonic() - started:.0f} s\n")
        for name, figure, unit in table:
            print(f"{name:<{width}}  {figure}  {unit}")


if __name__ == "__main__":
    main()
