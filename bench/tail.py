#!/usr/bin/env python3
"""`make load-tail`: where the p99 of `make load` comes from, with the scheduler's own figures.

Runs pagerd (sessions in memory) and bench/ceiling, each with one and with two server threads,
under the load of `make load` (wrk -t1, TAIL_CONNECTIONS connections, default 64, `POST …/next`
rotating over 1,000 looping sessions; the ceiling answers its fixed document) and, in the middle
of each run, records the scheduler's switches with `perf sched record` for 3 s. Prints, per
server: req/s, p50 and p99 as wrk saw them, and for the server's threads: how often they were
switched out, how long they waited on average and at most before running again (`perf sched
latency`), and their share of the CPU. A server thread that never blocks (libmicrohttpd's poll
loop under load) is switched out only when it is preempted, so its waits are time spent runnable
but not running. Medians of TAIL_REPEAT runs (default 3); needs perf (linux-perf) and root.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402

CONNECTIONS = int(os.environ.get("TAIL_CONNECTIONS", "64"))
REPEAT = int(os.environ.get("TAIL_REPEAT", "3"))
RECORD_SECONDS = 3
# perf sched latency prints, per command name: runtime, switches, average and largest delay.
LATENCY_ROW = re.compile(
    r"^\s*(?P<name>MHD-[^:|]*):[^|]*\|\s*(?P<runtime>[\d.]+) ms\s*\|\s*(?P<switches>\d+)\s*\|"
    r"\s*avg:\s*(?P<avg>[\d.]+) ms\s*\|\s*max:\s*(?P<max>[\d.]+) ms", re.M)


def start(name, threads, port):
    if name == "pagerd":
        env = dict(os.environ, PAGERD_HOST="127.0.0.1", PAGERD_PORT=str(port), PAGERD_PER_IP_CONNECTION_LIMIT="0",
                   PAGERD_LOG_LEVEL="warning", PAGERD_MAX_SESSIONS="2000000", PAGERD_THREADING="poll",
                   PAGERD_THREAD_POOL_SIZE=str(threads), PAGERD_STORAGE="memory")
        return subprocess.Popen([load.PAGERD], cwd=load.ROOT, env=env, stderr=subprocess.DEVNULL)
    return subprocess.Popen([load.CEILING, str(port), "poll", str(threads)], stderr=subprocess.DEVNULL)


def one_run(port, script, pid, folder):
    """wrk for RECORD_SECONDS + 4 s with perf sched recording in its middle."""
    record = Path(folder) / "sched.data"
    saved = load.DURATION
    load.DURATION = RECORD_SECONDS + 4
    recorder = subprocess.Popen(
        ["sh", "-c", f"sleep 2; exec perf sched record -o {record} -- sleep {RECORD_SECONDS}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        figures = load.run_wrk(port, script, CONNECTIONS, pid)
    finally:
        load.DURATION = saved
    recorder.wait(timeout=30)
    report = subprocess.run(["perf", "sched", "latency", "-i", str(record)], capture_output=True, text=True).stdout
    rows = [m.groupdict() for m in LATENCY_ROW.finditer(report)]
    if not rows:
        sys.exit("perf sched latency shows no libmicrohttpd thread (is perf installed, and are we root?)")
    figures["switches"] = sum(int(r["switches"]) for r in rows) / RECORD_SECONDS
    figures["avg_wait"] = max(float(r["avg"]) for r in rows)
    figures["max_wait"] = max(float(r["max"]) for r in rows)
    figures["cpu_share"] = sum(float(r["runtime"]) for r in rows) / (RECORD_SECONDS * 1000 * os.cpu_count())
    return figures


def main():
    servers = [("pagerd", 1), ("pagerd", 2), ("ceiling", 1), ("ceiling", 2)]
    results = {server: [] for server in servers}
    with tempfile.TemporaryDirectory() as folder:
        for repeat in range(REPEAT):
            for name, threads in servers[repeat % 4:] + servers[:repeat % 4]:
                port = load.free_port()
                process = start(name, threads, port)
                try:
                    load.wait_for_port(port, process)
                    ids = load.create_sessions(port) if name == "pagerd" else [str(i) for i in range(load.SESSIONS)]
                    script = load.lua_script(folder, "next", "POST", [f"/v1/sessions/{i}/next" for i in ids], None)
                    figures = one_run(port, script, process.pid, folder)
                    results[(name, threads)].append(figures)
                    print(f"  run {repeat + 1}/{REPEAT} {name} {threads}t: {figures['rps']:.0f} req/s "
                          f"p99 {figures['p99']:.2f} ms, max wait {figures['max_wait']:.2f} ms", file=sys.stderr)
                finally:
                    process.terminate()
                    process.wait(timeout=10)

    def median(runs, key):
        return statistics.median(run[key] for run in runs)

    print(f"\nPOST …/next, wrk -t1 -c{CONNECTIONS}, poll, {os.cpu_count()} cores shared by server and client; "
          f"medians of {REPEAT}; scheduler figures of the server's threads over {RECORD_SECONDS} s")
    print("| server | threads | req/s | p50 / p99 ms | switched out /s | wait avg / max ms | CPU share |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (name, threads), runs in results.items():
        print(f"| {name} | {threads} | {median(runs, 'rps'):,.0f} | {median(runs, 'p50'):.2f} / {median(runs, 'p99'):.2f} "
              f"| {median(runs, 'switches'):,.0f} | {median(runs, 'avg_wait'):.3f} / {median(runs, 'max_wait'):.2f} "
              f"| {median(runs, 'cpu_share'):.0%} |")


if __name__ == "__main__":
    main()
