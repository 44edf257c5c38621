"""The server foundation over a real socket: health, errors as problem+json, framing, signals."""
import signal
import socket
import time

from support import Pagerd


def raw(port, data, read_timeout=5):
    """Sends raw bytes and returns everything the server answers before closing or going quiet."""
    with socket.create_connection(("127.0.0.1", port), timeout=read_timeout) as sock:
        sock.sendall(data)
        chunks = []
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and b"Content-Length" in b"".join(chunks):
                    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
                    length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
                    if len(body) >= length:
                        break
        except socket.timeout:
            pass
        return b"".join(chunks)


def test_healthz_and_readyz(pagerd):
    status, headers, body = pagerd.json("GET", "/healthz")
    assert status == 200
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert body == {"status": "ok"}
    status, _, body = pagerd.json("GET", "/readyz")
    assert (status, body) == (200, {"status": "ready"})


def test_unknown_path_is_a_problem(pagerd):
    status, headers, body = pagerd.json("GET", "/no/such/thing")
    assert status == 404
    assert headers["content-type"] == "application/problem+json; charset=utf-8"
    assert body["code"] == "not_found"
    assert body["status"] == 404
    assert body["title"] == "Not Found"
    assert body["type"] == "about:blank"


def test_wrong_method_is_405_with_allow(pagerd):
    status, headers, body = pagerd.json("DELETE", "/healthz")
    assert status == 405
    assert headers["allow"] == "GET, HEAD, OPTIONS"
    assert body["code"] == "method_not_allowed"


def test_oversized_body_is_413_problem(pagerd):
    answer = raw(pagerd.port, b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 413")
    assert b"application/problem+json" in answer
    assert b'"code":"body_too_large"' in answer


def test_chunked_body_is_411_problem(pagerd):
    answer = raw(pagerd.port, b"POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 411")
    assert b'"code":"length_required"' in answer


def test_ambiguous_framing_is_400_problem(pagerd):
    answer = raw(
        pagerd.port,
        b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}",
    )
    assert answer.startswith(b"HTTP/1.1 400")
    assert b'"code":"invalid_request"' in answer


def test_missing_host_is_refused_by_strict_mode(pagerd):
    answer = raw(pagerd.port, b"GET /healthz HTTP/1.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400")


def test_keep_alive_serves_many_requests_on_one_connection(pagerd):
    with socket.create_connection(("127.0.0.1", pagerd.port), timeout=5) as sock:
        for _ in range(50):
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            data = b""
            while not data.endswith(b'{"status":"ok"}'):
                data += sock.recv(4096)
            assert data.startswith(b"HTTP/1.1 200")


def test_sigterm_exits_zero_within_five_seconds(start_pagerd):
    server = start_pagerd()
    assert server.request("GET", "/healthz")[0] == 200
    started = time.monotonic()
    assert server.stop(signal.SIGTERM, timeout=5) == 0
    assert time.monotonic() - started < 5


def test_bad_setting_exits_two_naming_it(tmp_path):
    import subprocess
    from support import BINARY, ROOT

    result = subprocess.run(
        [BINARY], cwd=ROOT, env={"PAGERD_PORT": "99999"}, capture_output=True, text=True, timeout=10
    )
    assert result.returncode == 2
    assert "port" in result.stderr and "PAGERD_PORT" in result.stderr


def test_a_method_or_header_name_that_is_not_a_token_is_a_400_problem(pagerd):
    for request, detail in [
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad@Name: 1\r\n\r\n", b"the header name 'Bad@Name' is not a token"),
        (b"G(T /healthz HTTP/1.1\r\nHost: x\r\n\r\n", b"the method 'G(T' is not a token"),
    ]:
        answer = raw(pagerd.port, request)
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
        assert b"Content-Type: application/problem+json" in answer
        assert b'"code":"invalid_request"' in answer and detail in answer
    # A well-formed method the API does not know is a 405 with the methods the path has.
    answer = raw(pagerd.port, b"BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 405 ") and b"Allow: GET, HEAD, OPTIONS" in answer
