"""Answers that clients do not read are counted against answerBudgetBytes: past it, pagerd
refuses new requests before any work (health checks and metrics aside), and serves again once
the answers are read."""
import re
import time

from rawhttp import Connection, request_bytes
from support import wait_until

BUDGET = 1 << 20
READERS = 6


def metric(server, name):
    status, _, body = server.request("GET", "/metrics")
    assert status == 200
    return int(float(re.search(rf"^{name} (\S+)$", body.decode(), re.M).group(1)))


def big_session(server):
    """Two pages, the first with 8 MB of content: a state document twice as large as the socket
    buffers of both ends hold, so most of an unread answer waits in pagerd."""
    pages = [{"id": "big", "title": "Big", "content": {"text": "x" * 8_000_000}}, {"id": "small", "title": "Small"}]
    status, _, state = server.json("POST", "/v1/sessions", {"pages": pages})
    assert status == 201, state
    return state["id"], state["version"]


def unread_get(port, path):
    """Sends a GET on a connection with a small receive buffer and reads nothing yet."""
    connection = Connection(port, timeout=20, receive_buffer=4096)
    connection.send(request_bytes("GET", path))
    return connection


def test_unread_answers_are_bounded_and_refusals_change_nothing(start_pagerd):
    server = start_pagerd(
        {"PAGERD_ANSWER_BUDGET_BYTES": str(BUDGET), "PAGERD_MAX_BODY_BYTES": "9000000",
         "PAGERD_MAX_CONTENT_BYTES": "9000000"})
    sid, version = big_session(server)
    _, _, document = server.request("GET", f"/v1/sessions/{sid}")
    assert len(document) > 8_000_000
    readers = [unread_get(server.port, f"/v1/sessions/{sid}") for _ in range(READERS)]
    wait_until(f"the unread answers counted up to the budget ({BUDGET} bytes)", lambda held: held >= BUDGET, 10, 0.02,
               observe=lambda: metric(server, "pagerd_answer_bytes"))
    time.sleep(0.3)  # every reader's request has been answered or refused by now
    held = metric(server, "pagerd_answer_bytes")
    # Admitted while under the budget, at most one answer per server thread past it.
    assert BUDGET <= held < BUDGET + 2 * len(document), held

    status, headers, problem = server.json("POST", f"/v1/sessions/{sid}/next")
    assert status == 503 and problem["code"] == "memory_budget_exceeded", problem
    assert headers["retry-after"] == "1"
    assert server.request("GET", "/healthz")[0] == 200
    assert server.request("GET", "/readyz")[0] == 200

    outcomes = [reader.read_response() for reader in readers]
    served = [body for status, _, body in outcomes if status == 200]
    refused = [body for status, _, body in outcomes if status == 503]
    assert len(served) + len(refused) == READERS
    assert served and refused, (len(served), len(refused))
    assert all(body == document for body in served)
    assert all(b'"memory_budget_exceeded"' in body for body in refused)
    for reader in readers:
        reader.close()

    wait_until("no answer bytes counted once the answers are read", lambda held: held == 0, 10, 0.02,
               observe=lambda: metric(server, "pagerd_answer_bytes"))
    status, _, state = server.json("POST", f"/v1/sessions/{sid}/next")
    assert status == 200
    assert state["version"] == version + 1 and state["index"] == 1  # the refused next changed nothing
