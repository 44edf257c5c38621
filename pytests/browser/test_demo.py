"""The demo web client in real headless Chromium, driven by Selenium, against the release binary."""
import json
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from demo_page import current_tab, start_browser, wait_for  # noqa: F401 (the other tests import them from here)

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


@pytest.fixture
def browser():
    driver = start_browser()
    yield driver
    driver.quit()


@pytest.fixture
def second_browser():
    """Another browser, as a second person (or window) watching the same session."""
    driver = start_browser()
    yield driver
    driver.quit()


def state_of(server, sid):
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/v1/sessions/{sid}") as response:
        return json.loads(response.read())


def page_version(driver):
    """The version of the state the demo page shows."""
    return int(driver.find_element(By.ID, "fact-version").text or 0)


def shot(driver, name):
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def indicator_left(driver):
    """The first indicator segment's left edge in tab-bar points (1 point = 1 CSS pixel)."""
    return driver.execute_script("""
        const seg = document.querySelector('.indicator-segment');
        const bar = document.getElementById('tabbar');
        return seg.getBoundingClientRect().left - bar.getBoundingClientRect().left;""")


def session_of(driver):
    """The id of the session the page shows ("" until one is open)."""
    return driver.find_element(By.ID, "pager").get_attribute("data-session")


def open_page(driver, url):
    """Loads the demo at `url` and waits until it shows a session (it opens one at once)."""
    driver.get(url)
    return wait_for(driver, session_of)


def create_in_page(browser, template):
    """Picks `template` in the page's form, creates a session from it, and answers its id once
    the page shows it (the page opens a session of its own on load, which this one replaces)."""
    wait_for(browser, lambda d: len(Select(d.find_element(By.ID, "template")).options) == 6 and session_of(d))
    before = session_of(browser)
    Select(browser.find_element(By.ID, "template")).select_by_value(template)
    browser.find_element(By.ID, "create-button").click()
    return wait_for(browser, lambda d: session_of(d) if session_of(d) != before else None)


def live_region(driver):
    return driver.find_element(By.ID, "announcer").get_attribute("aria-live")


def auto_control(driver):
    """The auto-advance control's data attributes (enabled, running, paused, pausedBy)."""
    box = driver.find_element(By.ID, "auto-advance")
    return {name: box.get_attribute(f"data-{name}") for name in ("enabled", "running", "paused", "paused-by")}


def test_mall_drag_tap_and_second_window(pagerd, browser):
    base = f"http://127.0.0.1:{pagerd.port}/"
    browser.get(base)
    sid = create_in_page(browser, "mall")
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tab")) == 3)
    state = state_of(pagerd, sid)
    assert (state["index"], state["mode"]) == (0, "loop")
    assert [t.text for t in browser.find_elements(By.CSS_SELECTOR, ".tab")] == ["상품", "최근 본 상품", "찜"]
    assert indicator_left(browser) == pytest.approx(0, abs=0.5)
    shot(browser, "1-created")

    # Drag left by 0.3 of the page width and hold: the server has a transition in flight and the
    # indicator on screen is where the server says.
    viewport = browser.find_element(By.ID, "viewport")
    actions = ActionChains(browser, duration=50)
    actions.move_to_element_with_offset(viewport, 150, 0).click_and_hold()  # start near the right edge
    for _ in range(6):
        actions.move_by_offset(-39, 0)  # 6 × 39 = 234 px of a 390 px page: progress 0.6
    actions.perform()
    wait_for(browser, lambda d: (state_of(pagerd, sid).get("transition") or {}).get("progress") == pytest.approx(0.6, abs=0.01))
    state = state_of(pagerd, sid)
    assert state["transition"]["to"] == 1 and state["transition"]["direction"] == "forward"
    wait_for(browser, lambda d: abs(indicator_left(d) - state["indicator"]["x"]) < 1)
    assert indicator_left(browser) == pytest.approx(state["indicator"]["x"], abs=1)
    assert state["indicator"]["x"] == pytest.approx(130 * 0.6, abs=1e-6)
    shot(browser, "2-dragging")

    # Release past half: the page changes.
    ActionChains(browser).release().perform()
    wait_for(browser, lambda d: state_of(pagerd, sid)["index"] == 1 and state_of(pagerd, sid)["transition"] is None)
    wait_for(browser, lambda d: abs(indicator_left(d) - 130) < 1)
    shot(browser, "3-released")

    # The server's accessibility descriptors are the tabs' ARIA attributes.
    tabs = browser.find_elements(By.CSS_SELECTOR, ".tab")
    assert [t.get_attribute("role") for t in tabs] == ["tab", "tab", "tab"]
    wait_for(browser, lambda d: [t.get_attribute("aria-selected") for t in d.find_elements(By.CSS_SELECTOR, ".tab")]
             == ["false", "true", "false"])
    assert browser.find_elements(By.CSS_SELECTOR, ".tab")[1].get_attribute("aria-label") == "최근 본 상품, Tab 2 of 3"
    browser.find_element(By.ID, "next").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "announcer").get_attribute("textContent") == "찜, Page 3 of 3")
    browser.find_element(By.ID, "previous").click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["index"] == 1)

    # Open a second window on the same session; it follows the first one live.
    browser.switch_to.new_window("window")
    browser.get(f"{base}?session={sid}")
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tab.current")) == 1)
    assert browser.find_element(By.CSS_SELECTOR, ".tab.current").text == "최근 본 상품"
    second = browser.current_window_handle
    first = [h for h in browser.window_handles if h != second][0]

    # Tap a tab in the first window: the jump animates through its keyframes and lands.
    browser.switch_to.window(first)
    browser.find_elements(By.CSS_SELECTOR, ".tab")[2].click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["index"] == 2)
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".tab.current").text == "찜")
    wait_for(browser, lambda d: abs(indicator_left(d) - 260) < 1)
    shot(browser, "4-tapped")

    browser.switch_to.window(second)
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".tab.current").text == "찜")
    wait_for(browser, lambda d: d.find_element(By.ID, "fact-version").text == str(state_of(pagerd, sid)["version"]))
    shot(browser, "5-second-window")


def test_piggybank_empty_state_and_posepicker_stack(pagerd, browser):
    browser.get(f"http://127.0.0.1:{pagerd.port}/")
    sid = create_in_page(browser, "piggybank")
    wait_for(browser, lambda d: d.find_element(By.ID, "empty-title").text == "Create your first bottle")
    shot(browser, "6-piggybank-empty")
    browser.find_element(By.ID, "empty-action").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "trailing").is_displayed())
    assert browser.find_element(By.ID, "trailing").text == "Add a bottle"
    browser.find_element(By.ID, "trailing").click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["pageCount"] == 2)

    sid = create_in_page(browser, "posepicker")
    wait_for(browser, lambda d: [t.text for t in d.find_elements(By.CSS_SELECTOR, ".tab")] == ["포즈픽", "포즈톡", "포즈피드"])
    browser.find_element(By.ID, "push").click()
    wait_for(browser, lambda d: "Screen 1" in d.find_element(By.ID, "track").text)
    assert state_of(pagerd, sid)["page"]["stack"] == [{"id": "screen-1", "title": "Screen 1"}]
    shot(browser, "7-posepicker-pushed")
    browser.find_element(By.ID, "pop").click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["page"]["stack"] == [])


def drag(browser, start, steps, step):
    """Presses at `start` (offset from the viewport's centre), moves `steps` times by `step` and
    holds; the caller releases."""
    viewport = browser.find_element(By.ID, "viewport")
    actions = ActionChains(browser, duration=50)
    actions.move_to_element_with_offset(viewport, *start).click_and_hold()
    for _ in range(steps):
        actions.move_by_offset(*step)
    actions.perform()


def tab_lefts(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll('.tab')].map(t => parseFloat(t.style.left));")


def test_right_to_left_vertical_and_a_pull_past_the_last_bottle(pagerd, browser):
    browser.get(f"http://127.0.0.1:{pagerd.port}/")
    sid = create_in_page(browser, "media")
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tab")) == 3)

    # Right to left: the first tab is drawn on the right, and dragging right goes forward.
    browser.find_element(By.ID, "direction").click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["layoutDirection"] == "rtl")
    wait_for(browser, lambda d: tab_lefts(d) == [260, 130, 0])
    wait_for(browser, lambda d: abs(indicator_left(d) - 260) < 1)
    drag(browser, (-150, 0), 6, (39, 0))  # 234 px to the right: progress 0.6
    wait_for(browser, lambda d: (state_of(pagerd, sid).get("transition") or {}).get("progress") == pytest.approx(0.6, abs=0.01))
    state = state_of(pagerd, sid)
    assert state["transition"]["direction"] == "forward" and state["pageOffset"] == pytest.approx(780 - 234, abs=1e-6)
    wait_for(browser, lambda d: abs(indicator_left(d) - state["indicator"]["x"]) < 1)
    shot(browser, "8-rtl-dragging")
    ActionChains(browser).release().perform()
    wait_for(browser, lambda d: state_of(pagerd, sid)["index"] == 1 and state_of(pagerd, sid)["transition"] is None)
    # The page holds that state too before the next control is used (it sends If-Match).
    wait_for(browser, lambda d: page_version(d) == state_of(pagerd, sid)["version"])

    # Vertical, 420 points a page: the track moves up by the page offset, and dragging up goes forward.
    browser.find_element(By.ID, "orientation").click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["orientation"] == "vertical")
    assert state_of(pagerd, sid)["viewport"] == {"width": 390, "height": 420}
    wait_for(browser, lambda d: "translateY(-420px)" in d.find_element(By.ID, "track").get_attribute("style"))
    drag(browser, (0, 150), 6, (0, -42))  # 252 px up: progress 0.6
    wait_for(browser, lambda d: (state_of(pagerd, sid).get("transition") or {}).get("to") == 2)
    ActionChains(browser).release().perform()
    wait_for(browser, lambda d: state_of(pagerd, sid)["index"] == 2)
    wait_for(browser, lambda d: "translateY(-840px)" in d.find_element(By.ID, "track").get_attribute("style"))
    shot(browser, "9-vertical")

    # PiggyBank with a rubber band: pulling past the last bottle bounces, and letting go past half
    # a page (the release rule: past half way, or a flick) asks for a new bottle, which the page
    # adds and shows.
    bank = create_in_page(browser, "piggybank")
    wait_for(browser, lambda d: d.find_element(By.ID, "empty-action").is_displayed())
    browser.find_element(By.ID, "empty-action").click()
    wait_for(browser, lambda d: state_of(pagerd, bank)["pageCount"] == 1)
    browser.find_element(By.ID, "rubber-band").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "rubber-band").get_attribute("aria-pressed") == "true")
    drag(browser, (150, 0), 6, (-39, 0))  # 234 px left past the end: progress 0.6
    wait_for(browser, lambda d: (state_of(pagerd, bank).get("overscroll") or {}).get("progress") == pytest.approx(0.6, abs=0.01))
    assert state_of(pagerd, bank)["overscroll"]["edge"] == "end"
    wait_for(browser, lambda d: "translateX(-234px)" in d.find_element(By.ID, "track").get_attribute("style")
             or "translateX(-234." in d.find_element(By.ID, "track").get_attribute("style"))
    shot(browser, "10-piggybank-pulled")
    ActionChains(browser).release().perform()
    wait_for(browser, lambda d: state_of(pagerd, bank)["pageCount"] == 2 and state_of(pagerd, bank)["index"] == 1)
    assert state_of(pagerd, bank)["overscroll"] is None
    shot(browser, "11-piggybank-new-bottle")


def test_client_module_commands_conflicts_and_events(pagerd, browser):
    """web/pagerd.js, the module for web apps, in a real browser: a command that meets another
    client's change (412) is not sent again behind the caller's back: it fails with
    version_mismatch, carrying the current state, which the session keeps; sent again by the
    caller, it applies. Events reach the session's state (with their cause), and following again
    resumes from the version held."""
    browser.get(f"http://127.0.0.1:{pagerd.port}/")
    browser.set_script_timeout(20)
    result = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const until = async (condition) => {
          for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
          return condition();
        };
        (async () => {
          const { PagerdClient, PagerdError } = await import('/demo/pagerd.js');
          const client = new PagerdClient();
          const a = await client.create({ template: "media" });
          const b = await client.open(a.id);
          const log = {};
          await b.next();                        // version 2, by another client
          try { await a.next(); } catch (error) { // sent at version 1: 412, nothing changed
            log.conflict = [error instanceof PagerdError, error.status, error.code, error.state.version, error.state.index, a.version];
          }
          const again = await a.next();          // the caller's choice: sent at version 2
          log.again = [again.version, again.index, a.version];
          const changes = [];
          a.addEventListener("change", (e) => changes.push([e.detail.kind, e.detail.state.version, e.detail.cause]));
          const opened = new Promise((resolve) => a.addEventListener("open", resolve, { once: true }));
          a.follow();
          await opened;                          // subscribed: every change from here is seen
          await b.refresh();                     // b reads version 3 (not followed: no events)
          await b.previous();                    // version 4, seen through a's stream
          log.followed = await until(() => a.version === 4);
          a.unfollow();
          await b.next();                        // version 5, while a does not follow
          a.follow();                            // resumes from version 4: the state event brings 5
          log.resumed = await until(() => a.version === 5);
          log.changes = changes;
          try { await a.select(9); } catch (error) {
            log.error = [error instanceof PagerdError, error.status, error.code, error.field];
          }
          a.unfollow();
          done(log);
        })().catch((error) => done({ failure: String(error) }));
    """)
    assert "failure" not in result, result
    assert result["conflict"] == [True, 412, "version_mismatch", 2, 1, 2]
    assert result["again"] == [3, 2, 3]
    assert result["followed"] is True and result["resumed"] is True
    assert result["changes"][0] == ["pageChanged", 4, "request"]
    assert result["changes"][-1][:2] == ["state", 5]
    assert result["error"] == [True, 422, "index_out_of_range", "index"]


def css_colour(hex_rgba):
    """A state colour "#RRGGBBAA" as Chromium writes it back from element.style.color."""
    r, g, b, a = (int(hex_rgba[i:i + 2], 16) for i in (1, 3, 5, 7))
    return f"rgb({r}, {g}, {b})" if a == 255 else f"rgba({r}, {g}, {b}, {round(a / 255, 2)})"


def test_page_opens_a_session_at_once_with_the_servers_accessibility(pagerd, browser, second_browser):
    """Loading the page creates a session from the first template (nothing to click first);
    ?session=ID joins it from another browser; the server's descriptors are the page's ARIA."""
    base = f"http://127.0.0.1:{pagerd.port}/"
    sid = open_page(browser, base)
    assert browser.execute_script("return new URLSearchParams(location.search).get('session')") == sid
    state = state_of(pagerd, sid)
    first = Select(browser.find_element(By.ID, "template")).options[0].get_attribute("value")
    assert state["pageCount"] == 3 and first == "mall"
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tab")) == 3)

    # The tab list, its tabs and their state, from tabs[i].accessibility.
    assert browser.find_element(By.ID, "tabstrip").get_attribute("role") == "tablist"
    tabs = browser.find_elements(By.CSS_SELECTOR, ".tab")
    for tab, described in zip(tabs, state["tabs"]):
        access = described["accessibility"]
        assert tab.get_attribute("role") == "tab"
        assert tab.get_attribute("aria-selected") == str(access["selected"]).lower()
        assert tab.get_attribute("aria-label") == f"{access['label']}, {access['value']}"
        assert tab.get_attribute("tabindex") == ("0" if access["selected"] else "-1")
    # The pager's value, its keys, and the live region's politeness.
    assert browser.find_element(By.ID, "pager-value").text == state["accessibility"]["pager"]["value"] == "Page 1 of 3"
    assert browser.find_element(By.ID, "viewport").get_attribute("aria-keyshortcuts") == "ArrowRight ArrowLeft"
    assert live_region(browser) == state["accessibility"]["liveRegion"] == "polite"
    current = browser.find_elements(By.CSS_SELECTOR, "#track .page:not([aria-hidden])")
    assert [c.get_attribute("aria-label") for c in current] == ["상품"]

    # The arrow key on the focused pager is its increment action (next).
    browser.find_element(By.ID, "viewport").send_keys(Keys.ARROW_RIGHT)
    wait_for(browser, lambda d: state_of(pagerd, sid)["index"] == 1)
    wait_for(browser, lambda d: d.find_element(By.ID, "pager-value").text == "Page 2 of 3")

    # Another browser joins the session from the address, and sees a change made in the first
    # one through the event stream, read out through its live region.
    assert open_page(second_browser, f"{base}?session={sid}") == sid
    wait_for(second_browser, lambda d: current_tab(d) == 1)
    browser.find_element(By.ID, "next").click()
    wait_for(second_browser, lambda d: current_tab(d) == 2)
    wait_for(second_browser, lambda d: d.find_element(By.ID, "announcer").get_attribute("textContent") == "찜, Page 3 of 3")
    entry = second_browser.find_element(By.CSS_SELECTOR, "#event-log li")
    assert (entry.get_attribute("data-kind"), entry.get_attribute("data-cause"), entry.get_attribute("data-index")) \
        == ("pageChanged", "request", "2")


def test_title_colours_scale_and_fade(pagerd, browser):
    """Title colours and scales (tabBar.title) and the fade indicator's alpha are drawn as the
    server computes them during a swipe."""
    browser.get(f"http://127.0.0.1:{pagerd.port}/")
    sid = create_in_page(browser, "media")
    browser.find_element(By.ID, "title-colors").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "title-colors").get_attribute("aria-pressed") == "true")
    browser.find_element(By.ID, "fade").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "fade").get_attribute("aria-pressed") == "true")

    drag(browser, (150, 0), 4, (-39, 0))  # 156 px of 390: progress 0.4
    wait_for(browser, lambda d: (state_of(pagerd, sid).get("transition") or {}).get("progress") == pytest.approx(0.4, abs=0.01))
    state = state_of(pagerd, sid)
    assert state["indicator"]["alpha"] == pytest.approx(0.2, abs=0.03)  # |1 - 2f|

    def drawn(d):
        return d.execute_script("""
            return {
              colours: [...document.querySelectorAll('.tab')].map(t => t.style.color),
              scales: [...document.querySelectorAll('.tab .label')].map(l => l.style.transform),
              alpha: parseFloat(document.getElementById('indicator').style.opacity),
              version: document.getElementById('fact-version').textContent };""")

    wait_for(browser, lambda d: drawn(d)["version"] == str(state["version"]))
    shown = drawn(browser)
    assert shown["colours"] == [css_colour(t["color"]) for t in state["tabs"]]
    assert shown["scales"] == [f"scale({t['scale']})" for t in state["tabs"]]
    assert shown["alpha"] == pytest.approx(state["indicator"]["alpha"], abs=1e-6)
    shot(browser, "12-title-colours-fade")

    # Let go before half way: the swipe is cancelled, and at rest the current tab has the
    # selected colour and scale, the others the plain ones.
    ActionChains(browser).release().perform()
    wait_for(browser, lambda d: state_of(pagerd, sid)["transition"] is None)
    wait_for(browser, lambda d: drawn(d)["alpha"] == 1)
    assert state_of(pagerd, sid)["index"] == 0
    wait_for(browser, lambda d: drawn(d)["scales"] == ["scale(1)", "scale(0.85)", "scale(0.85)"])
    assert drawn(browser)["colours"] == ["rgb(0, 96, 223)", "rgb(84, 84, 88)", "rgb(84, 84, 88)"]


def test_two_browsers_see_an_auto_advance_tick(pagerd, browser, second_browser):
    """Two browsers on one session: auto-advance started from one page's control turns the page
    in both, through an event whose cause is autoAdvance (docs/api.md, «Auto-advance»)."""
    base = f"http://127.0.0.1:{pagerd.port}/"
    # Two pages and atEnd "stop": the first tick lands on the far end and halts in the same
    # change, so index 1 is where both pages stay.
    status, _, created = pagerd.json("POST", "/v1/sessions", {
        "pages": [{"id": "one", "title": "One", "content": {"color": "#F2994A"}},
                  {"id": "two", "title": "Two", "content": {"color": "#56CCF2"}}],
        "autoAdvance": {"enabled": False, "interval": 1000, "atEnd": "stop"}})
    assert status == 201, created
    sid = created["id"]
    for driver in (browser, second_browser):
        assert open_page(driver, f"{base}?session={sid}") == sid
        wait_for(driver, lambda d: d.find_element(By.ID, "auto-advance").is_displayed() and current_tab(d) == 0)
        assert auto_control(driver)["enabled"] == "false"
        assert "every 1000 ms" in driver.find_element(By.ID, "auto-status").text

    browser.find_element(By.ID, "auto-start").click()
    # The start reaches the other browser too: the timer runs, and the live region goes quiet.
    for driver in (browser, second_browser):
        wait_for(driver, lambda d: auto_control(d)["running"] == "true" or current_tab(d) == 1)

    for driver in (browser, second_browser):
        wait_for(driver, lambda d: current_tab(d) == 1 and d.find_element(By.ID, "pager").get_attribute("data-last-cause") == "autoAdvance")
        ticks = [(li.get_attribute("data-kind"), li.get_attribute("data-index"))
                 for li in driver.find_elements(By.CSS_SELECTOR, "#event-log li[data-cause='autoAdvance']")]
        assert ticks == [("pageChanged", "1")]
        wait_for(driver, lambda d: d.find_element(By.ID, "announcer").get_attribute("textContent") == "Two, Page 2 of 2")
        # The tick halted the timer at the far end: the control says so, and the region is polite.
        wait_for(driver, lambda d: auto_control(d)["enabled"] == "false" and live_region(d) == "polite")
        assert driver.find_element(By.ID, "pager-value").text == "Page 2 of 2"
    state = state_of(pagerd, sid)
    assert state["index"] == 1 and state["autoAdvance"]["enabled"] is False and state["autoAdvance"]["running"] is False
    shot(browser, "13-auto-advance-tick")


def test_auto_advance_control_pauses_resumes_and_stops(pagerd, browser):
    """Pause from the page is a control pause (the live region turns polite); resume runs the
    timer again (silent region); stop halts it; a new interval is sent and kept."""
    status, _, created = pagerd.json("POST", "/v1/sessions", {
        "template": "media", "autoAdvance": {"enabled": True, "interval": 60000}})
    assert status == 201, created
    sid = created["id"]
    open_page(browser, f"http://127.0.0.1:{pagerd.port}/?session={sid}")
    wait_for(browser, lambda d: d.find_element(By.ID, "auto-advance").is_displayed())
    assert auto_control(browser) == {"enabled": "true", "running": "true", "paused": "false", "paused-by": ""}
    assert live_region(browser) == "off"
    assert "Running" in browser.find_element(By.ID, "auto-status").text
    assert "every 60000 ms" in browser.find_element(By.ID, "auto-status").text

    browser.find_element(By.ID, "auto-pause").click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["autoAdvance"]["paused"] is True)
    auto = state_of(pagerd, sid)["autoAdvance"]
    assert (auto["pausedBy"], auto["running"], auto["dueAt"]) == ("control", True, None)
    assert 0 < auto["remaining"] <= 60000
    assert state_of(pagerd, sid)["accessibility"]["liveRegion"] == "polite"
    wait_for(browser, lambda d: auto_control(d)["paused-by"] == "control" and live_region(d) == "polite")
    assert "Paused by control" in browser.find_element(By.ID, "auto-status").text
    assert browser.find_element(By.ID, "auto-pause").get_attribute("disabled") is not None
    shot(browser, "14-auto-advance-paused")

    browser.find_element(By.ID, "auto-resume").click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["autoAdvance"]["paused"] is False)
    auto = state_of(pagerd, sid)["autoAdvance"]
    assert (auto["running"], auto["pausedBy"], auto["remaining"]) == (True, None, None) and auto["dueAt"] is not None
    wait_for(browser, lambda d: auto_control(d)["paused"] == "false" and live_region(d) == "off")

    browser.find_element(By.ID, "auto-stop").click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["autoAdvance"]["enabled"] is False)
    wait_for(browser, lambda d: auto_control(d)["enabled"] == "false" and live_region(d) == "polite")

    # A new interval is sent when the field changes; it does not switch the timer back on.
    field = browser.find_element(By.ID, "auto-interval")
    field.clear()
    field.send_keys("2500", Keys.TAB)
    wait_for(browser, lambda d: state_of(pagerd, sid)["autoAdvance"]["interval"] == 2500)
    assert state_of(pagerd, sid)["autoAdvance"]["enabled"] is False


def axe_violations(driver):
    """Runs axe-core (the copy bundled in the axe-core-python package) on the page; answers its
    violations, each with the rule, its impact, and the elements at fault."""
    from importlib import resources

    source = resources.files("axe_core_python").joinpath("axe.min.js").read_text(encoding="utf-8")
    driver.execute_script(source)
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document).then(
          (results) => done(results.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })) }))),
          (error) => done({ error: String(error) }));""")
    assert not isinstance(result, dict), result
    return result


def assert_accessible(driver, when):
    violations = axe_violations(driver)
    report = "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n" + "\n".join(f"    {n['target']}: {n['summary']}" for n in v["nodes"])
        for v in violations)
    assert violations == [], f"axe-core found {len(violations)} violation(s) {when}:\n{report}"


def test_axe_finds_no_violations(pagerd, browser):
    """axe-core checks the page in several states; any violation fails the test and is printed."""
    base = f"http://127.0.0.1:{pagerd.port}/"
    browser.set_script_timeout(30)
    open_page(browser, base)
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tab")) == 3)
    assert_accessible(browser, "on the page as it opens")

    # Title colours, a jump, a pushed screen, and right to left.
    sid = create_in_page(browser, "posepicker")
    browser.find_element(By.ID, "title-colors").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "title-colors").get_attribute("aria-pressed") == "true")
    browser.find_elements(By.CSS_SELECTOR, ".tab")[2].click()
    wait_for(browser, lambda d: current_tab(d) == 2 and state_of(pagerd, sid)["index"] == 2)
    browser.find_element(By.ID, "push").click()
    wait_for(browser, lambda d: "Screen 1" in d.find_element(By.ID, "track").text)
    browser.find_element(By.ID, "direction").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "direction").get_attribute("aria-pressed") == "true")
    assert_accessible(browser, "with title colours, a pushed screen and right to left")

    # The empty state, then a bottle with the trailing action.
    create_in_page(browser, "piggybank")
    wait_for(browser, lambda d: d.find_element(By.ID, "empty-action").is_displayed())
    assert_accessible(browser, "on an empty pager")
    browser.find_element(By.ID, "empty-action").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "trailing").is_displayed())
    assert_accessible(browser, "with a trailing action")

    # With the auto-advance control shown, paused.
    status, _, created = pagerd.json("POST", "/v1/sessions", {"template": "media", "autoAdvance": {"enabled": True}})
    assert status == 201
    open_page(browser, f"{base}?session={created['id']}")
    wait_for(browser, lambda d: d.find_element(By.ID, "auto-advance").is_displayed())
    browser.find_element(By.ID, "auto-pause").click()
    wait_for(browser, lambda d: auto_control(d)["paused-by"] == "control")
    assert_accessible(browser, "with the auto-advance control")


def test_the_page_fits_a_phone(pagerd, browser):
    """At a phone's width (420 and 360 CSS px) nothing widens the page past the window: the template
    picker shrinks to the header; at 420 px the whole 390-point device is on screen."""
    for width in (420, 360):
        browser.set_window_size(width, 900)
        open_page(browser, f"http://127.0.0.1:{pagerd.port}/?template=posepicker")
        wait_for(browser, lambda d: len(Select(d.find_element(By.ID, "template")).options) == 6)
        sizes = browser.execute_script("""
            const device = document.getElementById('device').getBoundingClientRect();
            return {scroll: document.scrollingElement.scrollWidth, client: document.documentElement.clientWidth,
                    window: window.innerWidth, deviceLeft: device.left, deviceRight: device.right,
                    picker: document.getElementById('template').getBoundingClientRect().right};""")
        shot(browser, f"phone-{width}")
        assert sizes["window"] == width
        assert sizes["scroll"] <= sizes["client"] <= width, sizes
        assert sizes["picker"] <= sizes["client"], sizes
        if width == 420:
            assert sizes["deviceLeft"] >= 0 and sizes["deviceRight"] <= sizes["client"], sizes
