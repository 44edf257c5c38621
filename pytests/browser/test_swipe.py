"""A swipe in the demo, drawn on the page from predictScroll: a 400 ms drag (24 frames by the
page's clock) costs at most six requests, every frame's indicator is where the prediction (and
the server, asked afterwards) puts it for that progress, and a second browser watching the
session sees the swipe and its settle."""

import pytest

from demo_page import drag_400_ms, swipe_requests
from test_demo import browser, current_tab, open_page, second_browser, shot, wait_for  # noqa: F401 (fixtures)

DRAG_MS = 400  # demo_page.drag_400_ms: 24 moves of one frame each
FRAME_MS = 1000 / 60
MIRROR_RATE = 10  # the drag helper's default: reports a second, at most


def test_a_400_ms_swipe_is_drawn_from_the_prediction_in_a_few_requests(pagerd, browser, second_browser):
    definition = {"template": "mall", "tabBar": {"layout": "scrollable", "indicator": {"style": "elastic"},
                                                 "title": {"scale": 0.85}}}
    status, _, created = pagerd.json("POST", "/v1/sessions", definition)
    assert status == 201, created
    sid = created["id"]
    base = f"http://127.0.0.1:{pagerd.port}/"
    for driver in (browser, second_browser):
        assert open_page(driver, f"{base}?session={sid}") == sid
        wait_for(driver, lambda d: current_tab(d) == 0)
        driver.execute_script("window.pagerdDemo.trace = true;")
    # The page reads the settings once, when it opens the session; a swipe needs them.
    wait_for(browser, lambda d: d.execute_script(
        "return document.getElementById('fact-version').textContent === '1'"))

    # The page's clock during the drag is the frames': from pointerdown to pointerup,
    # performance.now() reads the pointerdown's time plus one frame (1000/60 ms) per pointer move,
    # so the drag lasts 24 frames, 400 ms, for the drag helper's rate and velocity however slowly a
    # busy machine delivers the moves. Before and after the drag it is the real clock; the real
    # times are kept as well, for the message.
    browser.execute_script("""
        const realNow = performance.now.bind(performance);
        let dragClock = null;
        window.realDrag = [];
        performance.now = () => dragClock ?? realNow();
        window.addEventListener('pointerdown', () => { dragClock = realNow(); window.realDrag.push(realNow()); }, true);
        window.addEventListener('pointermove', () => { if (dragClock !== null) dragClock += 1000 / 60; }, true);
        // Bubbling on the window: after the page's own pointerup handler has released the drag.
        window.addEventListener('pointerup', () => { dragClock = null; window.realDrag.push(realNow()); });""")
    # The page's own log of the swipe's requests and pointer moves (times in ms by the page's clock),
    # for the failure message.
    browser.execute_script("""
        window.swipeLog = [];
        const original = window.fetch;
        window.fetch = (url, init) => {
          if (/scroll|transition/.test(String(url))) window.swipeLog.push([Math.round(performance.now()), init.body]);
          return original(url, init);
        };
        for (const kind of ['pointerdown', 'pointermove', 'pointerup']) {
          document.getElementById('viewport').addEventListener(kind,
            () => window.swipeLog.push([Math.round(performance.now()), kind]));
        }""")
    before = swipe_requests(pagerd)
    drag_400_ms(browser)
    wait_for(browser, lambda d: current_tab(d) == 1)
    state = pagerd.json("GET", f"/v1/sessions/{sid}")[2]
    assert (state["index"], state["transition"]) == (1, None)
    spent = swipe_requests(pagerd) - before
    log = browser.execute_script("return window.swipeLog;")
    kinds = [what for _, what in log]
    down = next(at for at, what in log if what == "pointerdown")
    up = next(at for at, what in log if what == "pointerup")
    moves = kinds[kinds.index("pointerdown"):kinds.index("pointerup")].count("pointermove")
    lasted = up - down
    real_down, real_up = browser.execute_script("return window.realDrag;")
    print(f"\na {lasted} ms swipe in the demo ({moves} moves, {real_up - real_down:.0f} ms of real time): {spent} requests")
    # By the page's clock the drag lasted one frame per move (the times are rounded to the ms), at
    # most 400 ms: 24 moves, or fewer where the browser merged some.
    assert 1 <= moves and abs(lasted - moves * FRAME_MS) <= 1 and moves * FRAME_MS <= DRAG_MS + 1e-6, log
    # The first report goes with the first move, one frame in, then at most one per 100 ms
    # (mirrorRate 10) until the last move: at most 4 within 400 ms (at 16.7, 116.7, 216.7 and
    # 316.7 ms). The release adds at most one catch-up report (where the server last heard of a
    # progress that settles elsewhere than the one drawn), then the end: at most six in all
    # (docs/client-prediction.md), however long the drag took in real time.
    reports = 1 + int(((moves - 1) * FRAME_MS + 1e-6) * MIRROR_RATE // 1000)
    assert 2 <= spent <= reports + 2 <= 6, log
    shot(browser, "15-swipe-settled")

    # Every frame drawn: the indicator's pieces on the page are predictScroll's for the frame's
    # progress and state (to the layout's precision, 1/64 of a point).
    frames = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/demo/pagerd.js').then(({ predictScroll }) => {
          done(window.pagerdDemo.frames.map((frame) => ({
            progress: frame.progress, drawn: frame.drawn, version: frame.state.version, index: frame.state.index,
            predicted: predictScroll(frame.state, frame.settings, { progress: frame.progress }).indicator.segments })));
        });""")
    assert len(frames) >= 10, frames
    assert {frame["index"] for frame in frames} == {0}
    assert any(abs(frame["progress"]) > 0.4 for frame in frames)
    for frame in frames:
        assert len(frame["drawn"]) == len(frame["predicted"]), frame
        for drawn, predicted in zip(frame["drawn"], frame["predicted"]):
            assert drawn["x"] == pytest.approx(predicted["x"], abs=0.02), frame
            assert drawn["width"] == pytest.approx(predicted["width"], abs=0.02), frame

    # And the server answers the same for each of those progresses, from the state at rest.
    status, _, twin = pagerd.json("POST", "/v1/sessions", definition)
    assert status == 201
    for frame in frames:
        status, _, answer = pagerd.json("POST", f"/v1/sessions/{twin['id']}/scroll", {"progress": frame["progress"]})
        assert status == 200
        segments = [s for s in answer["indicator"]["segments"] if s["width"] > 1e-9]
        assert len(segments) == len(frame["drawn"]), (frame, answer["indicator"])
        for drawn, served in zip(frame["drawn"], segments):
            assert drawn["x"] == pytest.approx(served["x"], abs=0.02)
            assert drawn["width"] == pytest.approx(served["width"], abs=0.02)

    # The second browser saw the swipe (the reports' events, mid-way) and its settle.
    wait_for(second_browser, lambda d: current_tab(d) == 1)
    events = second_browser.execute_script("return window.pagerdDemo.events;")
    swiping = [e for e in events if e["transition"] and 0 < e["transition"]["progress"] < 1]
    assert len(swiping) >= 2, events
    assert all(e["transition"]["to"] == 1 and e["transition"]["direction"] == "forward" for e in swiping)
    last = events[-1]
    assert (last["index"], last["transition"]) == (1, None), events
    # The release goes by velocity (docs/api.md, «Release by velocity»): every watcher is told how the swipe settled.
    assert last.get("settle") is not None and last["settle"]["completed"] is True, last
    shot(second_browser, "16-swipe-watched")
