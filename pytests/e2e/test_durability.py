"""Durable sessions: pagerd with PAGERD_STORAGE=sqlite, stopped or killed and started again.

The guarantee under test: a 2xx answer to a change means the change is on disk. After kill -9 and
a restart on the same PAGERD_DATA_PATH, every session is back with its last acknowledged version
and state, and versions go on from there. A change the store could not write (a file-size limit
standing in for a full disk) is answered 503 and is not half-made. One process per data file.

Every test uses its own data files under tmp_path. Waits are bounded and poll for a condition;
the plain sleeps (the idle TTL test, the pacing in the full-disk test) only let time pass.
"""
import json
import os
import resource
import signal
import sqlite3
import subprocess
import threading
import time

import pytest

from rawhttp import Connection, EventStream
from support import BINARY, ROOT, wait_until

MALL_PAGES = ["product", "recent", "wishlist"]  # the `mall` template: three pages, loop mode


def sqlite_env(path, **extra):
    return {"PAGERD_STORAGE": "sqlite", "PAGERD_DATA_PATH": str(path), **extra}


def run_refused(extra_env, timeout=15):
    """Runs pagerd that is expected to refuse to start: the CompletedProcess (stderr as text)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGERD_")}
    env.update({"PAGERD_HOST": "127.0.0.1", "PAGERD_PORT": "0", **extra_env})
    try:
        return subprocess.run([BINARY], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as error:  # run() has killed it
        pytest.fail(f"pagerd started instead of refusing: {error.stderr}")


def create(server, template="mall", **settings):
    status, headers, state = server.json("POST", "/v1/sessions", {"template": template, **settings})
    assert status == 201, state
    assert (state["version"], headers["etag"]) == (1, '"1"')
    return state


def mutate(server, sid, command, body=None):
    """A change that must succeed: its state, whose ETag must be its version."""
    status, headers, state = server.json("POST", f"/v1/sessions/{sid}/{command}", body)
    assert status == 200, state
    assert headers["etag"] == f'"{state["version"]}"'
    return state


def read(server, sid):
    status, headers, state = server.json("GET", f"/v1/sessions/{sid}")
    assert status == 200, state
    assert headers["etag"] == f'"{state["version"]}"'
    return state


def assert_gone(server, sid):
    status, _, problem = server.json("GET", f"/v1/sessions/{sid}")
    assert (status, problem["code"]) == (404, "session_not_found")


def assert_same_state(state, acknowledged):
    """`state` (a read or an event) is what `acknowledged` (a change's answer) showed; a change's
    answer also carries the command's outcome (`moved`, `edge`), which a read does not, and an
    event carries its `cause`, which neither does."""
    state = {key: value for key, value in state.items() if key != "cause"}
    assert set(state) <= set(acknowledged), set(state) - set(acknowledged)
    assert state == {key: acknowledged[key] for key in state}


def pages(server, sid):
    """The session's pages with their content and stacks (`GET /v1/sessions/{id}/pages`)."""
    status, headers, body = server.json("GET", f"/v1/sessions/{sid}/pages")
    assert status == 200, body
    return headers["etag"], body["pages"]


def tab_ids(state):
    return [tab["id"] for tab in state["tabs"]]


# Restarts ─────────────────────────────────────────────────────────────────────────────────────


def test_kill_9_keeps_every_acknowledged_change(start_pagerd, tmp_path):
    path = tmp_path / "sessions" / "pagerd.db"  # the folder does not exist yet: pagerd creates it
    server = start_pagerd(sqlite_env(path))
    acknowledged = {}

    fresh = create(server)
    acknowledged[fresh["id"]] = fresh

    moved = create(server)["id"]
    for _ in range(4):
        acknowledged[moved] = mutate(server, moved, "next")
    assert (acknowledged[moved]["version"], acknowledged[moved]["index"]) == (5, 1)  # 1, 2, 0, 1

    edited = create(server)["id"]
    mutate(server, edited, "pages", {"page": {"id": "zz", "title": "Zed", "content": {"note": "zed ✓"}}, "at": 0})
    mutate(server, edited, "pages/product/stack", {"screen": {"id": "detail", "title": "Detail"}})
    acknowledged[edited] = mutate(server, edited, "select", {"page": "wishlist"})
    assert tab_ids(acknowledged[edited]) == ["zz", *MALL_PAGES]
    assert (acknowledged[edited]["version"], acknowledged[edited]["index"]) == (4, 3)

    scrolling = create(server, "media")["id"]
    mutate(server, scrolling, "next")
    acknowledged[scrolling] = mutate(server, scrolling, "scroll", {"progress": 0.25})
    assert acknowledged[scrolling]["transition"] == {"from": 1, "to": 2, "progress": 0.25, "direction": "forward"}

    deleted = create(server)["id"]
    mutate(server, deleted, "next")
    assert server.request("DELETE", f"/v1/sessions/{deleted}")[0] == 204

    documents = {sid: pages(server, sid) for sid in acknowledged}
    assert documents[edited] == ('"4"', [
        {"id": "zz", "title": "Zed", "content": {"note": "zed ✓"}, "stack": []},
        {"id": "product", "title": "상품", "content": {"emoji": "🛍️", "color": "#FF7675"},
         "stack": [{"id": "detail", "title": "Detail"}]},
        {"id": "recent", "title": "최근 본 상품", "content": {"emoji": "🕘", "color": "#74B9FF"}, "stack": []},
        {"id": "wishlist", "title": "찜", "content": {"emoji": "💖", "color": "#FD79A8"}, "stack": []}])

    assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    server = start_pagerd(sqlite_env(path))
    for sid, state in acknowledged.items():
        assert_same_state(read(server, sid), state)
        assert pages(server, sid) == documents[sid]
    assert_gone(server, deleted)

    # Versions go on from the last acknowledged one.
    for sid, state in acknowledged.items():
        if sid != scrolling:
            assert mutate(server, sid, "next")["version"] == state["version"] + 1
    assert read(server, moved)["index"] == 2
    finished = mutate(server, scrolling, "transition", {"phase": "end", "completed": True})
    assert (finished["version"], finished["index"], finished["transition"]) == (4, 2, None)


def test_graceful_restart_keeps_everything_and_kill_9_after_it_too(start_pagerd, tmp_path):
    path = tmp_path / "pagerd.db"
    server = start_pagerd(sqlite_env(path))
    moved = create(server)["id"]
    mutate(server, moved, "next")
    moved_state = mutate(server, moved, "next")
    inserted = create(server)["id"]
    inserted_state = mutate(server, inserted, "pages", {"page": {"id": "zz", "title": "Zed"}})
    deleted = create(server)["id"]
    mutate(server, deleted, "next")
    assert server.request("DELETE", f"/v1/sessions/{deleted}")[0] == 204
    assert_gone(server, deleted)

    assert server.stop(signal.SIGTERM) == 0
    server = start_pagerd(sqlite_env(path))
    assert_same_state(read(server, moved), moved_state)
    assert (moved_state["version"], moved_state["index"]) == (3, 2)
    state = read(server, inserted)
    assert_same_state(state, inserted_state)
    assert (state["version"], state["pageCount"], state["tabs"][3]) == (
        2, 4, {"index": 3, "id": "zz", "title": "Zed", "x": 292.5, "width": 97.5, "selection": 0, "selected": False,
               "icon": None, "badge": None,
               "accessibility": {"label": "Zed", "hint": None, "value": "Tab 4 of 4", "selected": False,
                                 "traits": ["button"], "actions": ["activate"]}})
    assert_gone(server, deleted)

    # Changes on top of what the graceful stop wrote, then kill -9.
    moved_state = mutate(server, moved, "next")
    assert (moved_state["version"], moved_state["index"]) == (4, 0)
    inserted_state = mutate(server, inserted, "pages", {"page": {"id": "yy", "title": "Why"}, "at": 0})
    assert (inserted_state["version"], tab_ids(inserted_state)) == (3, ["yy", *MALL_PAGES, "zz"])
    assert server.request("DELETE", f"/v1/sessions/{moved}")[0] == 204
    recreated = create(server)

    assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    server = start_pagerd(sqlite_env(path))
    assert_gone(server, moved)
    assert_gone(server, deleted)
    assert_same_state(read(server, inserted), inserted_state)
    assert_same_state(read(server, recreated["id"]), recreated)


def test_built_in_default_storage_is_memory_and_a_restart_loses_sessions(start_pagerd, tmp_path):
    # A configuration file that names no storage, and no PAGERD_STORAGE: the built-in default.
    config = tmp_path / "pagerd.json"
    config.write_text("{}")
    defaults = {"PAGERD_STORAGE": None, "PAGERD_CONFIG": str(config)}
    server = start_pagerd(defaults)
    sid = create(server)["id"]
    assert mutate(server, sid, "next")["version"] == 2
    assert server.stop(signal.SIGTERM) == 0
    server = start_pagerd(defaults)
    assert_gone(server, sid)
    assert list(tmp_path.iterdir()) == [config]  # no data file was made


def test_sessions_idle_past_the_ttl_are_not_revived(start_pagerd, tmp_path):
    """Three files, three sessions created together and restarted 3 s later: one left idle with a
    2 s TTL (gone), one only read meanwhile with a 2 s TTL (kept: reads count as use, and the file
    records it), one left idle with a 1 h TTL (kept)."""
    idle_path, read_path, control_path = tmp_path / "idle.db", tmp_path / "read.db", tmp_path / "control.db"
    idle = start_pagerd(sqlite_env(idle_path, PAGERD_IDLE_TTL="2"))
    reader = start_pagerd(sqlite_env(read_path, PAGERD_IDLE_TTL="2"))
    control = start_pagerd(sqlite_env(control_path, PAGERD_IDLE_TTL="3600"))
    expired_id = create(idle)["id"]
    mutate(idle, expired_id, "next")
    kept = create(control)["id"]
    kept_state = mutate(control, kept, "next")
    read_id = create(reader)["id"]  # last: the reads below must begin within its TTL
    last_use = time.time()
    assert idle.stop(signal.SIGTERM) == 0
    assert control.stop(signal.SIGKILL) == -signal.SIGKILL

    while time.time() < last_use + 2.5:
        assert read(reader, read_id)["version"] == 1
        time.sleep(0.1)
    assert reader.stop(signal.SIGTERM) == 0
    time.sleep(max(0.0, last_use + 3.0 - time.time()))  # 3 s since the sessions were created

    # The read session first: its last recorded use (at most every TTL/8) is under a second old here.
    reader = start_pagerd(sqlite_env(read_path, PAGERD_IDLE_TTL="2"))
    assert read(reader, read_id)["version"] == 1
    idle = start_pagerd(sqlite_env(idle_path, PAGERD_IDLE_TTL="2"))
    assert_gone(idle, expired_id)
    control = start_pagerd(sqlite_env(control_path, PAGERD_IDLE_TTL="3600"))
    assert_same_state(read(control, kept), kept_state)
    assert mutate(control, kept, "next")["version"] == 3

    # The expired session was dropped from the file: a longer TTL later does not bring it back.
    assert idle.stop(signal.SIGTERM) == 0
    idle = start_pagerd(sqlite_env(idle_path, PAGERD_IDLE_TTL="3600"))
    assert_gone(idle, expired_id)


def test_events_after_a_restart_resume_from_last_event_id(start_pagerd, tmp_path):
    path = tmp_path / "pagerd.db"
    server = start_pagerd(sqlite_env(path))
    sid = create(server)["id"]
    for _ in range(3):
        mutate(server, sid, "next")
    assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    server = start_pagerd(sqlite_env(path))
    current = read(server, sid)
    assert (current["version"], current["index"]) == (4, 0)

    behind = EventStream(server.port, sid, last_event_id=2)
    assert (behind.status, behind.headers["content-type"]) == (200, "text/event-stream; charset=utf-8")
    assert behind.next_block() == "retry: 2000"
    assert behind.next_event() == (4, "state", current)
    behind.close()

    up_to_date = EventStream(server.port, sid, last_event_id=4)
    assert up_to_date.status == 200 and up_to_date.next_block() == "retry: 2000"
    moved = mutate(server, sid, "next")
    event = up_to_date.next_event()  # the change, with no `state` event before it
    assert event[:2] == (5, "pageChanged")
    assert_same_state(event[2], moved)
    up_to_date.close()


def test_an_untouched_swipe_is_given_up_at_its_kept_deadline_across_kill_9(start_pagerd, tmp_path):
    """`dragTimeout` (docs/api.md, «Release by velocity»): a swipe nobody touches is cancelled, as `end {"completed": false}`
    would, in one change (`version` + 1) published as a `transition` event with `cause: timeout`,
    at the time of the change that set it plus `dragTimeout`. The deadline is kept with the
    session: (a) a restart before it keeps the swipe in flight until it, not `dragTimeout` after
    the restart; (b) after a restart past it, the first read shows the swipe given up."""
    path = tmp_path / "pagerd.db"
    server = start_pagerd(sqlite_env(path))
    at_rest = create(server, dragTimeout=2000)
    sid = at_rest["id"]
    assert (at_rest["index"], at_rest["pageOffset"], at_rest["transition"]) == (0, 0, None)

    def swipe():
        """Scrolls to 0.4 of the way to the next page: (the answer, the earliest and the latest
        moment, on the monotonic clock, at which the server can have set the deadline)."""
        sent = time.monotonic()
        state = mutate(server, sid, "scroll", {"progress": 0.4})
        answered = time.monotonic()
        assert state["transition"] == {"from": 0, "to": 1, "progress": 0.4, "direction": "forward"}
        assert (state["index"], state["pageOffset"]) == (0, 156)  # 0.4 of the 390-point viewport
        return state, sent + 2.0, answered + 2.0

    def given_up(state, version):
        """The swipe cancelled: back at rest on page 0, as at creation, at `version`."""
        assert state["version"] == version
        assert (state["transition"], state["overscroll"], state["index"], state["pageOffset"]) == (None, None, 0, 0)
        assert state["visible"] == [{"index": 0, "id": "product", "fraction": 1}]
        assert_same_state({**state, "version": 1}, at_rest)

    # (a) Killed mid-swipe and started again about a second before the deadline.
    swiping, earliest, latest = swipe()
    assert swiping["version"] == 2
    assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    time.sleep(max(0.0, earliest - 1.3 - time.monotonic()))  # restarted 0.7 s after the scroll
    server = start_pagerd(sqlite_env(path))
    assert_same_state(read(server, sid), swiping)  # still in flight at 0.4, version 2
    assert server.json("GET", f"/v1/sessions/{sid}/settings")[2]["dragTimeout"] == 2000
    stream = EventStream(server.port, sid)
    assert stream.next_event() == (2, "state", read(server, sid))
    assert time.monotonic() < earliest, "the restart took too long to see the swipe before its deadline"
    cancelled = wait_until("the swipe given up at its deadline", lambda state: state["version"] != 2, 2.0 + latest - time.monotonic(),
                           0.02, observe=lambda: read(server, sid))
    seen = time.monotonic()
    given_up(cancelled, 3)
    # Not early, and at the deadline the scroll set, not `dragTimeout` after the restart (which
    # is at least 0.7 s later).
    assert earliest - 0.05 <= seen <= latest + 0.4, (seen - earliest, latest - earliest)
    version, kind, event = stream.next_event()
    stream.close()
    assert (version, kind, event["cause"]) == (3, "transition", "timeout")
    assert_same_state(event, cancelled)

    # (b) Killed mid-swipe again and started after the deadline passed while no process ran.
    swiping, _, latest = swipe()
    assert swiping["version"] == 4
    assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    time.sleep(max(0.0, latest + 0.3 - time.monotonic()))  # nothing to poll: only time passes
    server = start_pagerd(sqlite_env(path))
    given_up(read(server, sid), 5)  # the first read: one change, the cancel
    assert mutate(server, sid, "next")["version"] == 6
    assert read(server, sid)["index"] == 1


# One process per file, and files that are not pagerd's ────────────────────────────────────────


def test_a_second_process_on_the_same_file_exits_2(start_pagerd, tmp_path):
    path = tmp_path / "pagerd.db"
    first = start_pagerd(sqlite_env(path))
    sid = create(first)["id"]

    refused = run_refused(sqlite_env(path))
    assert refused.returncode == 2, refused.stderr
    assert str(path) in refused.stderr and "in use" in refused.stderr, refused.stderr

    # The first process is unharmed and still the file's owner.
    assert mutate(first, sid, "next")["version"] == 2
    assert first.stop(signal.SIGTERM) == 0
    second = start_pagerd(sqlite_env(path))
    assert read(second, sid)["version"] == 2


def test_a_file_that_is_not_a_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "pagerd.db"
    path.write_bytes(b"not a database\n" * 100)
    refused = run_refused(sqlite_env(path))
    assert refused.returncode == 2, refused.stderr
    assert f"{path} is not a SQLite database" in refused.stderr, refused.stderr
    assert path.read_bytes() == b"not a database\n" * 100
    assert not (tmp_path / "pagerd.db-wal").exists() and not (tmp_path / "pagerd.db-journal").exists()


def test_another_applications_sqlite_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE notes(body TEXT)")
        other.execute("INSERT INTO notes VALUES ('keep me')")
    other.close()
    before = path.read_bytes()
    refused = run_refused(sqlite_env(path))
    assert refused.returncode == 2, refused.stderr
    assert f"{path} is a SQLite database of another application" in refused.stderr, refused.stderr
    assert path.read_bytes() == before
    with sqlite3.connect(path) as other:
        assert other.execute("SELECT body FROM notes").fetchall() == [("keep me",)]
    other.close()


# A full disk ──────────────────────────────────────────────────────────────────────────────────


def session_count(server):
    metrics = server.request("GET", "/metrics")[2].decode()
    return int(float(next(line for line in metrics.splitlines() if line.startswith("pagerd_sessions ")).split()[1]))


def storage_metrics(server):
    metrics = server.request("GET", "/metrics")[2].decode()
    return {line.split()[0]: int(float(line.split()[1])) for line in metrics.splitlines()
            if line.startswith("pagerd_storage_")}


def test_metrics_count_commits_only_with_a_store(start_pagerd, tmp_path):
    server = start_pagerd(sqlite_env(tmp_path / "pagerd.db"))
    sid = create(server)["id"]
    for _ in range(3):
        mutate(server, sid, "next")
    storage = storage_metrics(server)
    assert storage["pagerd_storage_committed_changes"] == 4 and storage["pagerd_storage_failed_commits"] == 0
    assert 1 <= storage["pagerd_storage_commits"] <= 4
    assert storage_metrics(start_pagerd()) == {}


def collect_events(stream, into):
    """Reads events into `into` until the stream ends (the server is stopped)."""
    try:
        while (event := stream.next_event()) is not None:
            into.append(event)
    except OSError:
        pass


def assert_not_ready(server):
    status, headers, problem = server.json("GET", "/readyz")
    assert (status, headers["retry-after"], problem["code"]) == (503, "1", "not_ready"), problem


def test_a_full_disk_answers_503_makes_nothing_half_and_recovers(start_pagerd, tmp_path):
    if not hasattr(resource, "prlimit"):
        pytest.skip("resource.prlimit (Linux) is needed to limit the server's file size")
    path = tmp_path / "pagerd.db"
    server = start_pagerd(sqlite_env(path))
    pid = server.proc.pid
    sid = create(server)["id"]
    doomed = create(server)["id"]
    doomed_still_there = True
    acked = mutate(server, sid, "next")
    versions = [acked["version"]]  # every version acknowledged from here on, in order
    stream = EventStream(server.port, sid)
    assert stream.next_event() == (2, "state", read(server, sid))
    seen = []
    reader = threading.Thread(target=collect_events, args=(stream, seen), daemon=True)
    reader.start()

    # The server ignores SIGXFSZ: past RLIMIT_FSIZE a write fails with EFBIG, as on a full disk.
    # Only the soft limit is lowered, so that it can be raised again without privileges.
    soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    limit = max(f.stat().st_size for f in tmp_path.iterdir()) + 64 * 1024
    if hard != resource.RLIM_INFINITY and hard < limit:
        pytest.skip(f"the hard file-size limit ({hard} bytes) is below {limit}")
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (limit, hard))
    try:
        refused = None
        for i in range(100):
            page = {"id": f"big{i}", "title": f"Big {i}", "content": {"blob": "x" * 8000}}
            status, headers, body = server.json("POST", f"/v1/sessions/{sid}/pages", {"page": page})
            if status != 200:
                refused = (page["id"], status, headers, body)
                break
            assert body["version"] == acked["version"] + 1
            acked = body
            versions.append(acked["version"])
        assert refused is not None, "100 pages of 8 KB each fit under a 64 KiB file-size limit"
        page_id, status, headers, problem = refused
        assert (status, headers["content-type"], headers["retry-after"]) == (
            503, "application/problem+json; charset=utf-8", "1")
        assert (problem["status"], problem["code"]) == (503, "storage_unavailable")
        assert_not_ready(server)

        state = read(server, sid)
        assert_same_state(state, acked)
        assert page_id not in tab_ids(state) and state["pageCount"] == acked["pageCount"]

        # While the limit holds, every change is either refused (503) or made, and a read agrees.
        # The pacing spans the store's retry delay, so that both answers can come.
        for _ in range(20):
            status, headers, body = server.json("POST", f"/v1/sessions/{sid}/next")
            if status == 200:
                assert body["version"] == acked["version"] + 1
                acked = body
                versions.append(acked["version"])
            else:
                assert (status, body["code"]) == (503, "storage_unavailable"), body
            assert_same_state(read(server, sid), acked)
            time.sleep(0.05)

        # A creation or a deletion refused leaves no trace either.
        status, _, created = server.json("POST", "/v1/sessions", {"template": "mall"})
        assert status in (201, 503), created
        sessions = 3 if status == 201 else 2
        created = created["id"] if status == 201 else None
        status, _, body = server.json("DELETE", f"/v1/sessions/{doomed}")
        if status == 204:
            assert_gone(server, doomed)
            sessions -= 1
            doomed_still_there = False
        else:
            assert (status, body["code"]) == (503, "storage_unavailable"), body
            assert read(server, doomed)["version"] == 1
        assert session_count(server) == sessions
    finally:
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (soft, hard))

    # Room again: the store takes changes after its retry delay.
    def next_answer():
        status, _, body = server.json("POST", f"/v1/sessions/{sid}/next")
        assert status == 200 or (status, body["code"]) == (503, "storage_unavailable"), body
        return status, body

    _, body = wait_until("a change taken with room again", lambda answer: answer[0] == 200, 5, observe=next_answer)
    assert (body["version"], body["index"]) == (acked["version"] + 1, (acked["index"] + 1) % acked["pageCount"])
    acked = body
    versions.append(acked["version"])
    assert server.json("GET", "/readyz")[0] == 200
    acked = mutate(server, sid, "pages", {"page": {"id": "after", "title": "After", "content": {"blob": "y" * 8000}}})
    assert (acked["pageCount"], tab_ids(acked)[-1]) == (body["pageCount"] + 1, "after")
    versions.append(acked["version"])
    if doomed_still_there:
        assert server.request("DELETE", f"/v1/sessions/{doomed}")[0] == 204
    # /metrics counts the failed commits next to the good ones.
    storage = storage_metrics(server)
    assert storage["pagerd_storage_failed_commits"] >= 1 and storage["pagerd_storage_commits"] >= 3

    # The subscriber saw each acknowledged change once, in order, and no refused one.
    wait_until(f"the {len(versions) - 1} acknowledged changes streamed (events seen)", lambda n: n >= len(versions) - 1,
               10, 0.01, observe=lambda: len(seen))
    assert server.stop(signal.SIGKILL) == -signal.SIGKILL  # ends the stream
    reader.join(timeout=10)
    stream.close()
    assert [event[0] for event in seen] == versions[1:] == list(range(3, acked["version"] + 1))
    assert_same_state(seen[-1][2], acked)

    server = start_pagerd(sqlite_env(path))
    assert_same_state(read(server, sid), acked)
    assert_gone(server, doomed)
    if created:
        assert read(server, created)["version"] == 1
    assert session_count(server) == (2 if created else 1)


# What a change costs the disk; deletions on a full disk ─────────────────────────────────────────

CHECKPOINT = 256 * 1024  # PAGERD_SQLITE_CHECKPOINT_BYTES in these tests
RESERVE = 2 * CHECKPOINT + 4 * 1024 * 1024  # the disk the store keeps free with it


def wide_page(i, fill="x"):
    return {"id": f"p{i}", "title": f"P{i}", "content": {"blob": fill * 15000}}


def wide_session(server, pages=100):
    """A session of `pages` pages of 15 KB content each (1.5 MB for 100)."""
    status, _, state = server.json("POST", "/v1/sessions", {"pages": [wide_page(0)]})
    assert status == 201, state
    for i in range(1, pages):
        mutate(server, state["id"], "pages", {"page": wide_page(i)})
    return state["id"]


def file_sizes(path):
    return [os.path.getsize(p) for p in (path, f"{path}-wal") if os.path.exists(p)]


def live_bytes(path):
    """The bytes of the tables' documents and positions (everything but the journal)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        parts = db.execute("SELECT coalesce(sum(length(body) + length(key) + length(session)), 0) FROM parts")
        rows = db.execute("SELECT coalesce(sum(length(position) + length(id) + 16), 0) FROM sessions")
        total = parts.fetchone()[0] + rows.fetchone()[0]
    db.close()
    return total


def limit_file_size(pid, limit):
    """Lowers the soft RLIMIT_FSIZE of process `pid` (the server ignores SIGXFSZ: a write past it
    fails with EFBIG, as on a full disk); skips the test where that is not possible."""
    if not hasattr(resource, "prlimit"):
        pytest.skip("resource.prlimit (Linux) is needed to limit the server's file size")
    _, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    if hard != resource.RLIM_INFINITY and hard < limit:
        pytest.skip(f"the hard file-size limit ({hard} bytes) is below {limit}")
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (limit, hard))


def test_a_title_change_costs_about_its_size_and_folds_give_the_space_back(start_pagerd, tmp_path):
    """300 title PATCHes on a session of 1.5 MB fit in a few MB of file-size limit (schema 1 wrote
    the whole document for each); after the fold at stop the file is within twice the live data."""
    path = tmp_path / "pagerd.db"
    env = sqlite_env(path, PAGERD_SQLITE_CHECKPOINT_BYTES=str(CHECKPOINT))
    server = start_pagerd(env)
    sid = wide_session(server)
    limit_file_size(server.proc.pid, max(file_sizes(path)) + RESERVE + 2 * 1024 * 1024)
    titles = {}
    for n in range(300):
        page, title = f"p{n % 100}", f"title number {n:07d}"  # 20 bytes
        status, _, body = server.json("PATCH", f"/v1/sessions/{sid}/pages/{page}", {"title": title})
        assert status == 200, (n, body)
        titles[page] = title
    assert server.json("GET", "/readyz")[0] == 200
    assert server.stop(signal.SIGTERM) == 0
    live = live_bytes(path)
    assert live > 1_500_000
    assert sum(file_sizes(path)) <= 2 * live, (file_sizes(path), live)

    server = start_pagerd(env)
    _, listed = pages(server, sid)
    assert [(page["id"], page["title"]) for page in listed] == [(f"p{i}", titles[f"p{i}"]) for i in range(100)]
    assert all(page["content"] == {"blob": "x" * 15000} for page in listed)


def test_a_full_disk_refuses_growth_but_never_a_delete_which_gives_the_space_back(start_pagerd, tmp_path):
    path = tmp_path / "pagerd.db"
    env = sqlite_env(path, PAGERD_SQLITE_CHECKPOINT_BYTES=str(CHECKPOINT))
    server = start_pagerd(env)
    wide = wide_session(server)
    small = create(server)["id"]
    limit = max(file_sizes(path)) + RESERVE + 1024 * 1024
    limit_file_size(server.proc.pid, limit)

    # Pages of 8 KB until the store refuses: it keeps its reserve, so that is well before the limit.
    refused = None
    for i in range(1000):
        status, _, body = server.json(
            "POST", f"/v1/sessions/{small}/pages", {"page": {"id": f"big{i}", "title": "Big", "content": {"blob": "z" * 8000}}})
        if status != 200:
            refused = (i, status, body)
            break
    assert refused is not None, "1,000 pages of 8 KB fit in 1 MiB beyond the reserve"
    count, status, problem = refused
    assert count > 10 and (status, problem["code"]) == (503, "storage_unavailable"), refused
    # The page may have been refused before the disk was short of the reserve (a change that would
    # cross it is refused first); then small changes, each of which takes whole WAL pages, bring
    # the store short of it.
    shortage = "bytes of disk are left, less than"
    deadline = time.monotonic() + 30
    for n in range(10_000):
        if any(shortage in line for line in server.log):
            break
        assert time.monotonic() < deadline, "the store never got short of space"
        if server.json("POST", f"/v1/sessions/{small}/{('next', 'previous')[n % 2]}")[0] != 200:
            time.sleep(0.3)  # a refused change pauses the store for 0.25 s
    assert max(file_sizes(path)) < limit - RESERVE // 2
    assert_not_ready(server)
    assert read(server, small)["pageCount"] == 3 + count
    for _ in range(3):
        status, _, problem = server.json("POST", f"/v1/sessions/{small}/next")
        assert (status, problem["code"]) == (503, "storage_unavailable")
    storage = storage_metrics(server)
    assert storage["pagerd_storage_failed_commits"] >= 1

    # The deletion goes through at once, is folded, and its 1.5 MB go back to the file system.
    before = os.path.getsize(path)
    status, _, _ = server.request("DELETE", f"/v1/sessions/{wide}")
    assert status == 204
    assert_gone(server, wide)
    wait_until("/readyz answering 200 after the deletion", lambda status: status == 200, 10,
               observe=lambda: server.json("GET", "/readyz")[0])
    # Readiness can come back a moment before the database file has shrunk (seen once in a
    # fresh-clone run), so the shrinking is waited for, within a bound.
    wait_until("the deletion's 1.5 MB given back to the file system", lambda size: size < before - 1_000_000, 10,
               observe=lambda: os.path.getsize(path))
    state = mutate(server, small, "pages", {"page": {"id": "after", "title": "After", "content": {"blob": "y" * 8000}}})
    assert state["pageCount"] == 3 + count + 1
    assert any("bytes of disk are left again; changes are taken" in line for line in server.log)

    # A stop folds under the limit, and a restart under it takes changes.
    assert server.stop(signal.SIGTERM) == 0
    server = start_pagerd(env)
    limit_file_size(server.proc.pid, limit)
    assert mutate(server, small, "next")["version"] == state["version"] + 1
    assert_gone(server, wide)


def test_a_full_file_system_refuses_growth_and_a_delete_gives_room_back(start_pagerd, tmp_path):
    """The same on a real file system that fills up (a 12 MiB tmpfs): the room is its free space."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a small tmpfs needs root (and a container that allows it)")
    server = None
    try:
        env = sqlite_env(mount / "pagerd.db", PAGERD_SQLITE_CHECKPOINT_BYTES="65536")  # keeps 4.125 MiB free
        server = start_pagerd(env)
        wide = wide_session(server)
        small = create(server)["id"]
        for i in range(2000):
            status, _, problem = server.json(
                "POST", f"/v1/sessions/{small}/pages", {"page": {"id": f"b{i}", "title": "B", "content": {"x": "z" * 8000}}})
            if status != 200:
                break
        assert (status, problem["code"]) == (503, "storage_unavailable")
        free = os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize
        assert 2 * 1024 * 1024 < free < 4325376, free
        assert_not_ready(server)
        assert server.request("DELETE", f"/v1/sessions/{wide}")[0] == 204
        # The delete commits first (ready again); the writer's fold after it gives the pages back.
        def room():
            return os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize

        wait_until(f"/readyz answering 200 and over {free + 1_000_000} bytes free (/readyz, bytes free)",
                   lambda seen: seen[0] == 200 and seen[1] > free + 1_000_000, 10,
                   observe=lambda: (server.json("GET", "/readyz")[0], room()))
        assert mutate(server, small, "next")["index"] == 1
        assert server.stop(signal.SIGTERM) == 0
    finally:
        if server is not None:
            server.stop(signal.SIGKILL)  # a no-op once stopped; the file system must be let go first
        subprocess.run(["umount", str(mount)], check=True, capture_output=True)


# Damaged files and failing folds ──────────────────────────────────────────────────────────────


def test_a_damaged_index_is_refused_at_start_naming_the_file_and_left_alone(start_pagerd, tmp_path):
    path = tmp_path / "pagerd.db"
    server = start_pagerd(sqlite_env(path))
    for _ in range(5):
        create(server)
    assert server.stop(signal.SIGTERM) == 0
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_sessions_1'").fetchone()
        (page_size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    with open(path, "r+b") as file:  # the index's root page, overwritten with garbage
        file.seek((root - 1) * page_size)
        file.write(b"\xa5" * 512)
    before = path.read_bytes()
    refused = run_refused(sqlite_env(path))
    assert refused.returncode == 2, refused.stderr
    assert f"{path} is damaged (PRAGMA quick_check: " in refused.stderr, refused.stderr
    assert "restore a backup" in refused.stderr
    assert path.read_bytes() == before


def test_an_empty_data_file_starts_with_no_sessions_and_a_warning(start_pagerd, tmp_path):
    path = tmp_path / "pagerd.db"
    path.write_bytes(b"")
    server = start_pagerd(sqlite_env(path))
    sid = create(server)["id"]
    warning = f"{path} is an empty file (0 bytes): pagerd takes it as a new database and starts with no sessions"
    assert any(warning in line for line in server.log), server.log
    assert server.stop(signal.SIGTERM) == 0
    server = start_pagerd(sqlite_env(path))
    assert read(server, sid)["version"] == 1
    assert not any("empty file" in line for line in server.log)


FOLD_FAILED = "folding the journal into the tables failed"


def test_a_file_damaged_while_serving_is_found_by_the_first_failed_fold_and_never_written_again(start_pagerd, tmp_path):
    path = tmp_path / "pagerd.db"
    server = start_pagerd(sqlite_env(path, PAGERD_SQLITE_CHECKPOINT_BYTES="65536"))
    sid = create(server)["id"]
    # Another process damages the file: the index of the parts table is pointed at the journal's
    # pages, as a broken disk or a stray write could. Commits (to the journal) still work; a fold
    # (which writes the parts) fails, and the check it runs then finds the damage.
    with sqlite3.connect(path, timeout=10) as db:
        journal = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'journal'").fetchone()[0]
        version = db.execute("PRAGMA schema_version").fetchone()[0]
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET rootpage = ? WHERE name = 'sqlite_autoindex_parts_1'", (journal,))
        db.execute(f"PRAGMA schema_version = {version + 1}")
    db.close()
    refused = None
    for i in range(40):  # 320 KB through the journal: a fold is due after a few commits
        status, _, answer = server.json("POST", f"/v1/sessions/{sid}/pages",
                                        {"page": {"id": f"p{i}", "title": "P", "content": {"blob": "f" * 8000}}})
        if status != 200:
            refused = (status, answer)
            break
    assert refused is not None, "no change was refused"
    assert (refused[0], refused[1].get("code")) == (503, "storage_unavailable"), refused
    assert_not_ready(server)
    damaged = [line for line in server.log if f"{path} is damaged (PRAGMA quick_check: " in line]
    assert len(damaged) == 1 and "refuses every change from now on" in damaged[0], damaged
    # Never tried again: one failed fold however many changes come, reads still served.
    for _ in range(5):
        assert server.json("POST", f"/v1/sessions/{sid}/next")[0] == 503
    assert read(server, sid)["id"] == sid
    assert storage_metrics(server)["pagerd_storage_failed_folds"] == 1
    assert not [line for line in server.log if FOLD_FAILED in line]


def test_a_fold_that_keeps_failing_backs_off_is_counted_and_logged_once_per_try(start_pagerd, tmp_path):
    path = tmp_path / "pagerd.db"
    server = start_pagerd(sqlite_env(path, PAGERD_SQLITE_CHECKPOINT_BYTES="65536"))
    sid = create(server)["id"]
    # Triggers make every fold fail (it writes the sessions table), not the commits (the journal).
    with sqlite3.connect(path, timeout=10) as db:
        for event in ("INSERT", "UPDATE"):
            db.execute(f"CREATE TRIGGER refuse_{event.lower()} BEFORE {event} ON sessions "
                       "BEGIN SELECT RAISE(ABORT, 'sessions refused by the test'); END")
    db.close()
    began = time.monotonic()
    for i in range(150):  # 1.2 MB through the journal in about 3 s: a fold is due after every commit
        mutate(server, sid, "pages", {"page": {"id": f"p{i}", "title": "P", "content": {"blob": "f" * 8000}}})
    elapsed = time.monotonic() - began
    assert server.json("GET", "/readyz")[0] == 200  # commits go on
    failed = storage_metrics(server)["pagerd_storage_failed_folds"]
    # Tries at 0, 1, 3, 7, 15 … s: one more than the doublings that fit.
    assert 1 <= failed <= 2 + int(elapsed).bit_length(), (failed, elapsed)
    time.sleep(0.2)
    logged = [line for line in server.log if FOLD_FAILED in line]
    assert len(logged) == failed, logged
    assert "sessions refused by the test" in logged[0] and "next try in 1.0 s" in logged[0]

    with sqlite3.connect(path, timeout=10) as db:
        db.execute("DROP TRIGGER refuse_insert")
        db.execute("DROP TRIGGER refuse_update")
    db.close()
    def folds():
        count = storage_metrics(server)["pagerd_storage_folds"]
        if count == 0:
            mutate(server, sid, "next")  # a fold is tried after a commit, once its pause is over
        return count

    wait_until("a fold once the triggers are gone", folds, 70, 0.2)
    storage = storage_metrics(server)
    assert storage["pagerd_storage_folds"] >= 1 and storage["pagerd_storage_failed_folds"] == failed
    assert any(f"the journal was folded into the tables after {failed} failed tries" in line for line in server.log)
    state = read(server, sid)
    assert server.stop(signal.SIGTERM) == 0
    server = start_pagerd(sqlite_env(path))
    assert_same_state(read(server, sid), state)
    assert len(pages(server, sid)[1]) == 153


# Kill -9 under load ───────────────────────────────────────────────────────────────────────────


class Driver(threading.Thread):
    """Owns one session and changes it (nine nexts, then a page inserted, …) on one kept-alive
    connection until the connection fails. Keeps the last acknowledged state and the change in
    flight, whose fate is unknown when the server is killed."""

    def __init__(self, port, acknowledged, tag):
        super().__init__(daemon=True)
        self.port, self.acknowledged, self.tag = port, acknowledged, tag
        self.sid = acknowledged["id"]
        self.in_flight = None
        self.acks = 0
        self.errors = []

    def run(self):
        try:
            conn = Connection(self.port, timeout=10)
        except OSError:
            return
        try:
            while True:
                if self.acks % 10 == 9:
                    self.in_flight = ("pages", {"page": {"id": f"{self.tag}-{self.acks}", "title": "T"}})
                else:
                    self.in_flight = ("next", "")
                try:
                    command, body = self.in_flight
                    status, _, data = conn.request("POST", f"/v1/sessions/{self.sid}/{command}", body)
                except (OSError, EOFError):
                    return  # the server is gone
                state = json.loads(data)
                if status != 200 or state["version"] != self.acknowledged["version"] + 1:
                    self.errors.append((self.in_flight, status, state))
                    return
                self.acknowledged, self.in_flight = state, None
                self.acks += 1
        finally:
            conn.close()


def assert_recovered(state, driver):
    """The recovered state is the last acknowledged one, or the one change in flight at the kill
    (committed, its answer lost)."""
    acked = driver.acknowledged
    if state["version"] == acked["version"]:
        assert_same_state(state, acked)
        return
    assert state["version"] == acked["version"] + 1, (state["version"], acked["version"])
    assert driver.in_flight is not None
    command, body = driver.in_flight
    if command == "next":
        assert (state["index"], state["pageCount"]) == ((acked["index"] + 1) % acked["pageCount"], acked["pageCount"])
    else:
        assert (state["index"], state["pageCount"]) == (acked["index"], acked["pageCount"] + 1)
        assert tab_ids(state) == tab_ids(acked) + [body["page"]["id"]]


# (PAGERD_SQLITE_SYNCHRONOUS, changes each driver should see acknowledged before the kill). The
# first cycle makes over 10,000 changes, more than the store journals before it folds the journal
# into its table, so later cycles recover from the table and a journal on top of it. A slow disk
# may cut a cycle short at CYCLE_SECONDS; each driver must still have had MIN_ACKS acknowledged.
CYCLES = [("full", 1300), ("normal", 100), ("full", 100)]
CYCLE_SECONDS = 15
MIN_ACKS = 50


def test_kill_9_under_load_loses_no_acknowledged_change(start_pagerd, tmp_path):
    path = tmp_path / "pagerd.db"
    server = start_pagerd(sqlite_env(path, PAGERD_SQLITE_SYNCHRONOUS=CYCLES[0][0]))
    states = [create(server) for _ in range(8)]
    for cycle, (_, target) in enumerate(CYCLES):
        drivers = [Driver(server.port, state, f"c{cycle}s{i}") for i, state in enumerate(states)]
        for driver in drivers:
            driver.start()
        # The load runs until every driver has `target` changes acknowledged, then pagerd is killed.
        deadline = time.monotonic() + CYCLE_SECONDS
        while (time.monotonic() < deadline and all(d.is_alive() for d in drivers)
               and min(d.acks for d in drivers) < target):
            time.sleep(0.01)
        running = [d.is_alive() for d in drivers]
        assert server.stop(signal.SIGKILL) == -signal.SIGKILL
        for driver in drivers:
            driver.join(timeout=15)
            assert not driver.is_alive()
        assert [d.errors for d in drivers] == [[]] * len(drivers)
        assert running == [True] * len(drivers), "every driver was still sending at the kill"
        assert min(d.acks for d in drivers) >= MIN_ACKS, [d.acks for d in drivers]

        mode = CYCLES[cycle + 1][0] if cycle + 1 < len(CYCLES) else "full"
        server = start_pagerd(sqlite_env(path, PAGERD_SQLITE_SYNCHRONOUS=mode))
        states = []
        for driver in drivers:
            state = read(server, driver.sid)
            assert_recovered(state, driver)
            states.append(state)

    for state in states:  # versions go on from the recovered ones
        assert mutate(server, state["id"], "next")["version"] == state["version"] + 1
