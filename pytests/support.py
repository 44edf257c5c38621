"""The real pagerd binary started on a free port, and a small client for it."""
import http.client
import json
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BINARY = os.environ.get("PAGERD_BINARY", str(ROOT / ".build" / "release" / "pagerd"))


class Pagerd:
    """One running pagerd process."""

    def __init__(self, extra_env=None, args=()):
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAGERD_")}
        # config/pagerd.json (read from the repository root) keeps sessions in data/pagerd.db; a
        # test server keeps them in memory unless the test names a store of its own.
        env.update(
            {
                "PAGERD_HOST": "127.0.0.1",
                "PAGERD_PORT": "0",
                "PAGERD_PER_IP_CONNECTION_LIMIT": "0",
                "PAGERD_STORAGE": "memory",
            }
        )
        env.update(extra_env or {})
        env = {k: v for k, v in env.items() if v is not None}  # None in extra_env unsets a variable
        self.proc = subprocess.Popen(
            [BINARY, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        self.log = []
        self.port = self._read_port()
        # Keep reading stderr, so that a chatty server never blocks on a full pipe.
        self.drainer = threading.Thread(target=self._drain, daemon=True)
        self.drainer.start()

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line)

    def _read_port(self):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            self.log.append(line)
            match = re.search(r'port(?:=|":")(\d+)', line)  # logFormat text or json
            if match:
                return int(match.group(1))
        raise RuntimeError("pagerd did not start: " + "".join(self.log))

    def request(self, method, path, body=None, headers=None):
        """Sends one request on a new connection; returns (status, headers, body bytes)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        headers = dict(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
            headers.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        result = (response.status, {k.lower(): v for k, v in response.getheaders()}, data)
        conn.close()
        return result

    def json(self, method, path, body=None, headers=None):
        status, headers, data = self.request(method, path, body, headers)
        return status, headers, (json.loads(data) if data else None)

    def stop(self, sig=signal.SIGTERM, timeout=5):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            # The drainer ends at the pipe's end of file, once the process has exited.
            self.drainer.join(timeout=5)


def wait_until(what, condition, timeout=10.0, interval=0.05, *, observe=None, ignoring=()):
    """Polls until `condition` holds, every `interval` seconds, and answers what it last saw; after
    `timeout` seconds fails with `what` (the state waited for) and the last value observed.

    Without `observe`, `condition()` is the value observed and holds when true. With it,
    `observe()` is the value observed and `condition(value)` says whether it holds; the value is
    answered. An error of a type in `ignoring` counts as not yet (and is reported if it is the
    last thing seen); any other error, a failed assertion in `condition` among them, ends the wait
    at once."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = observe() if observe else condition()
            if (condition(value) if observe else value):
                return value
            seen, error = value, None
        except ignoring as caught:
            seen, error = f"{type(caught).__name__}: {caught}", caught
        if time.monotonic() >= deadline:
            shown = repr(seen)
            shown = shown if len(shown) <= 3000 else "\u2026" + shown[-3000:]  # a log's end says most
            raise AssertionError(f"waited {timeout} s for {what}; last observed: {shown}") from error
        time.sleep(interval)


def cluster_nginx_config(folder, port, upstreams):
    """deploy/nginx.conf (nginx in front of several instances) with the instances at the
    loopback ports `upstreams`, listening on `port`, one worker, in the foreground, its files in
    `folder`."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    servers = "".join(f"        server 127.0.0.1:{p};\n" for p in upstreams)
    text, count = re.subn(r"(        server pagerd\d:8080;\n)+", servers, text)
    assert count == 1
    text, count = re.subn(r"listen 8080;", f"listen 127.0.0.1:{port};", text)
    assert count == 1
    text = text.replace("worker_processes auto;", "worker_processes 1;")
    text = text.replace("/var/log/nginx/error.log", f"{folder}/error.log")
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers must reach the temporary folder
    head = f"{user}daemon off;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
    temp = "".join(f"    {kind}_temp_path {folder}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return head + text.replace("http {\n", "http {\n" + temp, 1)
