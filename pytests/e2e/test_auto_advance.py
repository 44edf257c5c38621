"""Auto-advance (docs/api.md, «Auto-advance») against the real server: ticks driven by its own clock reach every watcher, the
control endpoint, and a ticking session kept across kill -9 with the SQLite store."""
import signal
import time

from support import wait_until
from test_events import EventReader


def create(server, body):
    status, _, state = server.json("POST", "/v1/sessions", body)
    assert status == 201, state
    return state


def test_the_documented_example_ticks_reach_every_watcher_then_stop(pagerd):
    # The interval leaves the watchers a second to subscribe before the first tick.
    state = create(pagerd, {"template": "media", "autoAdvance": {"enabled": True, "interval": 1000, "atEnd": "stop"}})
    sid = state["id"]
    assert state["autoAdvance"]["running"] is True and state["accessibility"]["liveRegion"] == "off"
    created = time.time() * 1000
    assert abs(state["autoAdvance"]["dueAt"] - (created + 1000)) < 1000
    watchers = [EventReader(pagerd.port, sid), EventReader(pagerd.port, sid)]
    for watcher in watchers:
        assert watcher.next_event()[:2] == (1, "state")
    for watcher in watchers:
        first, second = watcher.next_event(), watcher.next_event()
        assert first[:2] == (2, "pageChanged") and second[:2] == (3, "pageChanged")
        assert first[2]["cause"] == "autoAdvance" and first[2]["index"] == 1
        assert first[2]["moved"] is True and first[2]["direction"] == "forward" and "edge" not in first[2]
        assert second[2]["index"] == 2 and second[2]["edge"] == "end"
        assert second[2]["autoAdvance"]["enabled"] is False and second[2]["autoAdvance"]["running"] is False
        assert "announcement" not in second[2]
    # Halted: nothing more arrives, and the state stays at version 3.
    time.sleep(1.2)
    status, headers, body = pagerd.json("GET", f"/v1/sessions/{sid}")
    assert body["version"] == 3 and headers["etag"] == '"3"'
    for watcher in watchers:
        watcher.close()


def test_rewind_and_control_endpoint(pagerd):
    # The interval leaves the watcher 400 ms to subscribe before the first tick.
    sid = create(pagerd, {"template": "media", "autoAdvance": {"enabled": True, "interval": 400}})["id"]
    watcher = EventReader(pagerd.port, sid)
    watcher.next_event()
    events = [watcher.next_event() for _ in range(3)]
    assert [e[2]["index"] for e in events] == [1, 2, 0]
    rewind = events[2][2]
    assert rewind["direction"] == "reverse" and [k["index"] for k in rewind["keyframes"]] == [0]
    status, _, paused = pagerd.json("POST", f"/v1/sessions/{sid}/autoAdvance", {"action": "pause"})
    assert status == 200 and paused["autoAdvance"]["pausedBy"] == "control"
    assert 0 <= paused["autoAdvance"]["remaining"] <= 400 and paused["autoAdvance"]["dueAt"] is None
    assert paused["accessibility"]["liveRegion"] == "polite"
    control_event = None
    while control_event is None or control_event[0] < paused["version"]:
        control_event = watcher.next_event()
    assert control_event[1] == "autoAdvanceChanged" and control_event[2]["cause"] == "request"
    time.sleep(0.8)
    assert pagerd.json("GET", f"/v1/sessions/{sid}")[2]["version"] == paused["version"]
    status, _, problem = pagerd.json("POST", f"/v1/sessions/{sid}/autoAdvance", {"action": "faster"})
    assert status == 400 and problem["field"] == "action"
    status, _, resumed = pagerd.json("POST", f"/v1/sessions/{sid}/autoAdvance", {"action": "resume"})
    assert status == 200 and resumed["autoAdvance"]["paused"] is False and resumed["autoAdvance"]["dueAt"] is not None
    tick = watcher.next_event()
    while tick[2]["cause"] != "autoAdvance":
        tick = watcher.next_event()
    assert tick[1] == "pageChanged"
    watcher.close()


def test_a_ticking_session_survives_kill_9_with_its_timer(start_pagerd, tmp_path):
    env = {"PAGERD_STORAGE": "sqlite", "PAGERD_DATA_PATH": str(tmp_path / "pagerd.db")}
    server = start_pagerd(env)
    ticking = create(server, {"template": "media", "autoAdvance": {"enabled": True, "interval": 300}})["id"]
    paused = create(server, {"template": "media", "autoAdvance": {"enabled": True, "interval": 60000}})["id"]
    status, _, held = server.json("POST", f"/v1/sessions/{paused}/autoAdvance", {"action": "pause"})
    assert status == 200
    # Ticks are read once committed: two of them, however slow the disk.
    before = wait_until("two ticks committed", lambda state: state["version"] >= 3, 10, 0.05,
                        observe=lambda: server.json("GET", f"/v1/sessions/{ticking}")[2])
    server.stop(signal.SIGKILL)
    server = start_pagerd(env)
    # The paused timer comes back exactly as acknowledged.
    assert server.json("GET", f"/v1/sessions/{paused}")[2]["autoAdvance"] == held["autoAdvance"]
    # The ticking one comes back at least at the version read, and goes on ticking.
    after = server.json("GET", f"/v1/sessions/{ticking}")[2]
    assert after["version"] >= before["version"] and after["autoAdvance"]["running"] is True
    wait_until("a tick after the restart", lambda state: state["version"] > after["version"], 10, 0.05,
               observe=lambda: server.json("GET", f"/v1/sessions/{ticking}")[2])
