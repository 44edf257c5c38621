"""pagerd behind nginx, configured by the sample in deploy/nginx/pagerd.conf.

The sample's placeholders are filled in (nginx on a free loopback port, pagerd as the upstream),
its client_header_timeout is shortened to 2 s so a slowloris client is cut quickly, and it is
included from a throwaway nginx.conf whose pid, logs and temporary files live in a temporary
folder. Skipped when nginx is not installed (Debian: `apt-get install nginx`).
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import time

import pytest
import requests

from support import ROOT, Pagerd, wait_until
from test_hardening import Connection, Stream

NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed")

SAMPLE = ROOT / "deploy" / "nginx" / "pagerd.conf"
HEADER_TIMEOUT = 2  # seconds; the sample says 10


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def site_config(listen, upstream):
    """The sample with its placeholders replaced and a short client_header_timeout."""
    text = SAMPLE.read_text().replace("__LISTEN__", listen).replace("__UPSTREAM__", upstream)
    text, count = re.subn(r"^(\s*client_header_timeout)\s+\S+;", rf"\1 {HEADER_TIMEOUT}s;", text, flags=re.M)
    assert count == 1 and "__LISTEN__" not in text and "__UPSTREAM__" not in text
    return text


def with_logs_in(text, folder):
    """The sample with its access and error logs in `folder`."""
    assert "/var/log/nginx/access.log" in text and "/var/log/nginx/error.log" in text
    return text.replace("/var/log/nginx/access.log", f"{folder}/access.log").replace(
        "/var/log/nginx/error.log", f"{folder}/error.log")


def main_config(folder):
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers must reach the temporary folder
    return f"""{user}worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
events {{ worker_connections 512; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/pagerd.conf;
}}
"""


class Proxied(tuple):
    """(nginx's port, the pagerd behind it), with `folder`: nginx's files and logs."""

    def __new__(cls, port, pagerd, folder):
        made = super().__new__(cls, (port, pagerd))
        made.folder = folder
        return made


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    """(nginx's port, the pagerd behind it), with `folder` (Proxied)."""
    # The settings deploy/README.md gives for running behind the proxy.
    pagerd = Pagerd({"PAGERD_PER_IP_CONNECTION_LIMIT": "0", "PAGERD_MAX_SUBSCRIBERS_PER_ADDRESS": "512",
                     "PAGERD_MAX_SUBSCRIBERS_PER_SESSION": "64"})
    nginx = None
    try:
        folder = tmp_path_factory.mktemp("nginx")
        port = free_port()
        (folder / "pagerd.conf").write_text(with_logs_in(site_config(f"127.0.0.1:{port}", f"127.0.0.1:{pagerd.port}"), folder))
        (folder / "nginx.conf").write_text(main_config(folder))
        nginx = subprocess.Popen(
            [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        def listening():
            assert nginx.poll() is None, "nginx exited: " + (folder / "error.log").read_text()[-2000:]
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True

        wait_until("nginx listening", listening, 10, ignoring=(OSError,))
        yield Proxied(port, pagerd, folder)
    finally:
        if nginx:
            nginx.send_signal(signal.SIGTERM)  # fast shutdown: streams still open are closed
            try:
                nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait()
        pagerd.stop()


def test_api_through_the_proxy(proxy):
    port, _ = proxy
    base = f"http://127.0.0.1:{port}"
    created = requests.post(base + "/v1/sessions", json={"template": "mall"}, timeout=10)
    assert created.status_code == 201 and created.headers["Location"] == f"/v1/sessions/{created.json()['id']}"
    path = created.headers["Location"]
    moved = requests.post(base + path + "/next", timeout=10)
    assert (moved.status_code, moved.json()["version"], moved.json()["moved"]) == (200, 2, True)
    got = requests.get(base + path, timeout=10)
    assert (got.status_code, got.headers["ETag"], got.json()["index"]) == (200, '"2"', 1)
    assert requests.get(base + path, headers={"If-None-Match": '"2"'}, timeout=10).status_code == 304
    missing = requests.get(base + "/v1/sessions/nope", timeout=10)
    assert missing.status_code == 404 and missing.headers["Content-Type"].startswith("application/problem+json")


def test_event_stream_through_the_proxy(proxy):
    port, _ = proxy
    base = f"http://127.0.0.1:{port}"
    sid = requests.post(base + "/v1/sessions", json={"template": "media"}, timeout=10).json()["id"]
    stream = Stream(port, sid, timeout=5)  # each read waits at most 5 s
    try:
        assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
        assert stream.next_event()[:2] == (1, "state")
        assert requests.post(f"{base}/v1/sessions/{sid}/next", timeout=10).status_code == 200
        event_id, kind, document = stream.next_event()
        assert (event_id, kind, document["index"]) == (2, "pageChanged", 1)
    finally:
        stream.close()


def test_a_session_serves_its_watchers_through_the_proxy(proxy):
    """20 watchers of one session, all from nginx's address to pagerd: more than half of the
    default 32 places, which is all one address may hold, but within the 64 the settings give."""
    port, _ = proxy
    base = f"http://127.0.0.1:{port}"
    sid = requests.post(base + "/v1/sessions", json={"template": "media"}, timeout=10).json()["id"]
    streams = []
    try:
        for _ in range(20):
            streams.append(Stream(port, sid, timeout=5))
            assert streams[-1].status == 200, streams[-1].body[:300]
            assert streams[-1].next_event()[:2] == (1, "state")
        assert requests.post(f"{base}/v1/sessions/{sid}/next", timeout=10).status_code == 200
        assert [stream.next_event()[:2] for stream in streams] == [(2, "pageChanged")] * 20
    finally:
        for stream in streams:
            stream.close()


def test_slowloris_is_cut_by_client_header_timeout(proxy):
    port, _ = proxy
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    started = time.monotonic()
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n")
    sock.settimeout(0.25)
    answer, closed, line = b"", None, 0
    try:
        while time.monotonic() - started < HEADER_TIMEOUT + 8:
            try:
                sock.sendall(b"X-Slow-%d: 1\r\n" % line)  # a header line every 0.25 s, never the end
                line += 1
                chunk = sock.recv(4096)
                if not chunk:
                    closed = time.monotonic() - started
                    break
                answer += chunk
            except socket.timeout:
                continue
            except (ConnectionResetError, BrokenPipeError):
                closed = time.monotonic() - started
                break
    finally:
        sock.close()
    assert closed is not None, "nginx kept a request head open that never ended"
    assert HEADER_TIMEOUT - 0.5 <= closed < HEADER_TIMEOUT + 5, closed
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408")


def test_oversized_body_is_refused_by_nginx(proxy):
    port, pagerd = proxy
    conn = Connection(port)
    try:
        conn.send(b"POST /v1/sessions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 102400\r\n\r\n")
        try:
            conn.send(b"x" * 102400)
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, headers, _ = conn.read_response()
    finally:
        conn.close()
    assert status == 413 and headers["content-type"].startswith("text/html")  # nginx's page, not pagerd's
    assert 'status="413"' not in pagerd.request("GET", "/metrics")[2].decode()  # pagerd never saw it


def test_the_sample_logs_no_event_stream_query(proxy):
    """An access token in an event stream's query never reaches nginx's access log."""
    port, _ = proxy
    base = f"http://127.0.0.1:{port}"
    sid = requests.post(base + "/v1/sessions", json={"template": "media"}, timeout=10).json()["id"]
    secret = "eyJhbGciOiJIUzI1NiJ9.eyJ0b2tlbi1pbi1hLXVybCI6MX0.c2lnbmF0dXJl"
    with requests.get(f"{base}/v1/sessions/{sid}/events?access_token={secret}", stream=True, timeout=10) as stream:
        assert stream.status_code == 200
        next(stream.iter_lines())
    log = proxy.folder / "access.log"
    wait_until("the stream's line in the access log", lambda text: f"/v1/sessions/{sid}/events" in text, 5, 0.1,
               observe=lambda: log.read_text() if log.exists() else "")
    text = log.read_text()
    assert secret not in text and "access_token" not in text


def test_the_sample_logs_no_token_of_the_demo_page(proxy):
    """The demo page's address may carry a token (/?token=): nginx logs it without the query, and the
    page's own requests (its scripts) without the Referer that holds that address."""
    port, _ = proxy
    base = f"http://127.0.0.1:{port}"
    secret = "eyJhbGciOiJIUzI1NiJ9.eyJkZW1vLXBhZ2UiOjF9.c2lnbmF0dXJlMw"
    page = requests.get(f"{base}/?token={secret}", timeout=10)
    assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]
    script = requests.get(f"{base}/demo/app.js", headers={"Referer": f"{base}/?token={secret}"}, timeout=10)
    assert script.status_code == 200
    log = proxy.folder / "access.log"
    wait_until("the script's line in the access log", lambda text: "GET /demo/app.js" in text, 5, 0.1,
               observe=lambda: log.read_text() if log.exists() else "")
    text = log.read_text()
    assert "GET / HTTP/1.1" in text
    assert secret not in text and "token=" not in text


def test_the_sample_logs_no_event_stream_token_in_errors(proxy):
    """nginx writes a refused request's line, query included, into its error log: a stream refused by
    the sample's per-address cap (32) leaves no access token there."""
    port, _ = proxy
    base = f"http://127.0.0.1:{port}"
    # pagerd lets one address hold half of a session's 32 streams: four sessions take 32 streams.
    sessions = [requests.post(base + "/v1/sessions", json={"template": "media"}, timeout=10).json()["id"]
                for _ in range(4)]
    secret = "eyJhbGciOiJIUzI1NiJ9.eyJyZWZ1c2VkLWluLWEtbG9nIjoxfQ.c2lnbmF0dXJlMg"
    held = []

    def open_stream(sid):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(f"GET /v1/sessions/{sid}/events?access_token={secret} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
        held.append(sock)
        head = b""
        while b"\r\n" not in head:
            chunk = sock.recv(4096)
            assert chunk, "the connection closed before a status line"
            head += chunk
        return int(head.split(b" ", 2)[1])

    try:
        assert [open_stream(sessions[i % 4]) for i in range(32)] == [200] * 32
        assert open_stream(sessions[0]) == 429  # nginx's limit_conn pagerd_streams
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 2
    errors = proxy.folder / "error.log"
    while time.monotonic() < deadline and "pagerd_streams" not in errors.read_text():
        time.sleep(0.1)  # (nothing is expected: wait a little for a line that should not come)
    text = errors.read_text()
    assert secret not in text and "access_token" not in text


def test_a_nul_byte_in_a_header_is_refused_by_nginx(proxy):
    """libmicrohttpd 0.9.75 cuts a header value at a NUL byte and serves the rest of the request
    (docs/api.md, «Errors»): the sample's nginx refuses such a request with 400 before pagerd sees it."""
    port, pagerd = proxy
    conn = Connection(port)
    try:
        conn.send(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Note: a\x00b\r\n\r\n")
        status, _, _ = conn.read_response()
    finally:
        conn.close()
    assert status == 400
    # Served directly, pagerd answers the same request (the value cut at the NUL): hence the proxy.
    direct = Connection(pagerd.port)
    try:
        direct.send(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Note: a\x00b\r\n\r\n")
        assert direct.read_response()[0] == 200
    finally:
        direct.close()
