"""The v1 API over a real socket against the release binary."""
import http.client
import json
import random
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from support import ROOT

JSON = {"Content-Type": "application/json"}


def create(server, body):
    status, headers, state = server.json("POST", "/v1/sessions", body)
    assert status == 201, state
    return state["id"], headers, state


def test_scripted_session(pagerd):
    sid, headers, state = create(pagerd, {"template": "media"})
    assert headers["location"] == f"/v1/sessions/{sid}"
    assert headers["etag"] == '"1"'
    assert [tab["width"] for tab in state["tabs"]] == [130, 130, 130]
    base = f"/v1/sessions/{sid}"

    status, headers, state = pagerd.json("POST", base + "/next")  # curl -X POST, no body
    assert (status, state["index"], state["moved"], state["version"], headers["etag"]) == (200, 1, True, 2, '"2"')

    status, _, state = pagerd.json("POST", base + "/previous", {})
    assert (state["index"], state["edge"], state["version"]) == (0, "start", 3)

    status, _, state = pagerd.json("POST", base + "/select", {"page": "music"})
    assert [k["index"] for k in state["keyframes"]] == [1, 2]
    assert [k["indicator"]["x"] for k in state["keyframes"]] == [130, 260]
    assert (state["index"], state["edge"], state["canGoNext"]) == (2, "end", False)

    status, _, state = pagerd.json("POST", base + "/scroll", {"offset": 682.5})  # 682.5/390 − 2 = −0.25
    assert state["transition"] == {"from": 2, "to": 1, "progress": 0.25, "direction": "reverse"}
    assert state["indicator"]["x"] == pytest.approx(227.5, abs=1e-6)
    assert state["pageOffset"] == pytest.approx(682.5, abs=1e-6)

    status, _, state = pagerd.json("POST", base + "/transition", {"phase": "end", "completed": True})
    assert (state["index"], state["transition"], state["moved"]) == (1, None, True)

    status, _, state = pagerd.json("POST", base + "/pages", {"page": {"id": "podcasts", "title": "Podcasts"}, "at": 0})
    assert (status, state["index"], state["page"]["id"], state["pageCount"]) == (200, 2, "videos", 4)
    assert state["tabs"][0]["width"] == 97.5

    status, _, state = pagerd.json("POST", base + "/pages/videos/stack", {"screen": {"id": "player", "title": "Player"}})
    assert state["page"]["stack"] == [{"id": "player", "title": "Player"}]
    status, _, state = pagerd.json("DELETE", base + "/pages/videos/stack?to=root")
    assert state["page"]["stack"] == []
    status, _, problem = pagerd.json("DELETE", base + "/pages/videos/stack")
    assert (status, problem["code"]) == (409, "stack_root")

    version = state["version"]
    status, headers, _ = pagerd.request("GET", base, headers={"If-None-Match": f'"{version}"'})
    assert (status, headers["etag"]) == (304, f'"{version}"')
    status, _, problem = pagerd.json("POST", base + "/next", headers={"If-Match": '"1"'})
    assert (status, problem["code"]) == (412, "version_mismatch")
    assert pagerd.json("GET", base)[2]["version"] == version

    status, _, _ = pagerd.request("DELETE", base)
    assert status == 204
    status, _, problem = pagerd.json("GET", base)
    assert (status, problem["code"]) == (404, "session_not_found")


def test_an_id_with_an_encoded_nul_names_nothing(pagerd):
    """A %00 in the path stays as written: it never cuts an id (or a page id) short."""
    sid, _, _ = create(pagerd, {"template": "media"})
    base = f"/v1/sessions/{sid}"
    status, _, problem = pagerd.json("GET", base + "%00garbage")
    assert (status, problem["code"]) == (404, "session_not_found")
    status, _, problem = pagerd.json("PATCH", base + "/pages/videos%00zzz", {"title": "Cut"})
    assert (status, problem["code"]) == (404, "page_not_found")
    status, _, state = pagerd.json("GET", base)
    assert (status, state["version"], state["tabs"][1]["title"]) == (200, 1, "Videos")


def test_sixteen_clients_fifty_nexts_each(pagerd):
    sid, _, _ = create(pagerd, {"template": "mall"})
    versions, errors, lock = [], [], threading.Lock()

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", pagerd.port, timeout=30)
        try:
            for _ in range(50):
                conn.request("POST", f"/v1/sessions/{sid}/next")
                response = conn.getresponse()
                body = json.loads(response.read())
                with lock:
                    if response.status == 200:
                        versions.append(body["version"])
                    else:
                        errors.append(response.status)
        finally:
            conn.close()

    threads = [threading.Thread(target=client) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(versions) == list(range(2, 802))
    state = pagerd.json("GET", f"/v1/sessions/{sid}")[2]
    assert (state["version"], state["index"]) == (801, 800 % 3)


def junk_requests(rng, sid):
    methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "BREW", "TRACE", "G\x01T"]
    paths = ["/", "/v1", "/v1/sessions", f"/v1/sessions/{sid}", f"/v1/sessions/{sid}/select",
             f"/v1/sessions/{sid}/scroll", f"/v1/sessions/{sid}/pages", f"/v1/sessions/{sid}/pages/product",
             f"/v1/sessions/{sid}/pages/product/stack", f"/v1/sessions/{sid}/transition", "/v1/templates/%00",
             "/v1/sessions/" + "a" * 3000, "/metrics", "/%ff%fe", "/v1/sessions/x/../../etc/passwd"]
    bodies = [b"", b"{", b"[]", b"null", b'{"index": 1e400}', b'{"progress": "NaN"}', b'{"index": -1}',
              b'{"page": {"id": "\\ud800", "title": 1}}', b"\xff\xfe\x00", b'{"pages": [' + b"{}," * 500 + b"{}]}",
              b"[" * 10000, b'{"phase": "begin", "to": 99999999999999999999}', b'{"a":' * 100 + b"1" + b"}" * 100,
              json.dumps({"screen": {"id": "s", "content": {"x": "y" * 20000}}}).encode(),
              b'{"template": "mall", "tabBar": {"spacing": 1e308}}', b'{"offset": -0.0}']
    for _ in range(400):
        method = rng.choice(methods)
        path = rng.choice(paths)
        body = rng.choice(bodies)
        headers = rng.choice([{}, JSON, {"Content-Type": "text/plain"}, {"If-Match": rng.choice(['"x"', "*", '"1"'])}])
        yield method, path, body, headers


def test_four_hundred_junk_requests_never_5xx(pagerd):
    sid, _, _ = create(pagerd, {"template": "mall"})
    rng = random.Random(20261122)
    statuses = []
    for method, path, body, headers in junk_requests(rng, sid):
        with socket.create_connection(("127.0.0.1", pagerd.port), timeout=10) as sock:
            head = f"{method} {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: {len(body)}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            sock.sendall(head.encode("latin-1") + b"\r\n" + body)
            data = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        status_line = data.split(b"\r\n", 1)[0]
        status = int(status_line.split()[1]) if status_line.startswith(b"HTTP/1.1 ") else 0
        statuses.append(status)
        assert status and status < 500, (method, path, body[:80], data[:300])
    assert len(statuses) == 400
    assert pagerd.json("GET", "/healthz")[0] == 200
    # The junk may have deleted or changed the session; the server must still serve new ones.
    fresh, _, _ = create(pagerd, {"template": "mall"})
    assert pagerd.json("POST", f"/v1/sessions/{fresh}/next")[2]["index"] == 1


def test_schemathesis_finds_no_server_error_or_schema_break(pagerd, tmp_path):
    # One worker: with two, hypothesis parses lambda sources from two threads at once, and
    # CPython 3.11's ast.parse then fails now and then with "AST constructor recursion depth
    # mismatch", a crash of the tool that has nothing to do with the server.
    binary = shutil.which("schemathesis") or str(Path(sys.executable).parent / "schemathesis")
    result = subprocess.run(
        [binary, "run", f"http://127.0.0.1:{pagerd.port}/openapi.json", "--checks", "all",
         "--exclude-checks", "positive_data_acceptance,negative_data_rejection",
         "--exclude-operation-id", "streamEvents",
         "--max-examples", "40", "--seed", "20261122", "--workers", "1", "--generation-deterministic",
         "--report", "junit", "--report-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=1200,
    )
    summary = result.stdout[-3000:]
    assert result.returncode == 0, summary
    generated = [line for line in result.stdout.splitlines() if "generated" in line]
    assert generated, summary
    count = int(generated[-1].split()[0])
    assert count >= 500, summary
