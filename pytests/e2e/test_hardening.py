"""Hardening: no single client may stall, bloat or crash pagerd.

Black-box tests over raw sockets against the release binary. Every wait is bounded; timing is only
asserted with bounds a healthy server meets many times over, otherwise the tests count work done
(status codes, /metrics, exit statuses). All traffic stays on 127.0.0.0/8: clients bind to
127.0.0.2 where a test needs a second client address.
"""
import json
import re
import signal
import socket
import statistics
import subprocess
import threading
import time

import pytest

from rawhttp import Connection, call
from rawhttp import EventStream as Stream
from support import Pagerd, wait_until

OTHER = "127.0.0.2"  # a second client address; the server listens on 127.0.0.1
THIRD = "127.0.0.3"  # a third one
SHIPPED_PER_IP_LIMIT = {"PAGERD_PER_IP_CONNECTION_LIMIT": "64"}  # the default; support.Pagerd sets 0


class Server(Pagerd):
    """pagerd that is killed if it outlives its stop timeout."""

    def stop(self, sig=signal.SIGTERM, timeout=10):
        """Signals the process and returns its exit status; SIGKILL if it outlives `timeout`."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
        finally:
            self.drainer.join(timeout=5)


@pytest.fixture
def launch():
    """Starts pagerd processes; any still running at the end is stopped (killed if it must be)."""
    started = []

    def start(extra_env=None):
        server = Server(extra_env)
        started.append(server)
        return server

    yield start
    for server in started:
        if server.proc.poll() is None:
            try:
                server.stop()
            except subprocess.TimeoutExpired:
                pass
        server.drainer.join(timeout=5)


def problem(body):
    return json.loads(body)


def create_session(server, body=None):
    status, headers, data = call(server.port, "POST", "/v1/sessions", body or {"template": "mall"})
    assert status == 201, data
    return json.loads(data)["id"]


def state(server, sid):
    status, _, data = call(server.port, "GET", f"/v1/sessions/{sid}")
    assert status == 200, data
    return json.loads(data)


def metrics(server):
    status, _, data = call(server.port, "GET", "/metrics")
    assert status == 200
    return data.decode()


def subscribers(server):
    return int(float(re.search(r"^pagerd_event_subscribers (\S+)$", metrics(server), re.M).group(1)))


# What a poll of /metrics or a request may meet while the server is busy: it counts as not yet.
TRANSIENT = (OSError, EOFError, AttributeError, ValueError)


# 1 ──────────────────────────────────────────────────────────────────────────────────────────────


def test_invented_methods_do_not_add_metric_series(launch):
    server = launch()
    answered, conn = 0, None
    for i in range(2000):
        for _ in range(2):  # a connection the server closed is opened again once
            try:
                conn = conn or Connection(server.port)
                status, _, _ = conn.request(f"ZQX{i}FOO", "/healthz")
                answered += 1
                break
            except (EOFError, ConnectionResetError, BrokenPipeError):
                conn.close()
                conn = None
    if conn:
        conn.close()
    assert answered == 2000

    text = metrics(server)
    series = [line for line in text.splitlines() if line.startswith("pagerd_http_requests_total{")]
    assert len(series) < 50, f"{len(series)} series, e.g. {series[:3]}"
    assert not [line for line in text.splitlines() if "ZQX" in line]
    other = sum(float(line.rsplit(" ", 1)[1]) for line in series if 'method="other"' in line)
    assert other >= 2000, "invented methods are counted under method=\"other\""
    assert len(text.encode()) < 20_000, f"/metrics is {len(text.encode())} bytes"


# 2 ──────────────────────────────────────────────────────────────────────────────────────────────


def wide_object(limit=65536):
    """`{"a0":0,"a1":0,…}` as large as fits in `limit` bytes (about 8,000 members)."""
    members, size, i = [], 2, 0
    while size + len(f'"a{i}":0,') <= limit:
        members.append(f'"a{i}":0')
        size += len(members[-1]) + 1
        i += 1
    return ("{" + ",".join(members) + "}").encode()


def test_duplicate_and_excess_json_members_are_refused_without_stalling_others(launch):
    server = launch()
    json_type = {"Content-Type": "application/json"}
    status, headers, body = call(server.port, "POST", "/v1/sessions", b'{"pages":[],"pages":[]}', json_type)
    assert status == 400 and headers["content-type"].startswith("application/problem+json")
    assert problem(body)["code"] == "invalid_json"

    wide = wide_object()
    assert 60_000 < len(wide) <= 65536
    status, _, body = call(server.port, "POST", "/v1/sessions", wide, json_type)
    assert status == 400 and problem(body)["code"] in ("invalid_json", "invalid_request")

    # Four clients post the wide body in a loop for 3 s; another address probes /healthz meanwhile.
    until = time.monotonic() + 3
    answers, probes, lock = [], [], threading.Lock()

    def load():
        conn = None
        while time.monotonic() < until:
            try:
                conn = conn or Connection(server.port)
                status, _, body = conn.request("POST", "/v1/sessions", wide, json_type)
                with lock:
                    answers.append((status, problem(body).get("code")))
            except (OSError, EOFError, ValueError) as error:  # ValueError: a body that is not JSON
                with lock:
                    answers.append((type(error).__name__, None))
                if conn:
                    conn.close()
                conn = None
        if conn:
            conn.close()

    loaders = [threading.Thread(target=load) for _ in range(4)]
    for thread in loaders:
        thread.start()
    while any(thread.is_alive() for thread in loaders):
        started = time.monotonic()
        try:
            status = call(server.port, "GET", "/healthz", source=OTHER, timeout=10)[0]
        except (OSError, EOFError) as error:
            status = type(error).__name__
        probes.append((status, time.monotonic() - started))
        time.sleep(0.02)
    for thread in loaders:
        thread.join()

    assert len(answers) >= 4 and {a for a in answers if a[0] != 400} == set(), set(answers)
    assert {code for _, code in answers} <= {"invalid_json", "invalid_request"}
    assert len(probes) >= 5 and [s for s, _ in probes if s != 200] == []
    assert statistics.median(t for _, t in probes) < 0.1, sorted(t for _, t in probes)


# 3 ──────────────────────────────────────────────────────────────────────────────────────────────


def assert_at_capacity(stream):
    assert stream.status == 503, (stream.status, stream.body)
    assert stream.headers["content-type"].startswith("application/problem+json")
    assert problem(stream.body)["code"] == "at_capacity"
    assert int(stream.headers["retry-after"]) > 0


def test_subscriber_caps_per_session_and_per_address(launch):
    server = launch({"PAGERD_MAX_SUBSCRIBERS_PER_SESSION": "4", "PAGERD_MAX_SUBSCRIBERS_PER_ADDRESS": "3"})
    one, two, three = (create_session(server) for _ in range(3))
    held = []

    def subscribe(sid, source=None):
        stream = Stream(server.port, sid, source)
        if stream.status == 200:
            assert stream.next_event()[1] == "state"
            held.append(stream)
        else:
            stream.close()
        return stream

    try:
        assert subscribe(one).status == 200 and subscribe(one).status == 200
        assert_at_capacity(subscribe(one))  # one address holds at most half of a session's places
        assert subscribe(one, OTHER).status == 200 and subscribe(one, OTHER).status == 200
        assert_at_capacity(subscribe(one, THIRD))  # the session's cap, whatever the address
        assert subscribe(two).status == 200  # 127.0.0.1 now holds 3: its cap
        assert_at_capacity(subscribe(three))  # the address's cap, on a session with no subscriber
        assert subscribe(three, OTHER).status == 200  # another address is still served
        assert subscribers(server) == 6
        # A subscriber that leaves frees its place at once.
        held.pop(0).close()
        wait_until("5 subscribers once one left", lambda n: n == 5, 3, observe=lambda: subscribers(server),
                   ignoring=TRANSIENT)
        assert subscribe(three).status == 200
    finally:
        for stream in held:
            stream.close()


# 4 ──────────────────────────────────────────────────────────────────────────────────────────────


def test_departed_subscribers_are_freed_at_once_with_the_default_heartbeat(launch):
    server = launch({**SHIPPED_PER_IP_LIMIT, "PAGERD_MAX_SUBSCRIBERS": "512"})  # heartbeat: 15 s
    sid = create_session(server)
    stream = Stream(server.port, sid)
    assert stream.status == 200 and stream.next_event()[1] == "state"
    assert subscribers(server) == 1
    stream.close()
    wait_until("no subscriber counted once the only one departed", lambda n: n == 0, 3,
               observe=lambda: subscribers(server), ignoring=TRANSIENT)

    failures = []
    for cycle in range(2000):
        try:
            stream = Stream(server.port, sid)
            if stream.status == 503:
                # Clients that leave are noticed by the server's own threads; a client opening and
                # closing streams as fast as this one may find its places still held for a moment,
                # never for long (without the watcher, until the second heartbeat: 30 s).
                stream.close()
                wait_until(f"the places freed after cycle {cycle}", lambda n: n == 0, 1,
                           observe=lambda: subscribers(server), ignoring=TRANSIENT)
                stream = Stream(server.port, sid)
            if stream.status != 200 or stream.next_event()[1] != "state":
                failures.append((cycle, stream.status, stream.body[:200]))
            stream.close()
        except (OSError, EOFError, TypeError) as error:  # refused, closed, or no event
            failures.append((cycle, type(error).__name__))
        if failures:
            break
    assert failures == [], f"cycle {failures[0][0]} of 2000 was not served: {failures[0]}"
    wait_until("no subscriber counted after the cycles", lambda n: n == 0, 3, observe=lambda: subscribers(server),
               ignoring=TRANSIENT)
    assert call(server.port, "GET", "/healthz")[0] == 200


def open_connections(server):
    return int(float(re.search(r"^pagerd_open_connections (\S+)$", metrics(server), re.M).group(1)))


def test_open_connections_are_counted_in_metrics(launch):
    server = launch()
    # The request reading /metrics holds a connection of its own.
    wait_until("only the metrics request's connection open", lambda n: n == 1, 3,
               observe=lambda: open_connections(server), ignoring=TRANSIENT)
    idle = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(5)]
    try:
        wait_until("five idle connections counted", lambda n: n == 6, 3,
                   observe=lambda: open_connections(server), ignoring=TRANSIENT)
    finally:
        for connection in idle:
            connection.close()
    wait_until("the closed connections counted out", lambda n: n == 1, 3,
               observe=lambda: open_connections(server), ignoring=TRANSIENT)


# 5 ──────────────────────────────────────────────────────────────────────────────────────────────


def test_heartbeat_comments_arrive_every_second(launch):
    server = launch({"PAGERD_EVENT_HEARTBEAT": "1"})
    stream = Stream(server.port, create_session(server))
    assert stream.status == 200 and stream.next_event()[1] == "state"
    heartbeats, deadline = 0, time.monotonic() + 3.5
    try:
        while (left := deadline - time.monotonic()) > 0:
            stream.sock.settimeout(left)
            block = stream.next_block()
            if block is None:
                break
            heartbeats += block.startswith(":") and "heartbeat" in block
    except socket.timeout:
        pass
    finally:
        stream.close()
    assert heartbeats >= 2


# 6 ──────────────────────────────────────────────────────────────────────────────────────────────


def late_request_outcome(conn):
    """What a request sent while pagerd stops got: 'closed', '503', 'streamed' (it arrived before the
    stop began and its stream was then ended), or a description of anything else."""
    try:
        status, headers = conn.read_head()
    except (EOFError, ConnectionResetError):
        return "closed"
    if status == 503:
        body = conn.read_body(headers)
        try:
            code = problem(body).get("code")
        except ValueError:
            code = None
        if "close" in headers.get("connection", "").lower() and code == "shutting_down":
            return "503"
        return f"503 without Connection: close or code shutting_down: {headers} {body[:200]!r}"
    if status == 200 and headers.get("content-type", "").startswith("text/event-stream"):
        try:
            while conn.read_chunk() is not None:
                pass
        except socket.timeout:
            return "a stream still open 10 s after SIGTERM"
        return "streamed"
    return f"unexpected {status} {headers}"


def test_sigterm_while_requests_arrive_on_kept_alive_connections_exits_zero(launch):
    for attempt in range(3):
        server = launch()
        sid = create_session(server)
        subscriber = Stream(server.port, sid)
        assert subscriber.next_event()[1] == "state"
        kept = [Connection(server.port) for _ in range(4)]
        for conn in kept:
            assert conn.request("GET", "/healthz")[0] == 200
        events = f"GET /v1/sessions/{sid}/events HTTP/1.1\r\nHost: t\r\n\r\n".encode()

        server.proc.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        outcomes = []
        for i, conn in enumerate(kept):  # the first at once, the others spread over the drain
            time.sleep(0.004 * i * i)
            try:
                conn.send(events)
            except OSError:
                outcomes.append("closed")
                kept[i] = None
        outcomes += [late_request_outcome(conn) for conn in kept if conn]
        try:
            status = server.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pytest.fail(f"attempt {attempt + 1}: still running 15 s after SIGTERM")
        stopped_after = time.monotonic() - signalled
        assert status == 0, f"attempt {attempt + 1}: exit status {status}; stderr: {''.join(server.log)[-2000:]}"
        assert set(outcomes) <= {"closed", "503", "streamed"}, outcomes
        # Nothing is in flight: stopping ends every stream at once, so no grace period is waited out
        # (a stream accepted during the stop would hold the process until the grace period ends).
        assert stopped_after < 5, f"attempt {attempt + 1}: exited {stopped_after:.1f} s after SIGTERM; {outcomes}"
        while subscriber.next_block() is not None:
            pass
        for conn in [subscriber, *filter(None, kept)]:
            conn.close()


# 7 ──────────────────────────────────────────────────────────────────────────────────────────────


def test_sigterm_with_an_upload_stuck_midway_exits_zero_within_nine_seconds(launch):
    server = launch()
    conn = Connection(server.port)
    conn.send(b"POST /v1/sessions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
              b"Content-Length: 1000\r\n\r\n" + b'{"template')  # 10 of the 1,000 bytes
    time.sleep(0.3)
    started = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    try:
        status = server.proc.wait(timeout=9)
    except subprocess.TimeoutExpired:
        pytest.fail("still running 9 s after SIGTERM with an upload in progress")
    finally:
        conn.close()
    assert status == 0 and time.monotonic() - started < 9


# 8 ──────────────────────────────────────────────────────────────────────────────────────────────


def test_slowloris_from_one_address_does_not_starve_another(launch):
    # 300 slow connections would fill a 256-connection server: only the per-address limit saves it.
    server = launch({**SHIPPED_PER_IP_LIMIT, "PAGERD_CONNECTION_LIMIT": "256"})
    slow, opened, done = [], threading.Event(), threading.Event()

    def loris():
        for _ in range(300):
            try:
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=2, source_address=(OTHER, 0))
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n")
                slow.append(sock)
            except OSError:
                pass
        opened.set()
        line = 0
        while not done.wait(1.0):  # one more header line a second, never the blank line
            for sock in list(slow):
                try:
                    sock.sendall(f"X-Slow-{line}: 1\r\n".encode())
                except OSError:
                    slow.remove(sock)
                    sock.close()
            line += 1

    attacker = threading.Thread(target=loris)
    attacker.start()
    try:
        assert opened.wait(10)
        served, deadline = 0, time.monotonic() + 10
        for _ in range(200):
            if time.monotonic() > deadline:
                break
            try:
                served += call(server.port, "GET", "/healthz", timeout=2)[0] == 200
            except (OSError, EOFError):
                pass
            time.sleep(0.02)
    finally:
        done.set()
        attacker.join()
        for sock in slow:
            sock.close()
    assert served >= 198, f"{served} of 200 probes served while 127.0.0.2 held {len(slow)} slow connections"
    assert server.proc.poll() is None


# 9 ──────────────────────────────────────────────────────────────────────────────────────────────


def test_expect_continue_with_oversized_length_gets_413_before_any_body(launch):
    server = launch()
    conn = Connection(server.port)
    try:
        conn.send(b"POST /v1/sessions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100000\r\nExpect: 100-continue\r\n\r\n")
        status, headers, body = conn.read_response()  # no body byte has been sent
    finally:
        conn.close()
    assert status == 413, f"first answer was {status}, not 413"
    assert headers["content-type"].startswith("application/problem+json")
    assert problem(body)["code"] == "body_too_large"


# 10 ─────────────────────────────────────────────────────────────────────────────────────────────


def outcome_of(port, data, timeout=10):
    """The status the server answered to `data`, 'closed', or 'no answer' within `timeout` seconds."""
    conn = Connection(port, timeout=timeout)
    try:
        try:
            conn.send(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # it may answer and close before reading everything
        return conn.read_response()[0]
    except (EOFError, ConnectionResetError):
        return "closed"
    except socket.timeout:
        return "no answer"
    finally:
        conn.close()


def test_request_line_and_header_block_over_the_memory_limit_are_refused(launch):
    server = launch()
    long_line = b"GET /" + b"a" * 40_000 + b" HTTP/1.1\r\nHost: t\r\n\r\n"
    many_headers = (b"GET /healthz HTTP/1.1\r\nHost: t\r\n"
                    + b"".join(b"X-Filler-%d: %s\r\n" % (i, b"v" * 200) for i in range(200)) + b"\r\n")
    just_over = b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: " + b"v" * 32_800 + b"\r\n\r\n"
    for data in (long_line, many_headers, just_over) * 3:
        assert outcome_of(server.port, data) in (400, 413, 414, 431, "closed")
        assert call(server.port, "GET", "/healthz")[0] == 200
    assert server.proc.poll() is None


# 11 ─────────────────────────────────────────────────────────────────────────────────────────────


def varies_on_origin(headers):
    return "origin" in [token.strip().lower() for token in headers.get("vary", "").split(",")]


def test_responses_vary_on_origin_whatever_the_origin(launch):
    server = launch({"PAGERD_CORS_ORIGINS": "https://a.example"})
    for path in ("/healthz", "/v1/templates", "/no/such/path"):
        for origin in ("https://b.example", None, "https://a.example"):
            headers = {"Origin": origin} if origin else {}
            status, answer, _ = call(server.port, "GET", path, headers=headers)
            assert varies_on_origin(answer), f"GET {path} with Origin {origin}: {status} {answer}"
            allowed = answer.get("access-control-allow-origin")
            assert allowed == ("https://a.example" if origin == "https://a.example" else None), (path, origin)


# 12 ─────────────────────────────────────────────────────────────────────────────────────────────


def test_json_log_format_writes_only_json_objects_on_stderr(launch):
    server = launch({"PAGERD_LOG_FORMAT": "json"})
    port = server.port
    provocations = [
        b"\x00\x01\x02 HTTP/9.9\r\n\r\n",
        b"GET /" + b"a" * 40_000 + b" HTTP/1.1\r\nHost: t\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: t\r\n" + b"X-Big: " + b"v" * 40_000 + b"\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\n\r\n",  # no Host
        b"GET /healthz HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        b"BREW /healthz HTTP/1.1\r\nHost: t\r\n\r\n",
    ]
    for data in provocations:
        outcome_of(port, data, timeout=2)  # whatever the answer: only the log is checked here
    for _ in range(3):  # clients that reset mid-request (SO_LINGER 0 turns close into RST)
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(b"POST /v1/sessions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"temp")
        time.sleep(0.05)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()
    stream = Stream(port, create_session(server))  # a subscriber that leaves
    stream.next_event()
    stream.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    stream.close()
    time.sleep(0.3)
    assert call(port, "GET", "/healthz")[0] == 200
    assert server.stop() == 0

    lines = [line for line in "".join(server.log).splitlines() if line.strip()]
    assert len(lines) >= 2, lines  # at least the start and the stop
    not_json = []
    for line in lines:
        try:
            if not isinstance(json.loads(line), dict):
                not_json.append(line)
        except ValueError:
            not_json.append(line)
    assert not_json == [], f"{len(not_json)} of {len(lines)} stderr lines are not JSON objects: {not_json[:5]}"


# 13 ─────────────────────────────────────────────────────────────────────────────────────────────


def test_unauthorized_comes_before_method_not_allowed_on_v1(launch):
    server = launch({"PAGERD_AUTH_TOKEN": "secret"})
    status, headers, body = call(server.port, "PUT", "/v1/sessions", {"pages": []})
    assert status == 401, (status, body)
    assert headers["www-authenticate"].startswith("Bearer")
    assert problem(body)["code"] == "unauthorized"
    status, headers, _ = call(server.port, "PUT", "/v1/sessions", {"pages": []}, {"Authorization": "Bearer secret"})
    assert status == 405 and "allow" in headers  # with the token, the method is what is wrong


# 14 ─────────────────────────────────────────────────────────────────────────────────────────────


def page(name, size):
    return {"id": name, "title": name.upper(), "content": {"blob": "x" * size}}


def test_session_budget_refuses_growth_with_507_and_changes_nothing(launch):
    server = launch({"PAGERD_SESSION_BUDGET_BYTES": "200000"})
    sid = create_session(server, {"pages": [page("p0", 10)]})
    inserted, refusal = 0, None
    for i in range(1, 40):  # 39 × 15 KB is far over 200 KB
        before = state(server, sid)
        status, _, body = call(server.port, "POST", f"/v1/sessions/{sid}/pages", {"page": page(f"p{i}", 15_000)})
        if status == 200:
            inserted += 1
            continue
        refusal = (status, body, before)
        break
    assert refusal is not None, f"{inserted} pages of 15 KB were accepted under a 200 KB budget"
    status, body, before = refusal
    assert (status, problem(body)["code"]) == (507, "session_budget_exceeded"), body
    assert inserted >= 5, "the budget allows several 15 KB pages"
    after = state(server, sid)
    assert (after["version"], after["pageCount"]) == (before["version"], before["pageCount"])

    # A push onto a page's stack is held to the same budget.
    status, _, body = call(server.port, "POST", f"/v1/sessions/{sid}/pages/p1/stack",
                           {"screen": {"id": "s1", "content": {"blob": "y" * 15_500}}})
    assert (status, problem(body)["code"]) == (507, "session_budget_exceeded"), body
    again = state(server, sid)
    assert (again["version"], again["pageCount"]) == (before["version"], before["pageCount"])


def test_memory_budget_refuses_new_sessions_with_503_until_some_are_deleted(launch):
    server = launch({"PAGERD_MEMORY_BUDGET_BYTES": "1000000", "PAGERD_SESSION_BUDGET_BYTES": "400000",
                     "PAGERD_MAX_BODY_BYTES": "262144"})
    body = {"pages": [page(f"p{i}", 15_000) for i in range(7)]}  # about 105 KB of content
    created, refusal = [], None
    for _ in range(40):  # 40 × 105 KB is four times the budget
        status, headers, data = call(server.port, "POST", "/v1/sessions", body)
        if status == 201:
            created.append(json.loads(data)["id"])
            continue
        refusal = (status, headers, data)
        break
    assert refusal is not None, f"{len(created)} sessions of 105 KB were created under a 1 MB budget"
    status, headers, data = refusal
    assert (status, problem(data)["code"]) == (503, "memory_budget_exceeded"), data
    assert int(headers["retry-after"]) > 0
    assert len(created) >= 3, "the budget allows several sessions"

    for sid in created[:3]:
        assert call(server.port, "DELETE", f"/v1/sessions/{sid}")[0] == 204
    wait_until("a session created again once three are deleted", lambda status: status == 201, 2, 0.2,
               observe=lambda: call(server.port, "POST", "/v1/sessions", body)[0], ignoring=TRANSIENT)
