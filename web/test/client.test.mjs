// The client side of web/pagerd.js in Node (node --test): errors, cancellation, conflicts and
// event streams against a running pagerd (PAGERD_URL, and PAGERD_AUTH_URL for one that requires
// the token "secret"), and the failures pagerd never sends (a proxy's HTML page, a reset
// connection, a stream refused with 403) against a small fake server started here.
import assert from "node:assert/strict";
import http from "node:http";
import { getEventListeners } from "node:events";
import { after, before, describe, test } from "node:test";
import { PagerdClient, PagerdError, Session } from "../pagerd.js";

const PAGERD = process.env.PAGERD_URL;
const AUTH = process.env.PAGERD_AUTH_URL;

/** A fetch that counts requests by "METHOD path" and remembers their headers. */
function countingFetch() {
  const calls = [];
  const fetcher = (input, init = {}) => {
    calls.push({ method: init.method ?? "GET", path: new URL(input).pathname, headers: init.headers ?? {} });
    return fetch(input, init);
  };
  return { fetcher, calls };
}

/**
 * A fetch whose event streams can be held: after `hold()`, what a stream brings waits until
 * `release()`, so a test decides when an event reaches the session.
 */
function holdingFetch() {
  let held = null;
  let release = () => {};
  const fetcher = async (input, init = {}) => {
    const response = await fetch(input, init);
    if (!new URL(input).pathname.endsWith("/events") || !response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (held) await held;
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetcher,
    hold() { held = new Promise((resolve) => { release = resolve; }); },
    release() { held = null; release(); },
  };
}

/** Waits until `condition()` holds (up to 5 s); answers whether it did. */
async function until(condition, ms = 5000) {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
  return condition();
}

/** The next `type` event of `target`. */
function next(target, type) {
  return new Promise((resolve) => target.addEventListener(type, resolve, { once: true }));
}

describe("against pagerd", () => {
  const client = new PagerdClient({ baseURL: PAGERD });

  test("a refusal is a PagerdError with the problem's status, code, field and detail", async () => {
    const session = await client.create({ template: "media" });
    const error = await session.select(9).catch((e) => e);
    assert.ok(error instanceof PagerdError && error instanceof Error);
    assert.equal(error.name, "PagerdError");
    assert.equal(error.status, 422);
    assert.equal(error.code, "index_out_of_range");
    assert.equal(error.field, "index");
    assert.match(error.detail, /\S/);
    assert.equal(error.problem.code, "index_out_of_range");
    const missing = await client.open("no-such-session").catch((e) => e);
    assert.deepEqual([missing.status, missing.code], [404, "session_not_found"]);
    const bad = await client.create({ template: "media", swipe: "sideways" }).catch((e) => e);
    assert.deepEqual([bad.status, bad.code, bad.field], [400, "invalid_request", "swipe"]);
  });

  test("a conflict (412) is not sent again: it fails with the current state, which the session keeps", async () => {
    const counting = countingFetch();
    const mine = await new PagerdClient({ baseURL: PAGERD, fetch: counting.fetcher }).create({ template: "media" });
    const other = await client.open(mine.id);
    await other.next(); // version 2, index 1
    const changes = [];
    mine.addEventListener("change", (event) => changes.push(event.detail.state.version));
    const error = await mine.next().catch((e) => e);
    assert.ok(error instanceof PagerdError);
    assert.deepEqual([error.status, error.code], [412, "version_mismatch"]);
    assert.deepEqual([error.state.version, error.state.index], [2, 1]);
    assert.deepEqual([mine.version, mine.state.index], [2, 1]);
    assert.deepEqual(changes, [2]);
    // Nothing was sent again: one POST /next, then one GET of the state.
    assert.deepEqual(counting.calls.slice(1).map((c) => `${c.method} ${c.path.replace(mine.id, "ID")}`),
      ["POST /v1/sessions/ID/next", "GET /v1/sessions/ID"]);
    assert.equal((await other.refresh()).version, 2);
    // The caller decides: sent again at the version now held, it applies.
    assert.equal((await mine.next()).index, 2);
    // Or without If-Match, whatever the version.
    await other.previous({ ifMatch: false });
    assert.equal((await mine.previous({ ifMatch: false })).index, 0);
  });

  test("a cancelled call fails with code aborted and sends nothing", async () => {
    const session = await client.create({ template: "media" });
    const controller = new AbortController();
    controller.abort();
    const error = await session.next({ signal: controller.signal }).catch((e) => e);
    assert.ok(error instanceof PagerdError);
    assert.deepEqual([error.status, error.code], [0, "aborted"]);
    assert.equal(error.cause.name, "AbortError");
    assert.equal((await session.refresh()).version, 1);
    const expired = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const timedOut = await client.templates({ signal: expired }).catch((e) => e);
    assert.deepEqual([timedOut.code, timedOut.cause.name], ["aborted", "TimeoutError"]);
  });

  test("drag(), release(), cancel() and refreshSettings() take a signal: cancelled, they fail with aborted", async () => {
    const counting = countingFetch();
    const session = await new PagerdClient({ baseURL: PAGERD, fetch: counting.fetcher }).create({ template: "media" });
    const errors = [];
    session.addEventListener("error", (event) => errors.push(event.detail.error));
    const sent = () => counting.calls.length;
    const isAborted = (error) => {
      assert.ok(error instanceof PagerdError, String(error));
      assert.deepEqual([error.status, error.code, error.cause?.name], [0, "aborted", "AbortError"]);
    };

    // refreshSettings: aborted before, nothing is sent; aborted while it reads, the read stops
    // (no "error" event, no read again).
    let before = sent();
    isAborted(await session.refreshSettings({ signal: AbortSignal.abort() }).catch((e) => e));
    assert.equal(sent(), before);
    const reading = new AbortController();
    const read = session.refreshSettings({ signal: reading.signal });
    reading.abort();
    isAborted(await read.catch((e) => e));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual([session.settings, errors], [null, []]);
    assert.equal(sent(), before + 1);
    await session.refreshSettings();
    assert.ok(session.settings);

    // drag() with a signal aborted already: nothing drawn or sent; release() and cancel() fail.
    before = sent();
    let frames = 0;
    const stillborn = session.drag({ draw: () => { frames += 1; }, signal: AbortSignal.abort() });
    stillborn.move(0.3);
    isAborted(await stillborn.release().catch((e) => e));
    isAborted(await stillborn.cancel().catch((e) => e));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual([sent(), frames], [before, 0]);

    // Aborted mid-swipe: no more frames or reports, the release fails and sends nothing; the
    // server's swipe stays where it was last reported.
    const dragging = new AbortController();
    const drag = session.drag({ draw: () => { frames += 1; }, signal: dragging.signal });
    drag.move(0.2); // reported at once
    assert.ok(await until(() => session.state.transition?.progress === 0.2));
    dragging.abort();
    before = sent();
    drag.move(0.4);
    await new Promise((resolve) => setTimeout(resolve, 150)); // a report would be due
    isAborted(await drag.release().catch((e) => e));
    assert.equal(sent(), before);
    assert.equal((await session.refresh()).transition.progress, 0.2);

    // release({signal}) and cancel({signal}): an aborted one sends no end; a live one ends it.
    const again = session.drag({ draw: () => {} });
    again.move(0.3);
    assert.ok(await until(() => session.state.transition?.progress === 0.3));
    before = sent();
    isAborted(await again.release({ signal: AbortSignal.abort() }).catch((e) => e));
    assert.equal(sent(), before);
    const last = session.drag({ draw: () => {} });
    last.move(0.1);
    assert.ok(await until(() => session.state.transition?.progress === 0.1));
    const state = await last.cancel({ signal: new AbortController().signal });
    assert.deepEqual([state.index, state.transition], [0, null]);
    assert.deepEqual(errors, []);
  });

  test("release({signal}) and cancel({signal}) fail at once while a report is stuck in flight", async () => {
    // The network holds each report until the request's own signal (the drag's: none) aborts.
    const stalling = (input, init = {}) => new URL(input).pathname.endsWith("/scroll")
      ? new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal.reason), { once: true }))
      : fetch(input, init);
    const session = await new PagerdClient({ baseURL: PAGERD, fetch: stalling }).create({ template: "media" });
    await session.loadSettings();
    for (const end of ["release", "cancel"]) {
      const drag = session.drag({ draw: () => {} });
      drag.move(0.3); // reported at once, and stuck
      const begun = performance.now();
      const soon = new AbortController(); // not AbortSignal.timeout, whose timer keeps no test alive
      setTimeout(() => soon.abort(), 100);
      const error = await drag[end]({ signal: soon.signal }).catch((e) => e);
      assert.ok(error instanceof PagerdError && error.code === "aborted", `${end}: ${error}`);
      assert.ok(performance.now() - begun < 2000, `${end} failed after ${performance.now() - begun} ms`);
    }
  });

  test("a release whose end fails rejects with the failure (here the session deleted by another client)", async () => {
    const session = await new PagerdClient({ baseURL: PAGERD }).create({ template: "media" });
    await session.loadSettings();
    const reports = [];
    const drag = session.drag({ draw: () => {}, onError: (error) => reports.push(error.code) });
    drag.move(0.7);
    assert.ok(await until(() => session.state.transition?.progress === 0.7));
    const other = await new PagerdClient({ baseURL: PAGERD }).open(session.id);
    await other.delete();
    const error = await drag.release().then(() => null, (e) => e);
    assert.ok(error instanceof PagerdError, String(error));
    assert.deepEqual([error.status, error.code], [404, "session_not_found"]);
    assert.deepEqual(reports, []);
  });

  test("drags and streams that ended leave no listener on the signals they were given", async () => {
    // Node's fetch keeps its own listener on a request's signal until the request is collected:
    // the requests here go without one, so that only the module's listeners are counted.
    const unsignalled = (input, init = {}) => fetch(input, { ...init, signal: undefined });
    const session = await new PagerdClient({ baseURL: PAGERD, fetch: unsignalled }).create({ template: "media" });
    await session.loadSettings();
    const long = new AbortController();
    for (let i = 0; i < 5; i += 1) {
      const drag = session.drag({ draw: () => {}, signal: long.signal });
      drag.move(0.2);
      await drag.cancel({ signal: new AbortController().signal });
    }
    assert.equal(getEventListeners(long.signal, "abort").length, 0);
    const following = new AbortController();
    for (let i = 0; i < 5; i += 1) {
      session.follow({ signal: following.signal });
      session.unfollow();
    }
    assert.equal(getEventListeners(following.signal, "abort").length, 0);
  });

  test("the event stream brings every change and its cause, and settings that changed", async () => {
    const session = await client.create({ template: "media" });
    await session.loadSettings();
    const other = await client.open(session.id);
    const opened = next(session, "open");
    session.follow();
    await opened;
    const changed = next(session, "change");
    await other.next();
    const { detail } = await changed;
    assert.deepEqual([detail.kind, detail.cause, detail.state.index, session.version], ["pageChanged", "request", 1, 2]);
    // A PATCH by another client: the session reads its settings again by itself.
    const reread = next(session, "settings");
    await other.patch({ tabBar: { indicator: { style: "elastic" } } });
    assert.equal((await reread).detail.settings.tabBar.indicator.style, "elastic");
    assert.equal(session.settings.tabBar.indicator.style, "elastic");
    assert.ok(session.settingsCurrent);
    // A DELETE ends the stream with "deleted".
    const deleted = next(session, "deleted");
    await other.delete({ ifMatch: false });
    assert.equal((await deleted).detail.cause, "request");
    assert.equal(session.following, false);
  });

  test("a stream of a session that does not exist stops at once (404) and says why", async () => {
    const counting = countingFetch();
    const session = new Session(new PagerdClient({ baseURL: PAGERD, fetch: counting.fetcher }), { id: "gone-for-good-0000000000", version: 1 });
    const stopped = next(session, "stopped");
    session.follow();
    const { detail } = await stopped;
    assert.ok(detail.error instanceof PagerdError);
    assert.deepEqual([detail.error.status, detail.error.code], [404, "session_not_found"]);
    assert.equal(session.following, false);
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(counting.calls.length, 1);
  });

  test("unfollow() and a signal stop the stream", async () => {
    const session = await client.create({ template: "media" });
    const controller = new AbortController();
    const opened = next(session, "open");
    session.follow({ signal: controller.signal });
    await opened;
    controller.abort();
    assert.equal(session.following, false);
    const other = await client.open(session.id);
    await other.next();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(session.version, 1);
  });

  test("a DELETE refused (412) carries the current state and leaves the stream followed", async () => {
    // The stream is held while another client moves the session, so the DELETE is sent with the
    // version before the move (else the move's event could arrive first, and the DELETE succeed).
    const holding = holdingFetch();
    const mine = await new PagerdClient({ baseURL: PAGERD, fetch: holding.fetcher }).create({ template: "media" });
    const opened = next(mine, "open");
    mine.follow();
    await opened;
    holding.hold();
    const other = await client.open(mine.id);
    await other.next();
    const error = await mine.delete().catch((e) => e);
    assert.ok(error instanceof PagerdError, `the DELETE with version 1 was taken: ${error}`);
    assert.deepEqual([error.status, error.code, error.state?.version, mine.following], [412, "version_mismatch", 2, true]);
    holding.release();
    await mine.delete();
    assert.equal(mine.following, false);
    assert.equal((await client.open(mine.id).catch((e) => e)).code, "session_not_found");
  });

  test("with a server that requires a token: 401 without it, a stream refused with 401 stops", { skip: !AUTH }, async () => {
    const refused = await new PagerdClient({ baseURL: AUTH }).create({ template: "media" }).catch((e) => e);
    assert.deepEqual([refused.status, refused.code], [401, "unauthorized"]);
    const owner = await new PagerdClient({ baseURL: AUTH, token: "secret" }).create({ template: "media" });
    const counting = countingFetch();
    const stranger = new Session(new PagerdClient({ baseURL: AUTH, token: "wrong", fetch: counting.fetcher }), owner.state);
    const stopped = next(stranger, "stopped");
    stranger.follow();
    const { detail } = await stopped;
    assert.deepEqual([detail.error.status, detail.error.code], [401, "unauthorized"]);
    assert.equal(stranger.following, false);
    assert.equal(counting.calls[0].headers.Authorization, "Bearer wrong");
    // With the token the stream opens and follows.
    const opened = next(owner, "open");
    owner.follow();
    await opened;
    assert.equal(owner.following, true);
    owner.unfollow();
  });
});

describe("against a fake server", () => {
  let fake;
  let base;
  const seen = { silent: [], offline: [], flaky: 0, flakyTimes: [], lastEventIDs: [], renewed: [], settingsReads: 0, relogin: [], rerefused: [] };

  before(async () => {
    fake = http.createServer((request, response) => {
      const path = new URL(request.url, "http://x").pathname;
      const problem = (status, code, headers = {}) => {
        response.writeHead(status, { "Content-Type": "application/problem+json", ...headers });
        response.end(JSON.stringify({ type: "about:blank", title: "x", status, detail: `${code} here`, code }));
      };
      const stream = (text) => {
        response.writeHead(200, { "Content-Type": "text/event-stream" });
        response.write(text);
      };
      const state = (version) => JSON.stringify({ id: path.split("/")[3], version, index: 0 });
      switch (path) {
        case "/html502":
          response.writeHead(502, { "Content-Type": "text/html" });
          return response.end("<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>");
        case "/html200":
          response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
          return response.end("<!doctype html><p>Welcome to the portal</p>");
        case "/truncated":
          response.writeHead(200, { "Content-Type": "application/json" });
          return response.end('{"id": "s", "vers');
        case "/not-a-problem":
          response.writeHead(500, { "Content-Type": "application/json" });
          return response.end('{"error": "boom"}');
        case "/reset":
          return request.socket.destroy();
        case "/slow":
          return setTimeout(() => response.end("{}"), 3000);
        case "/v1/sessions/forbidden/events":
          return problem(403, "forbidden");
        case "/v1/sessions/empty":
          response.writeHead(200, { "Content-Type": "application/json" });
          return response.end();
        case "/v1/sessions/empty/next":
          response.writeHead(204);
          return response.end();
        case "/v1/sessions/noetag/settings":
          // A proxy that drops the ETag.
          seen.settingsReads += 1;
          response.writeHead(200, { "Content-Type": "application/json" });
          return response.end('{"mode": "bounded"}');
        case "/v1/sessions/relogin/events":
          // The token "old" expired while the stream was down: refused until a new one comes.
          seen.relogin.push(request.headers.authorization);
          if (request.headers.authorization !== "Bearer new") return problem(401, "unauthorized");
          return stream(`id: 5\nevent: pageChanged\ndata: ${state(5)}\n\n`);
        case "/v1/sessions/flaky/events":
          seen.flaky += 1;
          seen.flakyTimes.push(performance.now());
          seen.lastEventIDs.push(request.headers["last-event-id"]);
          if (seen.flaky === 1) return problem(503, "at_capacity", { "Retry-After": "1" });
          if (seen.flaky === 2) {
            // One event split across writes, then the stream ends: it is opened again from version 2.
            stream("retry: 2000\n\n: heartbeat\n\nid: 2\nevent: pageCh");
            return setTimeout(() => { response.end(`anged\ndata: ${state(2)}\n\n`); }, 20);
          }
          return stream(`id: 3\r\nevent: pageChanged\r\ndata: ${state(3)}\r\n\r\n`);
        case "/v1/sessions/silent/events":
          // The first connection goes silent after its first event (a network that dropped it
          // without closing it); the next one brings version 2.
          seen.silent.push(request.headers["last-event-id"]);
          if (seen.silent.length === 1) return stream(`id: 1\nevent: state\ndata: ${state(1)}\n\n`);
          return stream(`id: 2\nevent: pageChanged\ndata: ${state(2)}\n\n`);
        case "/v1/sessions/offline/events":
          // The first token's stream expires at version 1; the token refreshToken finally gets resumes it.
          seen.offline.push(request.headers.authorization);
          if (request.headers.authorization === "Bearer first") {
            stream(`id: 1\nevent: state\ndata: ${state(1)}\n\nevent: expired\ndata: {"version": 1}\n\n`);
            return response.end();
          }
          return stream(`id: 2\nevent: pageChanged\ndata: ${state(2)}\n\n`);
        case "/v1/sessions/burst/events":
          // Three events in one write: the reader gets them in one chunk.
          return stream([2, 3, 4].map((v) => `id: ${v}\nevent: pageChanged\ndata: ${state(v)}\n\n`).join(""));
        case "/v1/sessions/expiring/events":
          stream(`event: state\ndata: ${state(1)}\n\nevent: expired\ndata: {"version": 1}\n\n`);
          return response.end();
        case "/v1/sessions/rerefused/events":
          // The first token's stream expires; the token refreshToken answers is refused.
          seen.rerefused.push(request.headers.authorization);
          if (request.headers.authorization !== "Bearer first") return problem(401, "unauthorized");
          stream(`id: 1\nevent: state\ndata: ${state(1)}\n\nevent: expired\ndata: {"version": 1}\n\n`);
          return response.end();
        case "/v1/sessions/renewed/events": {
          // The first token's stream expires at version 1; the renewed token's resumes from it.
          seen.renewed.push([request.headers.authorization, request.headers["last-event-id"]]);
          if (request.headers.authorization === "Bearer first") {
            stream(`id: 1\nevent: state\ndata: ${state(1)}\n\nevent: expired\ndata: {"version": 1}\n\n`);
            return response.end();
          }
          return stream(`id: 2\nevent: pageChanged\ndata: ${state(2)}\n\n`);
        }
        default:
          return problem(404, "not_found");
      }
    });
    await new Promise((resolve) => fake.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${fake.address().port}`;
  });

  after(() => {
    fake.closeAllConnections();
    fake.close();
  });

  test("a proxy's HTML page keeps its status: unexpected_response", async () => {
    const client = new PagerdClient({ baseURL: base });
    const error = await client.request("GET", "/html502").catch((e) => e);
    assert.ok(error instanceof PagerdError);
    assert.deepEqual([error.status, error.code], [502, "unexpected_response"]);
    assert.match(error.detail, /502 Bad Gateway/);
    assert.doesNotMatch(error.detail, /</);
    const ok = await client.request("GET", "/html200").catch((e) => e);
    assert.deepEqual([ok.status, ok.code], [200, "unexpected_response"]);
    assert.match(ok.detail, /Welcome to the portal/);
  });

  test("JSON that does not parse, or an error that is not a problem, is unexpected_response", async () => {
    const client = new PagerdClient({ baseURL: base });
    const truncated = await client.request("GET", "/truncated").catch((e) => e);
    assert.deepEqual([truncated.status, truncated.code], [200, "unexpected_response"]);
    assert.ok(truncated.cause instanceof SyntaxError);
    const other = await client.request("GET", "/not-a-problem").catch((e) => e);
    assert.deepEqual([other.status, other.code], [500, "unexpected_response"]);
    assert.match(other.detail, /boom/);
  });

  test("no answer is network_error, with the TypeError as cause", async () => {
    const reset = await new PagerdClient({ baseURL: base }).request("GET", "/reset").catch((e) => e);
    assert.ok(reset instanceof PagerdError);
    assert.deepEqual([reset.status, reset.code], [0, "network_error"]);
    assert.ok(reset.cause instanceof TypeError);
    const closed = http.createServer();
    await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = closed.address().port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await new PagerdClient({ baseURL: `http://127.0.0.1:${port}` }).open("x").catch((e) => e);
    assert.deepEqual([refused.status, refused.code], [0, "network_error"]);
    assert.ok(refused.cause instanceof TypeError);
  });

  test("a call cancelled while it waits fails with aborted", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 30);
    const error = await new PagerdClient({ baseURL: base }).request("GET", "/slow", { signal: controller.signal }).catch((e) => e);
    assert.deepEqual([error.status, error.code], [0, "aborted"]);
    assert.equal(error.cause.name, "AbortError");
    assert.ok(Date.now() - started < 2000);
  });

  test("no body where pagerd sends one (an empty 200, a 204) is unexpected_response, never a success", async () => {
    const client = new PagerdClient({ baseURL: base });
    const opened = await client.open("empty").catch((e) => e);
    assert.ok(opened instanceof PagerdError);
    assert.deepEqual([opened.status, opened.code], [200, "unexpected_response"]);
    const moved = await new Session(client, { id: "empty", version: 1 }).next().catch((e) => e);
    assert.deepEqual([moved.status, moved.code], [204, "unexpected_response"]);
  });

  test("settings answered without an ETag are read once, not again and again", async () => {
    const session = new Session(new PagerdClient({ baseURL: base }), { id: "noetag", version: 3, settingsVersion: 2 });
    await session.loadSettings();
    assert.equal(session.settingsCurrent, true);
    session.accept({ id: "noetag", version: 4, settingsVersion: 2 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(seen.settingsReads, 1);
  });

  test("follow() with a signal already aborted does not follow", async () => {
    const counting = countingFetch();
    const session = new Session(new PagerdClient({ baseURL: base, fetch: counting.fetcher }), { id: "flaky", version: 1 });
    const controller = new AbortController();
    controller.abort();
    session.follow({ signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual([session.following, counting.calls.length], [false, 0]);
  });

  test("with refreshToken, a stream refused 401 on reconnecting asks for a new token, once", async () => {
    let asked = 0;
    const client = new PagerdClient({ baseURL: base, token: "old", refreshToken: async () => { asked += 1; return "new"; } });
    const session = new Session(client, { id: "relogin", version: 4 });
    const changed = next(session, "change");
    session.follow();
    await changed;
    session.unfollow();
    assert.deepEqual([session.version, asked, client.token], [5, 1, "new"]);
    assert.deepEqual(seen.relogin, ["Bearer old", "Bearer new"]);
    // A new token that is refused too stops the stream with the 401, after one try.
    let again = 0;
    const stale = new Session(new PagerdClient({ baseURL: base, token: "old", refreshToken: async () => { again += 1; return "old"; } }), { id: "relogin", version: 4 });
    const stopped = next(stale, "stopped");
    stale.follow();
    const { detail } = await stopped;
    assert.deepEqual([detail.error.status, detail.error.code, again, stale.following], [401, "unauthorized", 1, false]);
  });

  test("a stream refused with 403 stops, reporting the problem", async () => {
    const session = new Session(new PagerdClient({ baseURL: base }), { id: "forbidden", version: 1 });
    const stopped = next(session, "stopped");
    session.follow();
    const { detail } = await stopped;
    assert.deepEqual([detail.error.status, detail.error.code], [403, "forbidden"]);
    assert.equal(session.following, false);
  });

  test("a stream that fails (503, Retry-After: 1) or ends is opened again from the last version seen, not sooner than asked", async () => {
    const session = new Session(new PagerdClient({ baseURL: base }), { id: "flaky", version: 1, index: 0 });
    const errors = [];
    session.addEventListener("error", (event) => errors.push(event.detail.error));
    const kinds = [];
    session.addEventListener("change", (event) => kinds.push([event.detail.kind, event.detail.state.version]));
    session.follow();
    assert.ok(await until(() => session.version === 3));
    session.unfollow();
    assert.deepEqual([errors.length, errors[0].status, errors[0].code, errors[0].retryAfter], [1, 503, "at_capacity", 1]);
    assert.deepEqual(kinds, [["pageChanged", 2], ["pageChanged", 3]]);
    assert.deepEqual(seen.lastEventIDs, ["1", "1", "2"]);
    // The second connection came after the second the 503 asked for (the backoff alone: 250 ms).
    assert.ok(seen.flakyTimes[1] - seen.flakyTimes[0] >= 990, `${seen.flakyTimes[1] - seen.flakyTimes[0]} ms`);
  });

  test("with refreshToken, an expired stream whose new token is refused stops with the 401, the token asked for once", async () => {
    let asked = 0;
    const client = new PagerdClient({ baseURL: base, token: "first", refreshToken: async () => { asked += 1; return "second"; } });
    const session = new Session(client, { id: "rerefused", version: 0 });
    const stopped = next(session, "stopped");
    session.follow();
    const { detail } = await stopped;
    assert.deepEqual([detail.error.status, detail.error.code, asked, session.version], [401, "unauthorized", 1, 1]);
    assert.deepEqual(seen.rerefused, ["Bearer first", "Bearer second"]);
  });

  test("with refreshToken, an expired stream is opened again with the new token from the version reached", async () => {
    const client = new PagerdClient({ baseURL: base, token: "first", refreshToken: async () => "second" });
    const session = new Session(client, { id: "renewed", version: 0 });
    const changed = next(session, "change");
    session.follow();
    await changed;
    const resumed = next(session, "change");
    await resumed;
    session.unfollow();
    assert.equal(session.version, 2);
    assert.equal(client.token, "second");
    assert.deepEqual(seen.renewed, [["Bearer first", "0"], ["Bearer second", "1"]]);
  });

  test("eventSourceURL carries an access token and the version for EventSource, never the authToken", () => {
    const client = new PagerdClient({ baseURL: "https://pager.example/", token: "a.b.c" });
    const session = new Session(client, { id: "s 1", version: 4 });
    assert.equal(session.eventSourceURL(), "https://pager.example/v1/sessions/s%201/events?access_token=a.b.c");
    assert.equal(session.eventSourceURL({ token: "w.x.y", lastEventId: 4 }),
      "https://pager.example/v1/sessions/s%201/events?access_token=w.x.y&lastEventId=4");
    assert.equal(new Session(new PagerdClient(), { id: "s", version: 1 }).eventSourceURL(), "/v1/sessions/s/events");
    // The operator's authToken stays out of the URL; the watch token pagerd minted at creation goes in.
    const operator = new Session(new PagerdClient({ token: "secret" }), { id: "s", version: 1 });
    assert.equal(operator.eventSourceURL(), "/v1/sessions/s/events");
    const created = new Session(new PagerdClient({ token: "secret" }), { id: "s", version: 1, access: { watch: { token: "w.a.t" }, control: { token: "c.o.n" } } });
    assert.equal(created.eventSourceURL(), "/v1/sessions/s/events?access_token=w.a.t");
  });

  test("a stream silent for silenceTimeout is given up (network_error) and opened again from the version reached", async () => {
    for (const bad of [0, -1, Number.NaN, 2 ** 31]) {
      assert.throws(() => new PagerdClient({ silenceTimeout: bad }), (e) => e instanceof PagerdError && e.field === "silenceTimeout");
    }
    assert.equal(new PagerdClient({ silenceTimeout: Infinity }).silenceTimeout, Infinity);
    const session = new Session(new PagerdClient({ baseURL: base, silenceTimeout: 300 }), { id: "silent", version: 0 });
    const errors = [];
    session.addEventListener("error", (event) => errors.push(event.detail.error));
    const begun = performance.now();
    session.follow();
    assert.ok(await until(() => session.version === 2));
    const took = performance.now() - begun;
    session.unfollow();
    assert.deepEqual(errors.map((e) => [e.status, e.code]), [[0, "network_error"]]);
    assert.deepEqual(seen.silent, ["0", "1"]);
    assert.ok(took >= 290, `reconnected after ${took} ms`);
  });

  test("unfollow() in a change listener stops the events already read with it", async () => {
    const session = new Session(new PagerdClient({ baseURL: base }), { id: "burst", version: 1 });
    const versions = [];
    session.addEventListener("change", (event) => {
      versions.push(event.detail.state.version);
      session.unfollow();
    });
    session.follow();
    assert.ok(await until(() => versions.length > 0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual([versions, session.version, session.following], [[2], 2, false]);
  });

  test("a refreshToken that throws at once counts as one that rejects; one that answers a string, as one that resolves", async () => {
    const throwing = new Session(new PagerdClient({ baseURL: base, refreshToken: () => { throw new Error("signed out"); } }), { id: "expiring", version: 0 });
    const errors = [];
    throwing.addEventListener("error", (event) => errors.push(event.detail.error));
    const stopped = next(throwing, "stopped");
    throwing.follow();
    const { detail } = await stopped;
    assert.deepEqual([detail.error.code, detail.error.cause?.message, errors], ["token_expired", "signed out", []]);
    const client = new PagerdClient({ baseURL: base, token: "first", refreshToken: () => "second" });
    const plain = new Session(client, { id: "renewed", version: 0 });
    plain.follow();
    assert.ok(await until(() => plain.version === 2));
    plain.unfollow();
    assert.equal(client.token, "second");
  });

  test("a refreshToken that got no answer is asked again; the stream resumes with the token it then gives", async () => {
    let asked = 0;
    const client = new PagerdClient({
      baseURL: base, token: "first",
      refreshToken: async () => {
        asked += 1;
        if (asked === 1) throw new TypeError("fetch failed"); // offline a moment
        return "second";
      },
    });
    const session = new Session(client, { id: "offline", version: 0 });
    const errors = [];
    session.addEventListener("error", (event) => errors.push(event.detail.error));
    session.follow();
    assert.ok(await until(() => session.version === 2));
    session.unfollow();
    assert.deepEqual([asked, errors.map((e) => e.code), seen.offline], [2, ["network_error"], ["Bearer first", "Bearer second"]]);
  });

  test("a stream whose token expired stops with token_expired", async () => {
    const session = new Session(new PagerdClient({ baseURL: base }), { id: "expiring", version: 0 });
    const stopped = next(session, "stopped");
    session.follow();
    const { detail } = await stopped;
    assert.equal(detail.error.code, "token_expired");
    assert.equal(session.version, 1);
    assert.equal(session.following, false);
  });
});
