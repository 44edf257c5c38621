#!/usr/bin/env python3
"""`make load-cluster`: POST …/next through nginx in front of three pagerd instances sharing one
PostgreSQL database, next to one instance on SQLite and one in memory, on this machine.

Runs beside the throwaway PostgreSQL cluster of tools/with-postgres.sh (the make target starts
it). Creates CLUSTER_SESSIONS (1,000) four-page looping sessions in each setup and runs wrk for
CLUSTER_DURATION seconds (5) at CLUSTER_CONNECTIONS (64) connections, rotating over the
sessions, so that every request changes a session and waits for its commit. Prints req/s,
p50/p99 latency and errors (non-2xx and socket errors): medians of CLUSTER_REPEAT runs (3).
Everything runs on the same machine: wrk, nginx, the instances and PostgreSQL share its cores.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

from load import create_sessions, free_port, lua_script, run_wrk, wait_for_port

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pytests"))
from support import cluster_nginx_config  # noqa: E402

PAGERD = os.environ.get("PAGERD_BINARY", str(ROOT / ".build/release/pagerd"))
NGINX = next((p for p in ("/usr/sbin/nginx", "/usr/bin/nginx") if os.access(p, os.X_OK)), "nginx")
DURATION = int(os.environ.get("CLUSTER_DURATION", "5"))
REPEAT = int(os.environ.get("CLUSTER_REPEAT", "3"))
CONNECTIONS = int(os.environ.get("CLUSTER_CONNECTIONS", "64"))
SERVER = os.environ["PAGERD_TEST_POSTGRES_URL"]
PASSWORD = os.environ["PAGERD_TEST_POSTGRES_PASSWORD"]
BIN = os.environ["PAGERD_TEST_POSTGRES_BIN"]


def start_pagerd(env):
    port = free_port()
    base = {k: v for k, v in os.environ.items() if not k.startswith("PAGERD_")}
    base.update(PAGERD_HOST="127.0.0.1", PAGERD_PORT=str(port), PAGERD_PER_IP_CONNECTION_LIMIT="0",
                PAGERD_LOG_LEVEL="warning", **env)
    process = subprocess.Popen([PAGERD], cwd=ROOT, env=base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port, process)
    return port, process


def new_database():
    name = f"pagerd_load_{uuid.uuid4().hex[:8]}"
    subprocess.run([f"{BIN}/psql", "-Atq", SERVER, "-c", f"CREATE DATABASE {name}"],
                   env={**os.environ, "PGPASSWORD": PASSWORD}, check=True, capture_output=True)
    return SERVER.replace("/pagerd?", f"/{name}?")


def measure(folder, name, port, pids):
    ids = create_sessions(port)
    script = lua_script(folder, name, "POST", [f"/v1/sessions/{i}/next" for i in ids], None)
    runs = [run_wrk(port, script, CONNECTIONS, pids[0]) for _ in range(REPEAT)]
    return {key: statistics.median(run[key] for run in runs) for key in ("rps", "p50", "p99")} | {
        "errors": sum(run["errors"] + run["non2xx"] for run in runs)}


def main():
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        processes = []
        try:
            url = new_database()
            instances = [start_pagerd({"PAGERD_STORAGE": "postgres", "PAGERD_POSTGRES_URL": url,
                                       "PAGERD_POSTGRES_PASSWORD": PASSWORD}) for _ in range(3)]
            processes += [process for _, process in instances]
            port = free_port()
            Path(folder, "nginx.conf").write_text(cluster_nginx_config(folder, port, [p for p, _ in instances]))
            nginx = subprocess.Popen([NGINX, "-p", folder, "-c", f"{folder}/nginx.conf", "-e", f"{folder}/error.log"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            processes.append(nginx)
            wait_for_port(port, nginx)
            results["3 × pagerd + PostgreSQL, via nginx"] = measure(folder, "cluster", port, [nginx.pid])
            for process in processes:
                process.terminate()
                process.wait(timeout=15)
            processes = []
            for storage in ("sqlite", "memory"):
                port, process = start_pagerd({"PAGERD_STORAGE": storage, "PAGERD_DATA_PATH": f"{folder}/load.db"})
                processes.append(process)
                results[f"1 × pagerd, {storage}"] = measure(folder, storage, port, [process.pid])
                process.terminate()
                process.wait(timeout=15)
                processes.remove(process)
        finally:
            for process in processes:
                process.kill()
    print(f"\nPOST …/next, wrk -t1 -c{CONNECTIONS}, {DURATION} s per run, median of {REPEAT}, "
          f"1,000 looping sessions per setup, everything on this machine ({os.cpu_count()} cores)")
    print(f"{'setup':40} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for name, figures in results.items():
        print(f"{name:40} {figures['rps']:9.0f} {figures['p50']:8.2f} {figures['p99']:8.2f} {figures['errors']:7d}")
    print(json.dumps(results), file=sys.stderr)


if __name__ == "__main__":
    main()
