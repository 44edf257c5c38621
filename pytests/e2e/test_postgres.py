"""Sessions kept in PostgreSQL: pagerd with PAGERD_STORAGE=postgres, killed and started again,
refused where it must be, and through a restart of PostgreSQL itself.

`make test` runs these beside a throwaway cluster (tools/with-postgres.sh); each test gets a
database of its own. Outside CI, without that cluster, they are skipped.
"""
import os
import shlex
import signal
import subprocess
import threading
import time
import uuid

import pytest

from support import wait_until
from test_durability import assert_gone, assert_same_state, create, mutate, pages, read, run_refused

SERVER = os.environ.get("PAGERD_TEST_POSTGRES_URL")
PASSWORD = os.environ.get("PAGERD_TEST_POSTGRES_PASSWORD", "")
BIN = os.environ.get("PAGERD_TEST_POSTGRES_BIN", "")
DATA = os.environ.get("PAGERD_TEST_POSTGRES_DATA", "")

if SERVER is None:
    if os.environ.get("CI"):
        pytest.fail("PAGERD_TEST_POSTGRES_URL is not set: run the tests through tools/with-postgres.sh", pytrace=False)
    pytest.skip("needs a PostgreSQL cluster (tools/with-postgres.sh)", allow_module_level=True)


def psql(sql, database="pagerd"):
    """Runs `sql` as the test role on `database`; answers its output."""
    url = SERVER.replace("/pagerd?", f"/{database}?")
    result = subprocess.run([f"{BIN}/psql", "-v", "ON_ERROR_STOP=1", "-Atq", url, "-c", sql],
                            env={**os.environ, "PGPASSWORD": PASSWORD}, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def as_postgres(*command):
    """Runs a PostgreSQL program as the cluster's owner. Its output goes to a file: a server it
    starts would otherwise hold the pipe open."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    with open(os.path.join(os.path.dirname(DATA), "pg_ctl.out"), "ab") as output:
        subprocess.run([*prefix, *command], check=True, stdout=output, stderr=output, timeout=60)


@pytest.fixture
def database():
    """A new database; answers the environment that points pagerd at it."""
    name = f"pagerd_e2e_{uuid.uuid4().hex[:8]}"
    psql(f"CREATE DATABASE {name}")
    return name, {"PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": SERVER.replace("/pagerd?", f"/{name}?"),
                  "PAGERD_POSTGRES_PASSWORD": PASSWORD}


def test_kill_9_keeps_every_acknowledged_change(start_pagerd, database):
    name, env = database
    server = start_pagerd(env)
    acknowledged = {}
    moved = create(server)["id"]
    for _ in range(4):
        acknowledged[moved] = mutate(server, moved, "next")
    edited = create(server)["id"]
    mutate(server, edited, "pages", {"page": {"id": "zz", "title": "Zed", "content": {"note": "zed ✓"}}, "at": 0})
    acknowledged[edited] = mutate(server, edited, "select", {"page": "wishlist"})
    scrolling = create(server, "media")["id"]
    acknowledged[scrolling] = mutate(server, scrolling, "scroll", {"progress": 0.25})
    deleted = create(server)["id"]
    assert server.request("DELETE", f"/v1/sessions/{deleted}")[0] == 204
    documents = {sid: pages(server, sid) for sid in acknowledged}
    # The rows are there, one per live session, at the acknowledged versions.
    rows = dict(line.split("|") for line in psql("SELECT id, version FROM pagerd_sessions", name).splitlines())
    assert rows == {sid: str(state["version"]) for sid, state in acknowledged.items()}

    assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    server = start_pagerd(env)
    for sid, state in acknowledged.items():
        assert_same_state(read(server, sid), state)
        assert pages(server, sid) == documents[sid]
    assert_gone(server, deleted)
    assert mutate(server, moved, "next")["version"] == acknowledged[moved]["version"] + 1


def test_concurrent_changes_on_one_session_are_each_acknowledged_once(start_pagerd, database):
    _, env = database
    server = start_pagerd(env)
    sid = create(server)["id"]
    versions, errors = [], []

    def client():
        for _ in range(50):
            status, _, state = server.json("POST", f"/v1/sessions/{sid}/next")
            (versions if status == 200 else errors).append(state["version"] if status == 200 else status)

    threads = [threading.Thread(target=client) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and sorted(versions) == list(range(2, 202))
    assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    server = start_pagerd(env)
    assert read(server, sid)["version"] == 201


def test_settings_are_checked_and_the_password_never_shown(database):
    _, env = database
    secret = "s3cret-" + uuid.uuid4().hex
    cases = [
        ({"PAGERD_POSTGRES_URL": None}, "postgresURL"),
        ({"PAGERD_POSTGRES_URL": "mysql://pagerd@127.0.0.1/pagerd"}, "postgres://"),
        ({"PAGERD_POSTGRES_URL": env["PAGERD_POSTGRES_URL"].replace("pagerd@", f"pagerd:{secret}@")},
         "PAGERD_POSTGRES_PASSWORD"),
        ({"PAGERD_POSTGRES_PASSWORD": secret}, "cannot use PostgreSQL"),
        ({"PAGERD_POSTGRES_URL": "postgres://pagerd@127.0.0.1:1/pagerd?sslmode=disable"}, "cannot use PostgreSQL"),
    ]
    for overrides, expected in cases:
        refused = run_refused({k: v for k, v in {**env, **overrides}.items() if v is not None})
        assert refused.returncode == 2, refused.stderr
        assert expected in refused.stderr and secret not in refused.stderr, refused.stderr


def test_synchronous_commit_off_is_warned_about(start_pagerd, database):
    name, env = database
    psql(f"ALTER DATABASE {name} SET synchronous_commit = off")
    server = start_pagerd(env)
    wait_until("the warning that synchronous_commit is off", lambda log: "synchronous_commit is off" in log, 5,
               observe=lambda: "".join(server.log))


def test_a_restart_of_postgresql_fails_changes_meanwhile_and_then_recovers(start_pagerd, database):
    _, env = database
    server = start_pagerd(env)
    sid = create(server)["id"]
    before = mutate(server, sid, "next")
    as_postgres(f"{BIN}/pg_ctl", "-D", DATA, "-l", os.path.join(os.path.dirname(DATA), "server.log"),
                "-m", "fast", "-w", "restart")
    # The first change after the restart finds the connection gone: it is refused with 503 and
    # the session keeps its acknowledged state; pagerd reconnects and the next change commits.
    def taken():
        status, headers, body = server.json("POST", f"/v1/sessions/{sid}/next")
        assert status in (200, 503), body
        if status == 503:
            assert body["code"] == "storage_unavailable" and "retry-after" in headers, body
        return status, body

    _, body = wait_until("a change taken after the restart", lambda answer: answer[0] == 200, 15, 0.3, observe=taken)
    assert body["version"] == before["version"] + 1
    assert read(server, sid)["version"] == body["version"]
    # The listening connection went with the restart: pagerd listens again and says so.
    wait_until("the log line saying pagerd listens again", lambda log: "listening again" in log, 10, 0.1,
               observe=lambda: "".join(server.log))
    # Copies nobody watches were dropped then; the session loads again, as committed.
    assert read(server, sid)["version"] == body["version"]
    assert mutate(server, sid, "next")["version"] == body["version"] + 1


def test_readyz_is_503_while_postgresql_is_down_and_200_once_it_is_back(start_pagerd, database):
    _, env = database
    server = start_pagerd(env)
    sid = create(server)["id"]
    assert server.json("GET", "/readyz")[0] == 200
    # Started again with the options it was started with (its port among them).
    words = shlex.split(open(os.path.join(DATA, "postmaster.opts")).read())[1:]
    options = " ".join(shlex.quote(word) for i, word in enumerate(words)
                       if word != "-D" and (i == 0 or words[i - 1] != "-D"))
    as_postgres(f"{BIN}/pg_ctl", "-D", DATA, "-m", "fast", "-w", "stop")
    try:
        # The listening connection notices within its half-second poll; it keeps trying meanwhile.
        wait_until("/readyz answering 503 with PostgreSQL down", lambda status: status == 503, 10,
                   observe=lambda: server.json("GET", "/readyz")[0])
        status, headers, problem = server.json("GET", "/readyz")
        assert (status, headers["retry-after"], problem["code"]) == (503, "1", "not_ready")
        status, _, body = server.json("POST", f"/v1/sessions/{sid}/next")
        assert (status, body["code"]) == (503, "storage_unavailable")
        time.sleep(1)
        assert server.json("GET", "/readyz")[0] == 503
        assert read(server, sid)["version"] == 1  # reads of held sessions go on
    finally:
        as_postgres(f"{BIN}/pg_ctl", "-D", DATA, "-l", os.path.join(os.path.dirname(DATA), "server.log"),
                    "-o", options, "-w", "start")
    wait_until("/readyz answering 200 again", lambda status: status == 200, 15, 0.1,
               observe=lambda: server.json("GET", "/readyz")[0])

    def next_status():
        status = server.json("POST", f"/v1/sessions/{sid}/next")[0]
        assert status in (200, 503), status
        return status

    wait_until("a change taken once PostgreSQL is back", lambda status: status == 200, 15, 0.3, observe=next_status)
    assert read(server, sid)["version"] == 2
