"""web/pagerd.js used from a page on another origin, as a web team embeds it: the module is
imported from pagerd, and every call crosses origins (CORS): commands with If-Match, a conflict
with the current state attached, the settings, the event stream (read with fetch, Last-Event-ID in
a header), a prediction and a whole swipe."""
import http.server
import threading

import pytest

from test_demo import browser  # noqa: F401 (fixture)

PAGE = b"<!doctype html><html lang=en><title>Another origin</title><p>An app that embeds a pager.</p>"


@pytest.fixture
def other_origin():
    """A page served from another port of the loopback address: another origin."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_the_module_from_another_origin(pagerd, browser, other_origin):
    browser.get(other_origin)
    browser.set_script_timeout(20)
    result = browser.execute_async_script("""
        const [base, done] = [arguments[0], arguments[arguments.length - 1]];
        const until = async (condition) => {
          for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
          return condition();
        };
        (async () => {
          const { PagerdClient, PagerdError, predictScroll } = await import(`${base}/demo/pagerd.js`);
          const client = new PagerdClient({ baseURL: base });
          const log = { origin: location.origin };
          const mine = await client.create({ template: "media" });
          const other = await client.open(mine.id);
          const settings = await mine.loadSettings();
          log.settings = [settings.tabBar.layout, mine.settingsCurrent];
          const opened = new Promise((resolve) => mine.addEventListener("open", resolve, { once: true }));
          mine.follow();
          await opened;
          await other.next();
          log.followed = await until(() => mine.version === 2);
          await other.previous();
          await until(() => mine.version === 3);
          mine.unfollow();
          await other.next();                        // version 4, unseen by mine
          try { await mine.next(); } catch (error) {  // If-Match 3: refused, nothing sent again
            log.conflict = [error instanceof PagerdError, error.status, error.code, error.state.version, mine.version];
          }
          const predicted = predictScroll(mine.state, settings, { progress: 0.25 });
          const answer = await mine.scroll({ progress: 0.25 });
          log.prediction = [predicted.indicator.x, answer.indicator.x, predicted.pageOffset, answer.pageOffset];
          await mine.end(false);
          const drag = mine.drag({ draw: () => {} });
          for (let i = 1; i <= 12; i++) { drag.move(-0.06 * i); await new Promise((r) => setTimeout(r, 16)); }
          const released = await drag.release();
          log.swipe = [released.index, released.transition, drag.requests <= 6];
          const missing = await client.open("no-such-session").catch((error) => error);
          log.missing = [missing.status, missing.code];
          done(log);
        })().catch((error) => done({ failure: `${error.name}: ${error.message}` }));
    """, f"http://127.0.0.1:{pagerd.port}")
    assert "failure" not in result, result
    assert result["origin"] != f"http://127.0.0.1:{pagerd.port}"
    assert result["settings"] == ["fixed", True]
    assert result["followed"] is True
    assert result["conflict"] == [True, 412, "version_mismatch", 4, 4]
    predicted_x, served_x, predicted_offset, served_offset = result["prediction"]
    assert predicted_x == pytest.approx(served_x, abs=1e-6) and predicted_offset == pytest.approx(served_offset, abs=1e-6)
    assert result["swipe"] == [0, None, True]  # from index 1 back to 0, past half way
    assert result["missing"] == [404, "session_not_found"]
