"""The layout settings in the demo, in headless Chromium: the postcards template's carousel (1.25
pages per view, 10 apart, centred) is drawn where the server's state puts its pages, at rest,
while a finger drags it and after the swipe, its neighbours peeking, and mirrored right to left;
its narrow tab bar is centred and its indicator inset as the state and the settings say."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from test_demo import browser, open_page, shot, state_of, wait_for  # noqa: F401 (fixtures)

PIXEL = 1


def settings_loaded(driver):
    """Whether the page has read the session's settings (a swipe is drawn from them)."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').some((e) => e.name.endsWith('/settings'));")


def drawn(driver):
    """The page cards as drawn, in CSS pixels (1 point each) from the viewport's left edge,
    {position: [left, width]}; the viewport's and the tab bar's widths; the tabs' and the
    indicator's [left, width] from the tab bar's left edge."""
    return driver.execute_script("""
        const box = (element) => element.getBoundingClientRect();
        const viewport = box(document.getElementById('viewport'));
        const bar = box(document.getElementById('tabbar'));
        const pages = {};
        for (const card of document.querySelectorAll('#track .page')) {
          const b = box(card);
          pages[card.dataset.position] = [b.left - viewport.left, b.width];
        }
        const tabs = [...document.querySelectorAll('.tab')].map((t) => [box(t).left - bar.left, box(t).width]);
        const indicator = [...document.querySelectorAll('.indicator-segment')].map((s) => [box(s).left - bar.left, box(s).width]);
        return {pages, viewport: viewport.width, bar: bar.width, tabs, indicator};""")


def on_screen(left, width, viewport):
    """How much of a card [left, left + width] lies within the viewport [0, viewport]."""
    return max(0.0, min(left + width, viewport) - max(left, 0.0))


def pages_follow(state, picture):
    """Whether every card the state shows (its current page, and each page in `visible`) is drawn
    at the state's geometry, left to right: page j at j·(pageSize + pageSpacing) − pageOffset,
    pageSize wide, showing the share of it `visible` says."""
    view = state["viewport"]
    stride = view["pageSize"] + view["pageSpacing"]
    for seen in state["visible"]:
        card = picture["pages"].get(str(seen["index"]))
        if card is None:
            return False
        left, width = card
        if abs(left - (seen["index"] * stride - state["pageOffset"])) > PIXEL or abs(width - view["pageSize"]) > PIXEL:
            return False
        if abs(on_screen(left, width, picture["viewport"]) - seen["fraction"] * view["pageSize"]) > PIXEL:
            return False
    return True


def test_the_postcards_carousel_follows_the_servers_geometry(pagerd, browser):
    base = f"http://127.0.0.1:{pagerd.port}/"
    sid = open_page(browser, f"{base}?template=postcards")
    wait_for(browser, lambda d: settings_loaded(d) and len(d.find_elements(By.CSS_SELECTOR, ".tab")) == 4)
    state = state_of(pagerd, sid)
    view = state["viewport"]
    assert (view["pagesPerView"], view["pageSpacing"], view["centered"], view["pageSize"]) == (1.25, 10, True, 310)
    settings = pagerd.json("GET", f"/v1/sessions/{sid}/settings")[2]
    assert settings["tabBar"]["alignment"] == "center"
    inset = settings["tabBar"]["indicator"]["inset"]
    assert (inset["leading"], inset["trailing"]) == (16, 16)

    # At rest: the first card 40 points in, its neighbour peeking 30 points (9.7% of it).
    wait_for(browser, lambda d: pages_follow(state, drawn(d)))
    picture = drawn(browser)
    assert picture["viewport"] == pytest.approx(390, abs=PIXEL)
    assert picture["pages"]["0"][0] == pytest.approx(40, abs=PIXEL)
    assert on_screen(*picture["pages"]["1"], picture["viewport"]) == pytest.approx(30, abs=PIXEL)
    assert [entry["index"] for entry in state["visible"]] == [0, 1]

    # The tab bar: the tabs where the state puts them, as much room left of the first as right of
    # the last (centred), and the indicator the current tab less the inset on each side.
    assert len(picture["tabs"]) == 4
    for (left, width), tab in zip(picture["tabs"], state["tabs"]):
        assert (left, width) == (pytest.approx(tab["x"], abs=PIXEL), pytest.approx(tab["width"], abs=PIXEL))
    first, last = picture["tabs"][0], picture["tabs"][-1]
    assert first[0] == pytest.approx(picture["bar"] - (last[0] + last[1]), abs=PIXEL) and first[0] > 30
    assert state["tabBar"] == {"layout": "scrollable", "contentWidth": 390, "offset": 0}
    tab, indicator = state["tabs"][0], state["indicator"]
    assert (indicator["x"] - tab["x"], tab["x"] + tab["width"] - indicator["x"] - indicator["width"]) == (16, 16)
    assert picture["indicator"] == [[pytest.approx(indicator["x"], abs=PIXEL), pytest.approx(indicator["width"], abs=PIXEL)]]
    shot(browser, "layouts-1-postcards")

    # Drag left by 192 px, 0.6 of a stride of 320, and hold: the server has the swipe in flight,
    # and the cards on the page are where its state puts them.
    viewport = browser.find_element(By.ID, "viewport")
    actions = ActionChains(browser, duration=50)
    actions.move_to_element_with_offset(viewport, 120, 0).click_and_hold()
    for _ in range(6):
        actions.move_by_offset(-32, 0)
    actions.perform()
    wait_for(browser, lambda d: (state_of(pagerd, sid).get("transition") or {}).get("progress") == pytest.approx(0.6, abs=0.01))
    state = state_of(pagerd, sid)
    assert state["transition"]["to"] == 1 and state["pageOffset"] == pytest.approx(-40 + 0.6 * 320, abs=0.5 * 320 * 0.01)
    wait_for(browser, lambda d: pages_follow(state, drawn(d)))
    picture = drawn(browser)
    assert {entry["index"] for entry in state["visible"]} == {0, 1}
    assert picture["pages"]["1"][0] == pytest.approx(320 - state["pageOffset"], abs=PIXEL)
    wait_for(browser, lambda d: abs(drawn(d)["indicator"][0][0] - state["indicator"]["x"]) < PIXEL)
    shot(browser, "layouts-2-postcards-dragging")

    # Let go past half way: the second card comes to the middle, both neighbours peeking.
    ActionChains(browser).release().perform()
    wait_for(browser, lambda d: state_of(pagerd, sid)["index"] == 1 and state_of(pagerd, sid)["transition"] is None)
    state = state_of(pagerd, sid)
    assert state["pageOffset"] == 280
    assert [entry["index"] for entry in state["visible"]] == [1, 0, 2]
    wait_for(browser, lambda d: pages_follow(state, drawn(d)))
    picture = drawn(browser)
    assert picture["pages"]["1"][0] == pytest.approx(40, abs=PIXEL)
    for neighbour in ("0", "2"):
        assert on_screen(*picture["pages"][neighbour], picture["viewport"]) == pytest.approx(30, abs=PIXEL)
    tab, indicator = state["tabs"][1], state["indicator"]
    assert (indicator["x"], indicator["width"]) == (tab["x"] + 16, tab["width"] - 32)
    wait_for(browser, lambda d: drawn(d)["indicator"]
             == [[pytest.approx(indicator["x"], abs=PIXEL), pytest.approx(indicator["width"], abs=PIXEL)]])
    shot(browser, "layouts-3-postcards-released")

    # Right to left the server mirrors the page offsets: the current card stays in the middle, the
    # first card now on its right, each neighbour showing the share `visible` says.
    def mirrored(state, current_left):
        def check(driver):
            picture = drawn(driver)
            pages = picture["pages"]
            if not all(str(entry["index"]) in pages for entry in state["visible"]):
                return False
            shares = all(abs(on_screen(*pages[str(e["index"])], picture["viewport"]) - e["fraction"] * 310) <= PIXEL
                         for e in state["visible"])
            return shares and abs(pages["1"][0] - current_left) <= PIXEL and pages["0"][0] > pages["1"][0] > pages["2"][0]
        return check

    browser.find_element(By.ID, "direction").click()
    wait_for(browser, lambda d: state_of(pagerd, sid)["layoutDirection"] == "rtl")
    wait_for(browser, mirrored(state_of(pagerd, sid), 40))
    shot(browser, "layouts-4-postcards-rtl")
    # Not centred, in a loop (the page learns of it from the event stream): the current card at the
    # viewport's leading edge, the right, 80 points in; the next one shows 70 points on its left.
    assert pagerd.json("PATCH", f"/v1/sessions/{sid}", {"mode": "loop", "viewport": {"centered": None}})[0] == 200
    state = state_of(pagerd, sid)
    assert [(entry["index"], round(entry["fraction"] * 310)) for entry in state["visible"]] == [(1, 310), (2, 70)]
    wait_for(browser, mirrored(state, 80))
    shot(browser, "layouts-5-postcards-rtl-loop")

    # The device still fits a phone's 420 px window.
    browser.set_window_size(420, 900)
    wait_for(browser, lambda d: d.execute_script("return window.innerWidth") == 420)
    sizes = browser.execute_script("""
        const device = document.getElementById('device').getBoundingClientRect();
        return {scroll: document.scrollingElement.scrollWidth, client: document.documentElement.clientWidth,
                left: device.left, right: device.right};""")
    assert sizes["scroll"] <= sizes["client"] and sizes["left"] >= 0 and sizes["right"] <= sizes["client"], sizes
