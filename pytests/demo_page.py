"""The demo page in headless Chromium, for the browser tests and bench/swipe.py: the browser,
waiting on the page, the tab drawn as current, the 400 ms drag, and the swipe requests a server
has answered."""
import re
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

SWIPE_ROUTES = ("/v1/sessions/{id}/scroll", "/v1/sessions/{id}/transition")


def start_browser():
    """A headless Chromium driven by chromedriver (Debian's packages)."""
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,900"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


def wait_for(driver, condition, timeout=10):
    # Every render rebuilds the tabs and pages, so an element found a moment ago may be gone.
    wait = WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException])
    return wait.until(lambda d: condition(d))


def current_tab(driver):
    """The index of the tab drawn as the current one, or None."""
    tabs = driver.find_elements(By.CSS_SELECTOR, ".tab.current")
    return int(tabs[0].get_attribute("data-index")) if len(tabs) == 1 else None


def drag_400_ms(driver):
    """Drags the page left and lets go: 24 moves of 9 px, each one tick of the browser's input (one
    frame, about 16.7 ms), so a 400 ms drag of 216 px (0.55 of a 390 px page), released at speed."""
    actions = ActionChains(driver, duration=0)
    actions.move_to_element_with_offset(driver.find_element(By.ID, "viewport"), 150, 0).click_and_hold()
    for _ in range(24):
        actions.move_by_offset(-9, 0)
    actions.release()
    actions.perform()


def swipe_requests(server):
    """How many scroll and transition requests the server has answered, from /metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics") as response:
        text = response.read().decode()
    total = 0
    for route in SWIPE_ROUTES:
        match = re.search(r'pagerd_http_request_duration_seconds_count\{route="' + re.escape(route) + r'"\} (\d+)', text)
        total += int(match.group(1)) if match else 0
    return total
