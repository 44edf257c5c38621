"""Several pagerd instances sharing their sessions in PostgreSQL, behind nginx round-robin, as
deploy/compose.yaml runs them: `make test-cluster` (and .ci/run) runs this file beside a
throwaway PostgreSQL cluster (tools/with-postgres.sh).

Three instances on one new database, and nginx configured by deploy/nginx.conf with its upstream
addresses and port replaced. Everything the fixture starts, it stops.
"""
import json
import re
import socket
import signal
import subprocess
import threading
import time
import uuid

import pytest

from access_tokens import AUTH_TOKEN, ENV, bearer, token
from support import Pagerd, cluster_nginx_config, wait_until
from test_events import EventReader
from test_postgres import PASSWORD, SERVER, psql
from test_proxy import NGINX, free_port

pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed")

class Endpoint:
    """A client of any HTTP port, with the request helpers of a `Pagerd`."""
    request = Pagerd.request
    json = Pagerd.json

    def __init__(self, port):
        self.port = port


class Cluster:
    def __init__(self, folder, extra_env=None):
        self.database = f"pagerd_cluster_{uuid.uuid4().hex[:8]}"
        psql(f"CREATE DATABASE {self.database}")
        self.env = {"PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": SERVER.replace("/pagerd?", f"/{self.database}?"),
                    "PAGERD_POSTGRES_PASSWORD": PASSWORD, "PAGERD_MAX_SUBSCRIBERS_PER_ADDRESS": "512", **(extra_env or {})}
        self.instances = [Pagerd(self.env) for _ in range(3)]
        self.port = free_port()
        (folder / "nginx.conf").write_text(cluster_nginx_config(folder, self.port, [i.port for i in self.instances]))
        self.nginx = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.proxy = Endpoint(self.port)

        def healthz():
            assert self.nginx.poll() is None, (folder / "error.log").read_text()[-2000:]
            return self.proxy.request("GET", "/healthz")[0]

        wait_until("nginx answering /healthz with 200", lambda status: status == 200, 10, 0.1, observe=healthz,
                   ignoring=(OSError,))

    def stop(self):
        self.nginx.terminate()
        self.nginx.wait(timeout=10)
        for instance in self.instances:
            instance.stop()


@pytest.fixture
def cluster(tmp_path):
    cluster = Cluster(tmp_path)
    yield cluster
    cluster.stop()


def post(server, path, body=None, headers=None):
    return server.json("POST", path, body, headers)


def reaches(instance, sid, version, headers=None):
    """Waits until `instance` serves session `sid` at `version`, and answers the state. A read is
    served from the instance's copy, which shows another instance's change once its notification
    has arrived."""
    return wait_until(f"port {instance.port} serving version {version}", lambda state: state.get("version") == version,
                      5, 0.02, observe=lambda: instance.json("GET", f"/v1/sessions/{sid}", headers=headers)[2])


def test_any_instance_serves_any_session(cluster):
    a, b, c = cluster.instances
    status, _, created = post(a, "/v1/sessions", {"template": "mall"})
    assert status == 201
    sid = created["id"]
    status, _, moved = post(b, f"/v1/sessions/{sid}/next")
    assert (status, moved["version"], moved["index"]) == (200, 2, 1)
    status, headers, read = c.json("GET", f"/v1/sessions/{sid}")
    assert (status, read["version"], read["index"], headers["etag"]) == (200, 2, 1, '"2"')
    # A change made on a copy that another instance made stale is made again on the newer state.
    assert post(a, f"/v1/sessions/{sid}/next")[2]["version"] == 3
    assert post(b, f"/v1/sessions/{sid}/next")[2]["version"] == 4
    reaches(c, sid, 4)
    # A delete anywhere is seen everywhere.
    assert c.request("DELETE", f"/v1/sessions/{sid}")[0] == 204
    for instance in (a, b):
        wait_until(f"port {instance.port} answering 404 for the deleted session", lambda status: status == 404, 5,
                   observe=lambda: instance.json("GET", f"/v1/sessions/{sid}")[0])


def test_if_match_means_the_same_on_every_instance(cluster):
    a, b, c = cluster.instances
    sid = post(a, "/v1/sessions", {"template": "mall"})[2]["id"]
    assert c.json("GET", f"/v1/sessions/{sid}")[2]["version"] == 1  # c holds a copy at 1
    assert post(b, f"/v1/sessions/{sid}/next", headers={"If-Match": '"1"'})[2]["version"] == 2
    status, _, problem = post(c, f"/v1/sessions/{sid}/next", headers={"If-Match": '"1"'})
    assert (status, problem["code"]) == (412, "version_mismatch")
    status, _, state = post(c, f"/v1/sessions/{sid}/next", headers={"If-Match": '"2"'})
    assert (status, state["version"]) == (200, 3)


def test_concurrent_nexts_through_nginx_are_each_acknowledged_once(cluster):
    sid = post(cluster.proxy, "/v1/sessions", {"template": "mall"})[2]["id"]
    versions, failures = [], []
    lock = threading.Lock()

    def client():
        for _ in range(100):
            status, _, state = post(cluster.proxy, f"/v1/sessions/{sid}/next")
            with lock:
                (versions if status == 200 else failures).append(state["version"] if status == 200 else (status, state))

    threads = [threading.Thread(target=client) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert sorted(versions) == list(range(2, 302))
    for instance in cluster.instances:
        reaches(instance, sid, 301)


def test_a_stream_on_one_instance_sees_every_version_applied_on_the_others(cluster):
    a, b, c = cluster.instances
    sid = post(a, "/v1/sessions", {"template": "mall"})[2]["id"]
    stream = EventReader(a.port, sid)
    assert stream.next_event()[:2] == (1, "state")
    for n in range(40):
        post(b if n % 2 else c, f"/v1/sessions/{sid}/next" if n % 3 else f"/v1/sessions/{sid}/scroll",
             None if n % 3 else {"progress": 0.25})
    seen = [stream.next_event() for _ in range(40)]
    assert [event[0] for event in seen] == list(range(2, 42))
    assert {event[1] for event in seen} == {"pageChanged", "transition"}
    assert seen[-1][2] == {**a.json("GET", f"/v1/sessions/{sid}")[2], "cause": "request"}
    stream.close()


class Follower:
    """Reads a stream on a thread of its own as the events come, recording their versions."""

    def __init__(self, stream):
        self.stream = stream
        self.seen = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        self.stream.sock.settimeout(30)
        try:
            while True:
                event = self.stream.next_event()
                if event is None:
                    return
                self.seen.append(event[0])
        except OSError:
            return

    def versions_until(self, last, timeout=30):
        deadline = time.monotonic() + timeout
        while (not self.seen or self.seen[-1] < last) and time.monotonic() < deadline and self.thread.is_alive():
            time.sleep(0.02)
        self.stream.close()
        return list(self.seen)


def skips(instances):
    """The events the instances' subscribers skipped since they started (`pagerd_event_skips`)."""
    total = 0
    for instance in instances:
        text = instance.request("GET", "/metrics")[2].decode()
        total += int(float(re.search(r"^pagerd_event_skips (\S+)$", text, re.M).group(1)))
    return total


def assert_every_version_seen_or_skipped(followers, last, skipped):
    """Each stream saw versions 2…`last` in order, and every version missing from one is an event
    the server counts as skipped for a subscriber that fell behind (on a busy machine a stream's
    writer can lag its session by more than the 64 events kept for it): so the versions missing
    from all streams are exactly `skipped()`, read once every stream has seen `last` (every
    version before it has then been handed to the stream or skipped), and a version lost any
    other way fails."""
    missing = {}
    for name, follower in followers.items():
        seen = follower.versions_until(last)
        assert seen and seen[-1] == last and seen == sorted(set(seen)) and seen[0] >= 2, (
            f"stream on {name}: {len(seen)} events to {seen[-1] if seen else None}, not in order up to {last}")
        missing[name] = sorted(set(range(2, last + 1)) - set(seen))
    assert sum(map(len, missing.values())) == skipped(), {name: gone[:20] for name, gone in missing.items()}


def follow_everywhere(cluster, sid):
    """A follower of session `sid` on each instance (a and b write in the tests) and through nginx,
    each past its first `state` event."""
    a, b, c = cluster.instances
    streams = {"c": EventReader(c.port, sid), "proxy": EventReader(cluster.proxy.port, sid),
               "a, which writes too": EventReader(a.port, sid), "b, which writes too": EventReader(b.port, sid)}
    for stream in streams.values():
        assert stream.next_event()[:2] == (1, "state")
    return {name: Follower(stream) for name, stream in streams.items()}


def test_streams_see_every_version_in_order_while_two_instances_write_concurrently(cluster):
    a, b, _ = cluster.instances
    sid = post(a, "/v1/sessions", {"template": "mall"})[2]["id"]
    followers = follow_everywhere(cluster, sid)
    skipped = skips(cluster.instances)
    failures = []

    def writer(instance):
        for _ in range(125):
            status, _, body = post(instance, f"/v1/sessions/{sid}/next")
            if status != 200:
                failures.append((status, body))

    threads = [threading.Thread(target=writer, args=(instance,)) for instance in (a, b, a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert_every_version_seen_or_skipped(followers, 501, lambda: skips(cluster.instances) - skipped)


def test_streams_see_every_version_of_a_large_session_while_two_instances_write_it(cluster):
    """A state too large for one PostgreSQL announcement (8,000 bytes) is announced in pieces, so
    the instances that did not write a version still hand it to their streams: no version is
    missing from any stream, and nothing is skipped."""
    a, b, _ = cluster.instances
    pages = [{"id": f"p{n}", "title": f"P{n}", "content": {"text": "é🙂x" * 400}} for n in range(5)]
    status, _, created = post(a, "/v1/sessions", {"pages": pages})
    assert status == 201, created
    sid = created["id"]
    followers = follow_everywhere(cluster, sid)
    skipped = skips(cluster.instances)
    failures = []

    def writer(instance, tag):
        for n in range(30):
            status, _, body = instance.json("PATCH", f"/v1/sessions/{sid}/pages/p{n % 5}", {"title": f"{tag}{n}"})
            if status != 200:
                failures.append((status, body))

    threads = [threading.Thread(target=writer, args=pair) for pair in ((a, "a"), (b, "b"), (a, "A"), (b, "B"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert_every_version_seen_or_skipped(followers, 121, lambda: 0)
    assert skips(cluster.instances) - skipped == 0


def test_streams_see_every_version_when_a_writer_is_killed(cluster):
    a, b, c = cluster.instances
    sid = post(a, "/v1/sessions", {"template": "mall"})[2]["id"]
    # On c, which only reads, and on a, which writes beside b and survives it.
    streams = {"c": EventReader(c.port, sid), "a, the writer that survives": EventReader(a.port, sid)}
    for stream in streams.values():
        assert stream.next_event()[:2] == (1, "state")
    followers = {name: Follower(stream) for name, stream in streams.items()}
    skipped = skips([a, c])
    stop = threading.Event()

    def writer(instance):
        while not stop.is_set():
            try:
                post(instance, f"/v1/sessions/{sid}/next")
            except OSError:
                if instance is b:
                    return

    threads = [threading.Thread(target=writer, args=(instance,)) for instance in (a, b, b)]
    for thread in threads:
        thread.start()
    time.sleep(0.7)
    b.stop(signal.SIGKILL)
    time.sleep(0.7)
    stop.set()
    for thread in threads:
        thread.join()
    # The database's, since the last change's notification may still be on its way to a and c.
    final = int(psql(f"SELECT version FROM pagerd_sessions WHERE id = '{sid}'", cluster.database))
    assert final > 10
    assert_every_version_seen_or_skipped(followers, final, lambda: skips([a, c]) - skipped)


def test_kill_9_of_an_instance_under_load_loses_no_acknowledged_change(cluster):
    a, b, c = cluster.instances
    sids = [post(cluster.proxy, "/v1/sessions", {"template": "mall"})[2]["id"] for _ in range(6)]
    acknowledged = {sid: [] for sid in sids}
    lock = threading.Lock()
    stop = threading.Event()

    def client(sid):
        while not stop.is_set():
            try:
                status, _, body = cluster.proxy.request("POST", f"/v1/sessions/{sid}/next")
            except OSError:
                continue
            # While nginx still sends requests to the killed instance it answers 502 (HTML):
            # nothing acknowledged.
            if status == 200:
                with lock:
                    acknowledged[sid].append(json.loads(body)["version"])

    threads = [threading.Thread(target=client, args=(sid,)) for sid in sids]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    b.stop(signal.SIGKILL)
    time.sleep(1.0)
    stop.set()
    for thread in threads:
        thread.join()
    for sid, versions in acknowledged.items():
        assert len(versions) == len(set(versions)) and versions, sid
        final = int(psql(f"SELECT version FROM pagerd_sessions WHERE id = '{sid}'", cluster.database))
        assert max(versions) <= final
        for instance in (a, c):
            reaches(instance, sid, final)


def test_max_sessions_holds_across_instances(start_pagerd):
    database = f"pagerd_cluster_{uuid.uuid4().hex[:8]}"
    psql(f"CREATE DATABASE {database}")
    env = {"PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": SERVER.replace("/pagerd?", f"/{database}?"),
           "PAGERD_POSTGRES_PASSWORD": PASSWORD, "PAGERD_MAX_SESSIONS": "3"}
    a, b = start_pagerd(env), start_pagerd(env)
    made = [post(server, "/v1/sessions", {"template": "mall"}) for server in (a, b, a)]
    assert [status for status, _, _ in made] == [201, 201, 201]
    status, headers, problem = post(b, "/v1/sessions", {"template": "mall"})
    assert (status, problem["code"], headers["retry-after"]) == (503, "at_capacity", "30")
    assert b.request("DELETE", f"/v1/sessions/{made[0][2]['id']}")[0] == 204
    assert post(b, "/v1/sessions", {"template": "mall"})[0] == 201


def test_a_delete_with_if_match_holds_across_instances(cluster):
    a, b, c = cluster.instances
    sid = post(a, "/v1/sessions", {"template": "mall"})[2]["id"]
    assert c.json("GET", f"/v1/sessions/{sid}")[2]["version"] == 1  # c holds a copy at 1
    assert post(b, f"/v1/sessions/{sid}/next")[2]["version"] == 2
    status, _, problem = c.json("DELETE", f"/v1/sessions/{sid}", headers={"If-Match": '"1"'})
    assert (status, problem["code"]) == (412, "version_mismatch")
    reaches(a, sid, 2)
    assert c.request("DELETE", f"/v1/sessions/{sid}", headers={"If-Match": '"2"'})[0] == 204


def test_every_instance_accepts_the_same_tokens(tmp_path):
    """Instances sharing the keys accept each other's tokens, minted or signed by a backend; a
    watch token is refused a change by every one of them, and follows events through nginx."""
    cluster = Cluster(tmp_path, ENV)
    try:
        a, b, c = cluster.instances
        # A loop: every next moves, so every next makes a version.
        status, _, created = post(a, "/v1/sessions", {"template": "media", "mode": "loop"}, bearer(AUTH_TOKEN))
        assert status == 201
        sid, access = created["id"], created["access"]
        control, watch = access["control"]["token"], access["watch"]["token"]
        backend = token("drive", sid)
        status, _, minted = post(b, f"/v1/sessions/{sid}/tokens", {"scope": "drive", "ttl": 600}, bearer(control))
        assert status == 201
        version = 1
        for instance in (a, b, c, cluster.proxy):
            assert instance.json("GET", f"/v1/sessions/{sid}", headers=bearer(watch))[0] == 200
            status, headers, problem = post(instance, f"/v1/sessions/{sid}/next", None, bearer(watch))
            assert (status, problem["code"]) == (403, "forbidden")
            for driver in (backend, minted["token"]):
                status, _, moved = post(instance, f"/v1/sessions/{sid}/next", None, bearer(driver))
                version += 1
                assert (status, moved["version"]) == (200, version)
        for instance in (a, b, c):  # whichever nginx picks for the stream serves the last version
            reaches(instance, sid, version, headers=bearer(watch))
        reader = EventReader(cluster.port, sid, query=f"?access_token={watch}")
        assert reader.status == 200 and reader.next_event()[:2] == (version, "state")
        assert post(c, f"/v1/sessions/{sid}/next", None, bearer(control))[0] == 200
        assert reader.next_event()[:2] == (version + 1, "pageChanged")
        reader.close()
        assert post(cluster.proxy, f"/v1/sessions/{sid}/next", None, bearer(token("drive", sid, secret=b"y" * 32)))[0] == 401
    finally:
        cluster.stop()



def test_the_cluster_sample_logs_no_event_stream_token_when_an_instance_is_down(cluster, tmp_path):
    """nginx logs a request it could not pass to an instance with its whole line: the sample logs
    only critical errors for the event-stream route, so an access token in its query stays out."""
    a, b, c = cluster.instances
    sid = post(a, "/v1/sessions", {"template": "mall"})[2]["id"]
    b.stop(signal.SIGKILL)
    secret = "eyJ0eXAiOiJhdCtqd3QifQ.never-logged." + uuid.uuid4().hex
    # Round robin over three: of three requests in a row, one tries b (and then nginx leaves b out
    # for its fail_timeout, 10 s); six, to be sure.
    for _ in range(6):
        with socket.create_connection(("127.0.0.1", cluster.port), timeout=5) as sock:
            sock.sendall(f"GET /v1/sessions/{sid}/events?access_token={secret} HTTP/1.1\r\nHost: t\r\n"
                         "Connection: close\r\n\r\n".encode())
            assert sock.recv(64).startswith(b"HTTP/1.1 ")
    # Once b is tried again, another route's failure to reach it is logged: the log is the place
    # to look.
    time.sleep(11)
    for _ in range(6):
        cluster.proxy.request("GET", f"/v1/sessions/{sid}?marker=1")
    log = (tmp_path / "error.log").read_text()
    assert "connect() failed" in log and "marker=1" in log, log[-2000:]
    assert secret not in log and "access_token" not in log, log[-2000:]
