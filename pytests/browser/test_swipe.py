"""A swipe in the demo, drawn on the page from predictScroll: a 400 ms drag costs at most six
requests, every frame's indicator is where the prediction (and the server, asked afterwards)
puts it for that progress, and a second browser watching the session sees the swipe and its
settle."""

import pytest

from demo_page import drag_400_ms, swipe_requests
from test_demo import browser, current_tab, open_page, second_browser, shot, wait_for  # noqa: F401 (fixtures)

DRAG_MS = 400  # demo_page.drag_400_ms: 24 moves of one frame each
SLACK_MS = 100  # a loaded machine's delay in drawing it, within which at most six requests hold


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

    # The page's own log of the swipe's requests and pointer moves (times in ms), for the failure message.
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
    down = next(at for at, what in log if what == "pointerdown")
    up = next(at for at, what in log if what == "pointerup")
    lasted = up - down
    print(f"\na {lasted} ms swipe in the demo: {spent} requests")
    # One report when it starts, at most one per 100 ms after that (mirrorRate 10), and the
    # release: at most six for the 400 ms drag (docs/client-prediction.md). A browser slowed down by a busy machine may
    # stretch the drag; the rate bound holds whatever it lasted, and the bound of six is asserted
    # while the drag lasted under 400 ms + 100 ms of slack (at 500 ms a seventh report is allowed
    # by the rate: at 0, 100, …, 500 ms, then the release). Slower than that, only the rate is.
    assert 2 <= spent <= 2 + lasted // 100, log
    if lasted < DRAG_MS + SLACK_MS:
        assert spent <= 6, log
    else:
        print(f"the drag took {lasted} ms (a slow machine): the bound of six requests was not asserted")
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
