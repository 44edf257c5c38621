#!/usr/bin/env python3
"""`make swipe`: what a swipe in the demo costs and how closely the page follows the finger.

Starts the release pagerd (PAGERD_BINARY, default .build/release/pagerd; sessions in memory) and
in front of it a TCP relay (asyncio) that holds every chunk SWIPE_DELAY_MS (50) in each
direction, order kept per direction, and counts the bytes each way. Headless Chromium (selenium,
pytests/demo_page.py, which the browser tests use too) opens the demo through the relay for a
"mall" session (pytests/browser/test_swipe.py's), and performs the tests' 400 ms drag: 24 moves of
−9 px, one input tick each, then the release. Per swipe it measures

- lag: for each pointermove at t (performance.now()), the first traced frame
  (`pagerdDemo.frames[i].at`) at or after t; median and max of (frame − t), and how many of those
  frames were drawn from that move (their progress reaches the move's travel);
- frames drawn during the drag (pointerdown to pointerup) and redraws per second;
- requests: scroll and transition requests answered (pagerd's /metrics, before and after);
- bytes relayed server → client and client → server from the pointerdown until the settle is
  drawn (the first redraw after both the settle animation's 200 ms and the release's answer),
  each chunk counted when the client sent or received it.

Each of SWIPE_REPEAT (5) swipes is on a fresh session in a freshly loaded page; the medians are
printed for the delayed relay and, for comparison, for the relay without delay (loopback). It
prints figures only: nothing is asserted about times.
"""
import asyncio
import os
import statistics
import sys
import threading
import time
from pathlib import Path

from selenium.webdriver.common.by import By

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pytests"))
from demo_page import current_tab, drag_400_ms, start_browser, swipe_requests, wait_for  # noqa: E402
from support import BINARY, Pagerd  # noqa: E402

DELAY_MS = float(os.environ.get("SWIPE_DELAY_MS", "50"))
REPEAT = int(os.environ.get("SWIPE_REPEAT", "5"))
# test_swipe.py's session: the mall, a scrollable tab bar with an elastic indicator.
DEFINITION = {"template": "mall", "tabBar": {"layout": "scrollable", "indicator": {"style": "elastic"},
                                             "title": {"scale": 0.85}}}

# The page's log of the swipe (times are performance.now(), ms): pointer events with clientX,
# every scroll/transition request sent and answered, and every redraw (a mutation of the pager).
INSTRUMENT = """
window.swipeLog = { pointer: [], requests: [], redraws: [] };
const original = window.fetch;
window.fetch = (url, init) => {
  const promise = original(url, init);
  if (/scroll|transition/.test(String(url))) {
    const entry = { sent: performance.now(), body: init && init.body, answered: null };
    window.swipeLog.requests.push(entry);
    promise.then((response) => response.clone().text()).then(() => { entry.answered = performance.now(); }, () => {});
  }
  return promise;
};
for (const kind of ['pointerdown', 'pointermove', 'pointerup']) {
  document.getElementById('viewport').addEventListener(kind,
    (e) => window.swipeLog.pointer.push([performance.now(), kind, e.clientX]));
}
new MutationObserver(() => window.swipeLog.redraws.push(performance.now()))
  .observe(document.getElementById('device'), { subtree: true, childList: true, attributes: true });
"""

RESULTS = """
const log = window.swipeLog;
return { pointer: log.pointer, requests: log.requests, redraws: log.redraws,
         frames: window.pagerdDemo.frames.map((f) => ({ at: f.at, progress: f.progress,
           stride: (f.state.viewport.pageSize ?? f.state.viewport.width) + (f.state.viewport.pageSpacing ?? 0) })),
         epoch: performance.timeOrigin };
"""


class Relay:
    """A TCP relay on a loopback port in front of `target`: every chunk is delivered `delay_ms`
    after it was read, in order per direction. Each chunk is logged as (direction, read at, n)
    in epoch seconds, direction "up" (client → server) or "down" (server → client)."""

    def __init__(self, target_port, delay_ms):
        self.target_port = target_port
        self.delay = delay_ms / 1000
        self.chunks = []
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait()

    def _run(self, ready):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._accept, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]
        ready.set()
        self.loop.run_forever()

    async def _accept(self, client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            client_writer.close()
            return
        try:
            await asyncio.gather(self._pipe("up", client_reader, server_writer),
                                 self._pipe("down", server_reader, client_writer), return_exceptions=True)
        except asyncio.CancelledError:  # the relay closing: the connection ends quietly
            client_writer.close()
            server_writer.close()

    async def _pipe(self, direction, reader, writer):
        queue = asyncio.Queue()

        async def deliver():
            while True:
                due, data = await queue.get()
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if data is None:
                    break
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(deliver())
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                self.chunks.append((direction, time.time(), len(data)))
                queue.put_nowait((time.monotonic() + self.delay, data))
        except (ConnectionError, OSError):
            pass
        queue.put_nowait((time.monotonic() + self.delay, None))
        await sender

    def bytes_between(self, start, end):
        """Bytes (client → server, server → client) the client sent or received in [start, end]
        (epoch seconds): up counted when read from the client, down when delivered to it."""
        up = sum(n for d, at, n in self.chunks if d == "up" and start <= at <= end)
        down = sum(n for d, at, n in self.chunks if d == "down" and start <= at + self.delay <= end)
        return up, down

    def close(self):
        async def shutdown():
            self.server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(timeout=5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


def clock_offset(driver):
    """The page's epoch clock (timeOrigin + now) less Python's, in seconds."""
    best = None
    for _ in range(5):
        before = time.time()
        page = driver.execute_script("return performance.timeOrigin + performance.now();") / 1000
        after = time.time()
        if best is None or after - before < best[0]:
            best = (after - before, page - (before + after) / 2)
    return best[1]


def one_swipe(server, relay, driver):
    sid = server.json("POST", "/v1/sessions", DEFINITION)[2]["id"]
    driver.get(f"http://127.0.0.1:{relay.port}/?session={sid}")
    wait_for(driver, lambda d: d.find_element(By.ID, "pager").get_attribute("data-session") == sid)
    wait_for(driver, lambda d: current_tab(d) == 0)
    driver.execute_script("window.pagerdDemo.trace = true;")
    wait_for(driver, lambda d: d.execute_script("return document.getElementById('fact-version').textContent === '1'"))
    driver.execute_script(INSTRUMENT)
    time.sleep(0.3)  # the page at rest: the event stream open, nothing in flight
    offset = clock_offset(driver)
    before = swipe_requests(server)
    drag_400_ms(driver)
    wait_for(driver, lambda d: current_tab(d) == 1)
    # Settled on the server too, and the page quiet (the release's answer drawn).
    wait_for(driver, lambda d: d.execute_script(
        "const r = window.swipeLog.requests; return r.length > 0 && r.every((e) => e.answered !== null);"))
    time.sleep(0.3 + 2 * DELAY_MS / 1000)
    state = server.json("GET", f"/v1/sessions/{sid}")[2]
    if (state["index"], state["transition"]) != (1, None):
        raise SystemExit(f"swipe: the swipe did not settle on the next page: {state['index']}, {state['transition']}")
    spent = swipe_requests(server) - before
    log = driver.execute_script(RESULTS)

    pointer = log["pointer"]
    down = next(at for at, kind, _ in pointer if kind == "pointerdown")
    down_x = next(x for _, kind, x in pointer if kind == "pointerdown")
    up = next(at for at, kind, _ in pointer if kind == "pointerup")
    moves = [(at, x) for at, kind, x in pointer if kind == "pointermove" and down < at <= up]
    frames = sorted(log["frames"], key=lambda f: f["at"])
    lags, drawn_from_move = [], 0
    for at, x in moves:
        frame = next((f for f in frames if f["at"] >= at), None)
        if frame is None:
            continue
        lags.append(frame["at"] - at)
        travel = min(1.0, (down_x - x) / frame["stride"])
        if frame["progress"] >= travel - 1e-9:
            drawn_from_move += 1
    during = [f for f in frames if down <= f["at"] <= up]
    release = [r for r in log["requests"] if r["body"] and '"end"' in r["body"]]
    answered = release[-1]["answered"] if release else up
    settled = next((at for at in log["redraws"] if at >= max(answered, up + 200)), answered)
    epoch = log["epoch"]
    start = (epoch + down) / 1000 - offset
    end = (epoch + settled) / 1000 - offset
    sent, received = relay.bytes_between(start, end)
    return {
        "drag_ms": up - down,
        "moves": len(moves),
        "lag_median": statistics.median(lags) if lags else float("nan"),
        "lag_max": max(lags) if lags else float("nan"),
        "drawn_from_move": drawn_from_move,
        "frames": len(during),
        "fps": len(during) / ((up - down) / 1000) if up > down else float("nan"),
        "requests": spent,
        "down_kb": received / 1000,
        "up_kb": sent / 1000,
        "settle_ms": settled - up,
    }


def median(rows, key):
    return statistics.median(row[key] for row in rows)


def main():
    started = time.monotonic()
    server = Pagerd()
    delays = [DELAY_MS] + ([0.0] if DELAY_MS != 0 else [])
    relays = {delay: Relay(server.port, delay) for delay in delays}
    driver = start_browser()
    print(f"pagerd {BINARY}; a 400 ms swipe (24 moves of −9 px) in headless Chromium, {REPEAT} swipes each, "
          f"through a relay delaying each direction by {', '.join(f'{d:g}' for d in delays)} ms")
    results = {}
    try:
        for delay in delays:
            rows = []
            for n in range(REPEAT):
                row = one_swipe(server, relays[delay], driver)
                rows.append(row)
                print(f"  {delay:g} ms #{n + 1}: drag {row['drag_ms']:.0f} ms, {row['moves']} moves, lag median "
                      f"{row['lag_median']:.1f} ms max {row['lag_max']:.1f} ms, {row['drawn_from_move']}/{row['moves']} "
                      f"frames drawn from their move, {row['frames']} frames ({row['fps']:.0f}/s), {row['requests']} requests, "
                      f"{row['down_kb']:.1f} KB down, {row['up_kb']:.1f} KB up, settle drawn {row['settle_ms']:.0f} ms after release")
            results[delay] = rows
    finally:
        driver.quit()
        for relay in relays.values():
            relay.close()
        server.stop()

    print()
    print(f"{f'medians of {REPEAT} swipes':32} | lag median | lag max | frames | redraws/s | requests | KB server→client | KB client→server")
    print("-" * 124)
    for delay, rows in results.items():
        label = f"{delay:g} ms each way" if delay else "loopback (0 ms)"
        print(f"{label:32} | {median(rows, 'lag_median'):7.1f} ms | {median(rows, 'lag_max'):5.1f} ms | "
              f"{median(rows, 'frames'):6.0f} | {median(rows, 'fps'):9.0f} | {median(rows, 'requests'):8.0f} | "
              f"{median(rows, 'down_kb'):16.1f} | {median(rows, 'up_kb'):16.1f}")
    print(f"(run time {time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    sys.exit(main())
