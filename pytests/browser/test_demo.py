"""The demo web client in real headless Chromium, driven by Selenium, against the release binary."""
import json
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


@pytest.fixture
def browser():
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,900"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def state_of(server, sid):
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/v1/sessions/{sid}") as response:
        return json.loads(response.read())


def wait_for(driver, condition, timeout=10):
    # Every render rebuilds the tabs and pages, so an element found a moment ago may be gone.
    wait = WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException])
    return wait.until(lambda d: condition(d))


def shot(driver, name):
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def indicator_left(driver):
    """The first indicator segment's left edge in tab-bar points (1 point = 1 CSS pixel)."""
    return driver.execute_script("""
        const seg = document.querySelector('.indicator-segment');
        const bar = document.getElementById('tabbar');
        return seg.getBoundingClientRect().left - bar.getBoundingClientRect().left;""")


def create_in_page(browser, template):
    """Picks `template` in the page's form and creates a session from it."""
    wait_for(browser, lambda d: len(Select(d.find_element(By.ID, "template")).options) == 5)
    Select(browser.find_element(By.ID, "template")).select_by_value(template)
    browser.find_element(By.ID, "create-button").click()


def test_mall_drag_tap_and_second_window(pagerd, browser):
    base = f"http://127.0.0.1:{pagerd.port}/"
    browser.get(base)
    create_in_page(browser, "mall")
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tab")) == 3)
    sid = browser.execute_script("return location.hash").split("=", 1)[1]
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
    browser.get(f"{base}#session={sid}")
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
    create_in_page(browser, "piggybank")
    wait_for(browser, lambda d: d.find_element(By.ID, "empty-title").text == "Create your first bottle")
    shot(browser, "6-piggybank-empty")
    browser.find_element(By.ID, "empty-action").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "trailing").is_displayed())
    assert browser.find_element(By.ID, "trailing").text == "Add a bottle"
    browser.find_element(By.ID, "trailing").click()
    sid = browser.execute_script("return location.hash").split("=", 1)[1]
    wait_for(browser, lambda d: state_of(pagerd, sid)["pageCount"] == 2)

    create_in_page(browser, "posepicker")
    wait_for(browser, lambda d: [t.text for t in d.find_elements(By.CSS_SELECTOR, ".tab")] == ["포즈픽", "포즈톡", "포즈피드"])
    sid = browser.execute_script("return location.hash").split("=", 1)[1]
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
    create_in_page(browser, "media")
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".tab")) == 3)
    sid = browser.execute_script("return location.hash").split("=", 1)[1]

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

    # PiggyBank with a rubber band: pulling past the last bottle bounces, and letting go asks for
    # a new bottle, which the page adds and shows.
    create_in_page(browser, "piggybank")
    wait_for(browser, lambda d: d.find_element(By.ID, "empty-action").is_displayed())
    bank = browser.execute_script("return location.hash").split("=", 1)[1]
    browser.find_element(By.ID, "empty-action").click()
    wait_for(browser, lambda d: state_of(pagerd, bank)["pageCount"] == 1)
    browser.find_element(By.ID, "rubber-band").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "rubber-band").get_attribute("aria-pressed") == "true")
    drag(browser, (150, 0), 6, (-26, 0))  # 156 px left past the end: progress 0.4
    wait_for(browser, lambda d: (state_of(pagerd, bank).get("overscroll") or {}).get("progress") == pytest.approx(0.4, abs=0.01))
    assert state_of(pagerd, bank)["overscroll"]["edge"] == "end"
    wait_for(browser, lambda d: "translateX(-156px)" in d.find_element(By.ID, "track").get_attribute("style")
             or "translateX(-156." in d.find_element(By.ID, "track").get_attribute("style"))
    shot(browser, "10-piggybank-pulled")
    ActionChains(browser).release().perform()
    wait_for(browser, lambda d: state_of(pagerd, bank)["pageCount"] == 2 and state_of(pagerd, bank)["index"] == 1)
    assert state_of(pagerd, bank)["overscroll"] is None
    shot(browser, "11-piggybank-new-bottle")


def test_client_module_commands_retries_and_events(pagerd, browser):
    """web/pagerd.js, the module for web apps, in a real browser: a command that meets another
    client's change (412) is sent again at the newer version, events reach the session's state
    (with their cause), and following again resumes from the version held."""
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
          const retried = await a.next();        // sent at version 1: 412, read again, sent at 2
          log.retried = [retried.version, retried.index, a.version];
          const changes = [];
          a.addEventListener("change", (e) => changes.push([e.detail.kind, e.detail.state.version, e.detail.cause]));
          a.follow();
          await new Promise((r) => setTimeout(r, 300));
          await b.previous();                    // version 4, seen through the stream
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
    assert result["retried"] == [3, 2, 3]
    assert result["followed"] is True and result["resumed"] is True
    assert result["changes"][0] == ["pageChanged", 4, "request"]
    assert result["changes"][-1][:2] == ["state", 5]
    assert result["error"] == [True, 422, "index_out_of_range", "index"]
