"""Access tokens against the real server: tokens in the header and in an event stream's query,
scopes refused with 403, minted tokens, a stream that ends when its token does and is resumed,
the shell one-liner of docs/api.md, and no token in any log line."""
import json
import re
import signal
import subprocess
import time

from access_tokens import AUTH_TOKEN, ENV, SECRET, bearer, token
import rawhttp
from support import ROOT, Pagerd, wait_until
from test_events import EventReader


def create(server):
    status, _, state = server.json("POST", "/v1/sessions", {"template": "media"}, bearer(AUTH_TOKEN))
    assert status == 201, state
    return state


def blocks(reader, count):
    """The next `count` event blocks of a stream as {field: value} dicts (comments and retry skipped)."""
    found = []
    while len(found) < count:
        block = reader.next_block()
        if block is None:
            break
        fields = dict(line.partition(": ")[::2] for line in block.split("\n") if line and not line.startswith(":"))
        if "event" in fields:
            found.append(fields)
    return found


def test_minted_tokens_reach_what_their_scope_covers(start_pagerd):
    server = start_pagerd(ENV)
    created = create(server)
    sid, access = created["id"], created["access"]
    control, watch = access["control"]["token"], access["watch"]["token"]
    assert access["control"]["expiresAt"] - time.time() > 86_400 - 60

    # A watch token follows events from the query, reads, and changes nothing.
    reader = EventReader(server.port, sid, query=f"?access_token={watch}")
    assert reader.status == 200
    assert reader.next_event()[:2] == (1, "state")
    status, headers, problem = server.json("POST", f"/v1/sessions/{sid}/next", headers=bearer(watch))
    assert (status, problem["code"]) == (403, "forbidden")
    assert headers["www-authenticate"] == 'Bearer error="insufficient_scope", scope="drive"'
    assert server.json("GET", f"/v1/sessions/{sid}", headers=bearer(watch))[0] == 200
    # The query is read by the event stream only.
    assert server.json("GET", f"/v1/sessions/{sid}?access_token={watch}")[0] == 401

    # The control token moves it; the watcher sees the change.
    assert server.json("POST", f"/v1/sessions/{sid}/next", headers=bearer(control))[0] == 200
    assert reader.next_event()[:2] == (2, "pageChanged")
    reader.close()

    # A control token mints a drive token (a presenter's remote), never a control one.
    status, headers, minted = server.json("POST", f"/v1/sessions/{sid}/tokens", {"scope": "drive", "ttl": 120}, bearer(control))
    assert status == 201 and minted["scope"] == "drive" and minted["sessionId"] == sid
    assert headers["cache-control"] == "no-store"
    assert server.json("POST", f"/v1/sessions/{sid}/next", headers=bearer(minted["token"]))[0] == 200
    assert server.json("DELETE", f"/v1/sessions/{sid}", headers=bearer(minted["token"]))[0] == 403
    assert server.json("POST", f"/v1/sessions/{sid}/tokens", {"scope": "control"}, bearer(control))[0] == 403

    # Before any lookup: a path that names nothing and a missing session tell nothing without a token.
    for method, path in [("GET", "/v1/nothing"), ("POST", "/v1/sessions/ghost/next"), ("PUT", "/v1/sessions")]:
        status, headers, problem = server.json(method, path)
        assert (status, problem["code"], headers["www-authenticate"]) == (401, "unauthorized", 'Bearer')
    assert server.json("GET", "/v1/nothing", headers=bearer(watch))[0] == 404


def test_a_stream_ends_when_its_token_expires_and_resumes_with_a_new_one(start_pagerd):
    server = start_pagerd(ENV)
    sid = create(server)["id"]
    # Expired 27 s ago, in whole seconds: still accepted (30 s of leeway), and its stream ends
    # 2 to 3 seconds later.
    short = token("watch", sid, exp=int(time.time()) - 27)
    reader = EventReader(server.port, sid, query=f"?access_token={short}")
    assert reader.status == 200
    started = time.monotonic()
    first, last = blocks(reader, 2)
    assert first["event"] == "state" and first["id"] == "1"
    assert last == {"event": "expired", "data": '{"version":1}'}
    assert reader.next_block() is None and time.monotonic() - started < 8
    reader.close()
    # The old token opens nothing; a new one resumes from the version reached.
    assert EventReader(server.port, sid, query=f"?access_token={short}").status == 401
    assert server.json("POST", f"/v1/sessions/{sid}/next", headers=bearer(AUTH_TOKEN))[0] == 200
    resumed = EventReader(server.port, sid, query=f"?access_token={token('watch', sid)}&lastEventId=1")
    assert resumed.next_event()[:2] == (2, "state")
    resumed.close()


def test_framing_refusals_come_before_the_token(start_pagerd):
    """A body over the cap (413), a chunked body (411) and ambiguous framing (400) are answered
    before any token is asked for: the same answers with no token as with the operator's."""
    server = start_pagerd(ENV)
    heads = {
        413: b"POST /v1/sessions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             b"Content-Length: 10000000\r\n",
        411: b"POST /v1/sessions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
             b"Transfer-Encoding: chunked\r\n",
        400: b"POST /v1/sessions/x/next HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n"
             b"Transfer-Encoding: chunked\r\n",
    }
    for status, head in heads.items():
        for credential in (b"", f"Authorization: Bearer {AUTH_TOKEN}\r\n".encode(), b"Authorization: Bearer a.b.c\r\n"):
            connection = rawhttp.Connection(server.port)
            try:
                connection.send(head + credential + b"\r\n")
                answered, headers = connection.read_head()
            finally:
                connection.close()
            assert (answered, "www-authenticate" in headers) == (status, False), (status, credential)
    metrics = server.request("GET", "/metrics")[2].decode()
    assert re.search(r'^pagerd_access_refusals_total\{reason="(missing|malformed)"\} [1-9]', metrics, re.M) is None



def test_shutting_down_comes_before_the_token(start_pagerd):
    """While pagerd stops (SIGTERM, with an upload stuck half-way holding it in its grace period),
    a /v1 request on a kept-alive connection with no token, or with a token that is no token, is
    answered 503 `shutting_down` with no challenge: the server's own refusal comes before the
    token check, which answers the same requests 401 with `WWW-Authenticate` just before."""
    server = start_pagerd({**ENV, "PAGERD_SHUTDOWN_GRACE": "3"})
    sid = create(server)["id"]
    stuck, probe, bare, forged = (rawhttp.Connection(server.port) for _ in range(4))
    credentials = [(bare, None), (forged, bearer("a.b.c"))]
    try:
        stuck.send(b"POST /v1/sessions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                   + f"Authorization: Bearer {AUTH_TOKEN}\r\n".encode()
                   + b"Content-Length: 1000\r\n\r\n" + b'{"template')  # 10 of the 1,000 bytes
        for connection, headers in credentials:  # the connections stay open after a 401
            status, answered, _ = connection.request("GET", f"/v1/sessions/{sid}", headers=headers)
            assert (status, answered["www-authenticate"].startswith("Bearer")) == (401, True), (status, answered)
        assert probe.request("GET", "/readyz")[0] == 200

        server.proc.send_signal(signal.SIGTERM)
        # /readyz needs no token: its first answer that closes the connection says the stop has
        # begun. That is `shutting_down`, or an answer the stop overtook between the request's
        # check and its answer (the server then closes the connection after it): a 200, or the
        # 503 `not_ready` it answers from the moment the stop begins.
        def readiness():
            status, answered, body = probe.request("GET", "/readyz")
            return status, json.loads(body).get("code"), answered.get("connection")
        status, code, _ = wait_until("/readyz closing a kept-alive connection", lambda seen: seen[2] == "close",
                                     5, 0.01, observe=readiness)
        assert (status, code) in {(503, "shutting_down"), (503, "not_ready"), (200, None)}, (status, code)
        for connection, headers in credentials:
            status, answered, body = connection.request("GET", f"/v1/sessions/{sid}", headers=headers)
            assert (status, json.loads(body)["code"]) == (503, "shutting_down"), (status, answered, body)
            assert "www-authenticate" not in answered, answered
            assert (answered["connection"], answered["retry-after"]) == ("close", "1"), answered
    finally:
        for connection in (stuck, probe, bare, forged):
            connection.close()
    assert server.proc.wait(timeout=15) == 0

def test_refusals_are_counted_by_reason(start_pagerd):
    server = start_pagerd(ENV)
    for value in [token("watch", lifetime=-60), token("watch", aud="other"), token("watch", secret=b"x" * 32), "a.b.c"]:
        assert server.json("GET", "/v1/templates", headers=bearer(value))[0] == 401
    metrics = server.request("GET", "/metrics")[2].decode()
    counts = dict(re.findall(r'^pagerd_access_refusals_total\{reason="(\w+)"\} (\d+)', metrics, re.M))
    assert {k: counts[k] for k in ("expired", "audience", "signature", "malformed", "missing")} == {
        "expired": "1", "audience": "1", "signature": "1", "malformed": "1", "missing": "0"}
    assert len(counts) == 15


def shell_example():
    """The shell one-liner of docs/api.md «Access tokens» that mints a token with openssl."""
    text = (ROOT / "docs" / "api.md").read_text()
    match = re.search(r"<!-- minting with openssl -->\n```sh\n(.*?)```", text, re.S)
    assert match, "docs/api.md has no openssl example"
    return match.group(1)


def test_the_documented_openssl_one_liner_mints_a_token_pagerd_accepts(start_pagerd):
    script = shell_example()
    # The document's key is the one the example's variables name; run it with this test's.
    env = {"PATH": "/usr/bin:/bin", "PAGERD_SECRET": SECRET, "SESSION": "", "KID": "e2e"}
    server = start_pagerd(ENV)
    sid = create(server)["id"]
    env["SESSION"] = sid
    minted = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert minted.count(".") == 2
    assert server.json("POST", f"/v1/sessions/{sid}/next", headers=bearer(minted))[0] == 200


def test_no_token_reaches_a_log_line(start_pagerd):
    server = start_pagerd({**ENV, "PAGERD_LOG_LEVEL": "trace", "PAGERD_LOG_FORMAT": "json"})
    created = create(server)
    sid = created["id"]
    tokens = [created["access"]["control"]["token"], created["access"]["watch"]["token"], token("watch", sid),
              token("watch", lifetime=-600), AUTH_TOKEN]
    for value in tokens:
        for method, path in [("GET", f"/v1/sessions/{sid}"), ("POST", f"/v1/sessions/{sid}/next"),
                             ("GET", f"/v1/sessions/{sid}/nothing"), ("GET", f"/v1/sessions/{sid}?access_token={value}")]:
            server.request(method, path, headers=bearer(value))
        reader = EventReader(server.port, sid, query=f"?access_token={value}")
        reader.close()  # a client that leaves at once, mid-stream
        # A request line too long for the server: libmicrohttpd logs its own refusal.
        server.request("GET", f"/v1/sessions/{sid}/events?access_token={value}&pad={'x' * 40000}")
    server.stop()
    log = "".join(server.log)
    assert log, "the server logged nothing"
    for value in tokens + [SECRET]:
        assert value not in log
        for part in value.split(".")[1:]:  # neither the claims nor the signature alone
            assert len(part) < 8 or part not in log
