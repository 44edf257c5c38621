"""Server-Sent Events over a real socket."""
import json
import os
import re
import signal
import socket
import threading
import time

from support import Pagerd, wait_until


class EventReader:
    """A raw SSE client: parses events as they arrive on one connection."""

    def __init__(self, port, sid, last_event_id=None, query=""):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        head = f"GET /v1/sessions/{sid}/events{query} HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n"
        if last_event_id is not None:
            head += f"Last-Event-ID: {last_event_id}\r\n"
        self.sock.sendall((head + "\r\n").encode())
        self.buffer = b""
        self.status, self.headers = self._read_head()
        self.chunked_rest = b""
        self.text = b""  # decoded chunks, as bytes: a chunk may end inside a character
        self.ended = False

    def _read_head(self):
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed before the head")
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        return status, headers

    def _decode_chunks(self):
        while True:
            if b"\r\n" not in self.buffer:
                return
            size_line, _, rest = self.buffer.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                self.ended = True
                self.buffer = b""
                return
            if len(rest) < size + 2:
                return
            self.text += rest[:size]
            self.buffer = rest[size + 2:]

    def next_block(self):
        """The next event or comment block (text up to a blank line), or None at the end."""
        self._decode_chunks()
        while b"\n\n" not in self.text:
            if self.ended:
                return None
            chunk = self.sock.recv(65536)
            if not chunk:
                self.ended = True
                continue
            self.buffer += chunk
            self._decode_chunks()
        block, _, self.text = self.text.partition(b"\n\n")
        return block.decode()

    def next_event(self):
        """The next event as (id, kind, state), skipping retry and comment blocks; None at the end."""
        while True:
            block = self.next_block()
            if block is None:
                return None
            fields = {}
            for line in block.split("\n"):
                if line.startswith(":") or not line:
                    continue
                name, _, value = line.partition(": ")
                fields[name] = value
            if "event" in fields:
                return int(fields["id"]), fields["event"], json.loads(fields["data"])

    def close(self):
        self.sock.close()


def post(server, path, body=None):
    return server.json("POST", path, body)


def subscribers(server):
    text = server.request("GET", "/metrics")[2].decode()
    return int(float(re.search(r"^pagerd_event_subscribers (\S+)$", text, re.M).group(1)))


def open_fds(server):
    """Open descriptors once the server has closed the sockets of requests just answered."""
    time.sleep(0.3)
    return len(os.listdir(f"/proc/{server.proc.pid}/fd"))


def test_two_subscribers_see_the_same_ids_in_order(pagerd):
    sid = post(pagerd, "/v1/sessions", {"template": "mall"})[2]["id"]
    a, b = EventReader(pagerd.port, sid), EventReader(pagerd.port, sid)
    assert a.status == 200 and a.headers["content-type"] == "text/event-stream; charset=utf-8"
    assert a.next_event()[:2] == (1, "state") and b.next_event()[:2] == (1, "state")
    for i in range(30):
        post(pagerd, f"/v1/sessions/{sid}/next" if i % 3 else f"/v1/sessions/{sid}/scroll", None if i % 3 else {"progress": 0.25})
    seen_a = [a.next_event() for _ in range(30)]
    seen_b = [b.next_event() for _ in range(30)]
    assert [e[0] for e in seen_a] == list(range(2, 32))
    assert [(e[0], e[1]) for e in seen_a] == [(e[0], e[1]) for e in seen_b]
    assert seen_a[0][1] == "transition" and seen_a[1][1] == "pageChanged"
    assert seen_a[-1][2]["version"] == 31 and seen_a[-1][2] == seen_b[-1][2]
    # Every event after the first state event says what caused it (docs/api.md, «Events»).
    assert all(event[2]["cause"] == "request" for event in seen_a)
    pagerd.request("DELETE", f"/v1/sessions/{sid}")
    deleted = a.next_event()
    assert deleted[1] == "deleted" and deleted[2]["cause"] == "request" and a.next_event() is None
    a.close(), b.close()


def test_reconnect_with_last_event_id_has_no_gap_or_duplicate(pagerd):
    sid = post(pagerd, "/v1/sessions", {"template": "media"})[2]["id"]
    reader = EventReader(pagerd.port, sid)
    seen = [reader.next_event()[0]]
    for i in range(1000):
        post(pagerd, f"/v1/sessions/{sid}/scroll", {"progress": 0.1 + (i % 2) * 0.2})
        seen.append(reader.next_event()[0])
        if i % 250 == 249:  # reconnect, as EventSource does, with the last id seen
            reader.close()
            reader = EventReader(pagerd.port, sid, last_event_id=seen[-1])
    reader.close()
    assert seen == list(range(1, 1002))
    # Behind by some changes: the current state comes first, once.
    behind = EventReader(pagerd.port, sid, query="?lastEventId=5")
    first = behind.next_event()
    assert first[:2] == (1001, "state") and first[2]["version"] == 1001 and "cause" not in first[2]
    post(pagerd, f"/v1/sessions/{sid}/scroll", {"progress": 0.5})
    assert behind.next_event()[0] == 1002
    behind.close()


def test_connect_read_close_cycles_leak_nothing(start_pagerd):
    # The caps are raised: what this counts is what 10,000 cycles leave behind, not how fast a
    # departed client's place is free again (test_hardening checks that).
    server = start_pagerd({"PAGERD_EVENT_HEARTBEAT": "1", "PAGERD_MAX_SUBSCRIBERS": "20000",
                           "PAGERD_CONNECTION_LIMIT": "20000", "PAGERD_MAX_SUBSCRIBERS_PER_SESSION": "20000",
                           "PAGERD_MAX_SUBSCRIBERS_PER_ADDRESS": "20000"})
    sid = post(server, "/v1/sessions", {"template": "mall"})[2]["id"]
    warm = EventReader(server.port, sid)
    warm.next_event()
    warm.close()
    time.sleep(2.5)
    subscribers(server)
    fds_before = open_fds(server)
    for _ in range(10000):
        reader = EventReader(server.port, sid)
        assert reader.next_event()[1] == "state"
        reader.close()
    wait_until(f"no subscriber and at most the {fds_before} descriptors open before (subscribers, descriptors)",
               lambda seen: seen[0] == 0 and seen[1] <= fds_before, 20, 0.2,
               observe=lambda: (subscribers(server), open_fds(server)))
    assert server.json("GET", f"/v1/sessions/{sid}")[0] == 200


def test_a_subscriber_that_never_reads_does_not_delay_another(pagerd):
    big = "x" * 8000
    sid = post(pagerd, "/v1/sessions", {"pages": [{"id": f"p{i}", "title": f"P{i}", "content": {"blob": big}} for i in range(3)],
                                        "preload": 2})[2]["id"]
    stalled = socket.create_connection(("127.0.0.1", pagerd.port))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.sendall(f"GET /v1/sessions/{sid}/events HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    reader = EventReader(pagerd.port, sid)
    reader.next_event()
    ids = []
    prompt = threading.Thread(target=lambda: ids.extend(reader.next_event()[0] for _ in range(300)))
    prompt.start()
    for i in range(300):  # each event is ≈ 25 KB: the stalled socket fills after a few
        post(pagerd, f"/v1/sessions/{sid}/scroll", {"progress": 0.1 + (i % 2) * 0.2})
    prompt.join(timeout=60)
    assert ids == list(range(2, 302))
    assert pagerd.json("GET", "/healthz")[0] == 200
    stalled.close()
    reader.close()


def test_graceful_stop_with_subscribers_ends_streams_and_exits_zero(start_pagerd):
    server = start_pagerd()
    sid = post(server, "/v1/sessions", {"template": "snap"})[2]["id"]
    readers = [EventReader(server.port, sid) for _ in range(5)]
    for reader in readers:
        assert reader.next_event()[1] == "state"
    started = time.monotonic()
    assert server.stop(signal.SIGTERM, timeout=5) == 0
    assert time.monotonic() - started < 5
    for reader in readers:
        assert reader.next_event() is None and reader.ended


def test_subscriber_cap_answers_503_with_retry_after(start_pagerd):
    server = start_pagerd({"PAGERD_MAX_SUBSCRIBERS": "2"})
    sid = post(server, "/v1/sessions", {"template": "mall"})[2]["id"]
    held = [EventReader(server.port, sid) for _ in range(2)]
    for reader in held:
        reader.next_event()
    status, headers, problem = server.json("GET", f"/v1/sessions/{sid}/events")
    assert (status, problem["code"], headers["retry-after"]) == (503, "at_capacity", "5")
    for reader in held:
        reader.close()
