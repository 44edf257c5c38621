"""Access tokens in a real browser: the demo opened with the operator's token shows a "Share to
watch" link; the link opens read-only in a second browser (no controls drawn, nothing sent),
follows the session's events with its watch token, and is refused a mutation; and a browser's
own EventSource follows a stream with ?access_token=."""
import json
import re
import urllib.request

from selenium.webdriver.common.by import By

from access_tokens import AUTH_TOKEN, ENV, bearer
from test_demo import browser, second_browser, session_of, shot, wait_for, current_tab  # noqa: F401 (fixtures)


def call(server, method, path, token, body=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {**bearer(token), **({"Content-Type": "application/json"} if body is not None else {})}
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", data=data, method=method, headers=headers)
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def refusals(server, reason):
    text = urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics").read().decode()
    return int(re.search(rf'^pagerd_access_refusals_total\{{reason="{reason}"\}} (\d+)', text, re.M).group(1))


def test_a_watch_link_opens_read_only_and_follows_events(start_pagerd, browser, second_browser):
    server = start_pagerd(ENV)
    base = f"http://127.0.0.1:{server.port}/"
    browser.get(f"{base}?token={AUTH_TOKEN}&template=media")
    sid = wait_for(browser, session_of)
    link = wait_for(browser, lambda d: d.find_element(By.ID, "share-watch") if d.find_element(By.ID, "share-watch").is_displayed() else None)
    shared = link.get_attribute("href")
    assert f"session={sid}" in shared and "token=" in shared
    shot(browser, "access-1-operator")

    # The watcher's page: read-only, following the session.
    second_browser.get(shared)
    wait_for(second_browser, lambda d: session_of(d) == sid)
    assert "read-only" in second_browser.find_element(By.TAG_NAME, "body").get_attribute("class")
    for part in ("controls", "create", "open", "settings"):
        assert not second_browser.find_element(By.ID, part).is_displayed(), part
    assert current_tab(second_browser) == 0
    call(server, "POST", f"/v1/sessions/{sid}/next", AUTH_TOKEN)
    wait_for(second_browser, lambda d: current_tab(d) == 1)
    shot(second_browser, "access-2-watcher")

    # A tap on a tab sends nothing: the session stays where it is, and nothing is refused.
    version = call(server, "GET", f"/v1/sessions/{sid}", AUTH_TOKEN)["version"]
    second_browser.find_elements(By.CSS_SELECTOR, ".tab")[2].click()
    second_browser.execute_script("return new Promise((resolve) => setTimeout(resolve, 300))")
    assert call(server, "GET", f"/v1/sessions/{sid}", AUTH_TOKEN)["version"] == version
    assert refusals(server, "insufficient_scope") == 0

    # The watch token itself, sent by the page's module, is refused a mutation.
    refused = second_browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("/demo/pagerd.js").then(async ({ PagerdClient }) => {
          const token = new URLSearchParams(location.search).get("token");
          const client = new PagerdClient({ token });
          try {
            await client.request("POST", `/v1/sessions/${arguments[0]}/next`);
            done("sent");
          } catch (error) {
            done({ status: error.status, code: error.code });
          }
        });""", sid)
    assert refused == {"status": 403, "code": "forbidden"}
    assert refusals(server, "insufficient_scope") == 1

    # The browser's own EventSource follows the stream with the token in the query.
    kinds = second_browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("/demo/pagerd.js").then(async ({ PagerdClient }) => {
          const token = new URLSearchParams(location.search).get("token");
          const session = await new PagerdClient({ token }).open(arguments[0]);
          const source = new EventSource(session.eventSourceURL());
          const seen = [];
          const note = (event) => {
            seen.push([event.type, JSON.parse(event.data).version]);
            if (seen.length === 2) { source.close(); done(seen); }
            // Followed from the first event on: the next change then comes down the stream.
            if (seen.length === 1) fetch(`/v1/sessions/${arguments[0]}/next`, { method: "POST", headers: { Authorization: `Bearer ${arguments[1]}` } });
          };
          source.addEventListener("state", note);
          source.addEventListener("pageChanged", note);
          source.addEventListener("error", () => { source.close(); done(seen.concat([["error", 0]])); });
        });""", sid, AUTH_TOKEN)
    assert kinds == [["state", version], ["pageChanged", version + 1]]
