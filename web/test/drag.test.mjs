// Session.drag() of web/pagerd.js in Node (node --test) against a running pagerd (PAGERD_URL):
// a swipe is drawn on every frame from the prediction, which equals what the server answers for
// that progress; it costs a few requests, never two in flight, each with If-Match; a conflict
// is adopted; the release goes by velocity (on servers that release by velocity, else by the
// same rule decided here).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PagerdClient, predictRelease, predictScroll, releasesByVelocity } from "../pagerd.js";
import { compare, scrollMembers } from "./harness.mjs";

const PAGERD = process.env.PAGERD_URL;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition()` holds, polling every 10 ms, for at most `ms`. */
async function until(what, condition, ms = 5000) {
  const deadline = performance.now() + ms;
  while (!condition()) {
    assert.ok(performance.now() < deadline, `waited ${ms} ms for ${what}`);
    await sleep(10);
  }
}

/** A client whose fetch logs the swipe's requests (scroll and transition), their If-Match and
 *  bodies, and the most ever in flight at once. */
function loggingClient() {
  const log = { requests: [], inFlight: 0, maxInFlight: 0 };
  const fetcher = async (input, init = {}) => {
    const path = new URL(input).pathname;
    const swipe = /\/(scroll|transition)$/.test(path);
    if (!swipe) return fetch(input, init);
    log.inFlight += 1;
    log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
    const entry = { path: path.replace(/.*\//, ""), ifMatch: init.headers["If-Match"], body: JSON.parse(init.body), at: performance.now() };
    log.requests.push(entry);
    try {
      const response = await fetch(input, init);
      entry.status = response.status;
      return response;
    } finally {
      log.inFlight -= 1;
    }
  };
  return { client: new PagerdClient({ baseURL: PAGERD, fetch: fetcher }), log };
}

/** A logged session from `media` with its settings, a second client on it, and a drag whose
 *  errors are collected. */
async function twoClients() {
  const { client, log } = loggingClient();
  const session = await client.create({ template: "media" });
  await session.loadSettings();
  const other = await new PagerdClient({ baseURL: PAGERD }).open(session.id);
  const errors = [];
  const drag = session.drag({ draw: () => {}, onError: (error) => errors.push(error) });
  return { log, session, other, errors, drag };
}

/** Moves `drag` from 0 to `to` over `ms` milliseconds, one move per 16 ms frame; answers the
 *  number of moves (fewer on a busy machine, whose timers come late). */
async function swipe(drag, to, ms) {
  const start = performance.now();
  for (let moves = 1; ; moves += 1) {
    const t = Math.min(1, (performance.now() - start) / ms);
    drag.move(to * t);
    if (t === 1) return moves;
    await sleep(16);
  }
}

describe("Session.drag", () => {
  test("a 400 ms swipe: every frame drawn as the server answers it, at most 6 requests, never two at once", async () => {
    const { client, log } = loggingClient();
    const session = await client.create({ template: "mall", tabBar: { indicator: { style: "elastic" }, title: { scale: 0.8 } } });
    const settings = await session.loadSettings();
    const frames = [];
    const drag = session.drag({
      draw: (view, members, progress) => frames.push({ progress, members, from: session.state }),
    });
    const moves = await swipe(drag, -0.6, 400); // backward across the loop's seam, fast: a flick
    const state = await drag.release();
    assert.ok(log.requests.length <= 6, JSON.stringify(log.requests));
    console.log(`# a 400 ms swipe: ${log.requests.length} requests (${log.requests.map((r) => r.body.progress?.toFixed(3) ?? r.body.phase).join(", ")}), ${frames.length} frames drawn`);
    // Mirrored while the finger moves: the first move's report and at least one more.
    assert.ok(log.requests.filter((r) => r.path === "scroll").length >= 2);
    assert.equal(log.maxInFlight, 1);
    assert.equal(drag.requests, log.requests.length);
    // Drawn on every frame: each move's frame comes before the next move (Node runs timers of
    // the same delay in order); the last move's may be cancelled by the release.
    assert.ok(moves >= 2 && frames.length >= moves - 1, `${frames.length} frames for ${moves} moves`);
    // The release: a flick backward completes, to the last page (the seam).
    const end = log.requests.at(-1);
    assert.equal(end.path, "transition");
    assert.ok(drag.settle.velocity < -0.5, `velocity ${drag.settle.velocity}`);
    assert.equal(drag.settle.completed, true);
    if (releasesByVelocity(settings)) {
      assert.deepEqual(Object.keys(end.body), ["phase", "velocity"]);
      assert.equal(state.settle.completed, true);
    } else {
      assert.deepEqual(end.body, { phase: "end", completed: true });
    }
    assert.deepEqual([state.index, state.transition], [2, null]);
    // Each report carried If-Match of the version its frames were drawn from.
    const versions = log.requests.map((r) => Number(r.ifMatch.replace(/"/g, "")));
    assert.deepEqual(versions, versions.map((_, i) => i + 1));

    // Every frame drawn equals the server's answer for that progress, from the same state
    // (a second session in that state answers each).
    const twin = await client.create({ template: "mall", tabBar: { indicator: { style: "elastic" }, title: { scale: 0.8 } } });
    let largest = 0;
    for (const frame of frames) {
      assert.equal(frame.from.index, 0);
      const answer = await twin.scroll({ progress: frame.progress }, { ifMatch: false });
      const result = compare(scrollMembers(answer), frame.members);
      assert.deepEqual(result.problems, [], `progress ${frame.progress}`);
      largest = Math.max(largest, result.maxDiff);
      assert.deepEqual(frame.members, predictScroll(frame.from, settings, { progress: frame.progress }));
    }
    assert.ok(largest <= 1e-6);
  });

  test("a conflict mid-swipe is adopted: the swipe goes on from the server's state", async () => {
    const { log, session, other, errors, drag } = await twoClients();
    drag.move(0.1);
    await sleep(30);
    await other.next({ ifMatch: false }); // another client moves the pager: index 1
    for (let i = 1; i <= 15; i += 1) {
      drag.move(0.1 + i * 0.02);
      await sleep(16);
    }
    await sleep(150); // the finger rests: the release below goes at velocity 0
    // The last progress reported and answered (a report is due at most 100 ms after the last).
    await until("the last progress answered", () => drag.inFlight === null && drag.timer === null && drag.reported === drag.progress);
    assert.deepEqual(errors, []);
    const statuses = log.requests.map((r) => r.status);
    assert.equal(statuses.filter((status) => status === 412).length, 1, JSON.stringify(log.requests));
    assert.ok(statuses.length >= 3 && statuses.every((status) => status === 200 || status === 412));
    // The report after the other client's change was refused; the session took the server's
    // state (index 1) and reported the progress again from there.
    assert.equal(session.state.index, 1);
    assert.equal(session.state.transition.from, 1);
    assert.ok(Math.abs(session.state.transition.progress - drag.progress) < 1e-9);
    const state = await drag.release();
    assert.deepEqual([state.index, state.transition], [1, null]);
  });

  test("a slow release before half way goes back; one after goes on; a drag that never moves sends nothing", async () => {
    const { client, log } = loggingClient();
    const session = await client.create({ template: "media" });
    await session.loadSettings();
    const back = session.drag({ draw: () => {} });
    await swipe(back, 0.3, 100);
    await sleep(150); // the finger stops: the release velocity is 0
    assert.equal(back.velocity(), 0);
    assert.equal((await back.release()).index, 0);
    assert.equal(back.settle.completed, false);
    const on = session.drag({ draw: () => {} });
    await swipe(on, 0.7, 100);
    await sleep(150);
    assert.equal((await on.release()).index, 1);
    assert.deepEqual([on.settle.completed, on.settle.progress], [true, 0.7]);
    const before = log.requests.length;
    const still = session.drag({ draw: () => {} });
    await still.release();
    assert.equal(log.requests.length, before);
  });

  test("on a server that releases by velocity, the release sends the velocity alone", async () => {
    // A stand-in for such a server in front of the one under test (which may not release by
    // velocity yet): its settings gain `release`, and `end {velocity}` is decided by the rule
    // and forwarded as `end {completed}`, the answer carrying `settle`.
    const ends = [];
    let held = null;
    const fetcher = async (input, init = {}) => {
      const path = new URL(input).pathname;
      if (path.endsWith("/settings")) {
        const response = await fetch(input, init);
        const settings = await response.json();
        if (!("release" in settings)) settings.release = { flickVelocity: 0.5 };
        held = settings;
        return new Response(JSON.stringify(settings), { status: 200, headers: { "Content-Type": "application/json", ETag: response.headers.get("ETag") } });
      }
      if (!path.endsWith("/transition") || !init.body.includes("velocity")) return fetch(input, init);
      const body = JSON.parse(init.body);
      ends.push(body);
      if ("release" in (await (await fetch(input.replace(/transition$/, "settings"))).json())) return fetch(input, init);
      const state = await (await fetch(input.replace(/\/transition$/, ""))).json();
      const completed = predictRelease(state, held, body.velocity) ?? false;
      const response = await fetch(input, { ...init, body: JSON.stringify({ phase: "end", completed }) });
      const answer = await response.json();
      const p = state.transition ? (state.transition.direction === "forward" ? 1 : -1) * state.transition.progress : 0;
      if (response.ok && state.transition) answer.settle = { completed, progress: p, velocity: body.velocity };
      return new Response(JSON.stringify(answer), { status: response.status, headers: response.headers });
    };
    const session = await new PagerdClient({ baseURL: PAGERD, fetch: fetcher }).create({ template: "media" });
    assert.ok(releasesByVelocity(await session.loadSettings()));
    const drag = session.drag({ draw: () => {} });
    await swipe(drag, 0.3, 120); // short, fast: a flick forward
    const state = await drag.release();
    assert.equal(ends.length, 1);
    assert.deepEqual(Object.keys(ends[0]), ["phase", "velocity"]);
    assert.ok(ends[0].velocity > 0.5 && ends[0].velocity === drag.settle.velocity);
    assert.deepEqual([drag.settle.completed, state.index, state.settle.completed], [true, 1, true]);
  });

  test("when the server heard a progress that decides otherwise, the latest is reported first, at the rate", async () => {
    const { client, log } = loggingClient();
    const session = await client.create({ template: "media" });
    await session.loadSettings();
    const drag = session.drag({ draw: () => {}, mirrorRate: 2 });
    drag.move(0.45); // reported at once
    await sleep(150);
    drag.move(0.55); // not yet: one report per 500 ms
    const state = await drag.release(); // still finger: velocity 0; past half way, so it completes
    assert.deepEqual(log.requests.map((r) => r.body.progress ?? r.body.phase), [0.45, 0.55, "end"]);
    assert.ok(log.requests[1].at - log.requests[0].at >= 490);
    assert.equal(state.index, 1);
  });

  test("a change beside the swipe before the release: the end is sent again at the server's version", async () => {
    const { log, session, other, errors, drag } = await twoClients();
    drag.move(0.7); // reported at once
    await until("the report answered", () => drag.inFlight === null && session.state.transition !== null);
    // Another client pushes a screen: the version moves on, the swipe stays in flight.
    await other.push("music", { id: "detail" }, { ifMatch: false });
    await sleep(150); // the finger rests: velocity 0, past half way
    const state = await drag.release();
    assert.deepEqual(errors, []);
    const ends = log.requests.filter((r) => r.path === "transition");
    assert.deepEqual(ends.map((r) => r.status), [412, 200], JSON.stringify(log.requests));
    assert.equal(Number(ends[1].ifMatch.replaceAll('"', "")), Number(ends[0].ifMatch.replaceAll('"', "")) + 1);
    assert.deepEqual([drag.settle.completed, state.index, state.transition], [true, 1, null]);
    assert.equal((await other.refresh()).index, 1);
  });

  test("a release before the settings were read waits for them, and ends by velocity", async () => {
    const ends = [];
    const fetcher = async (input, init = {}) => {
      const path = new URL(input).pathname;
      if (path.endsWith("/settings")) await sleep(400);
      if (path.endsWith("/transition")) ends.push(JSON.parse(init.body));
      return fetch(input, init);
    };
    const session = await new PagerdClient({ baseURL: PAGERD, fetch: fetcher }).create({ template: "media" });
    const drag = session.drag({ draw: () => {} }); // asks for the settings, which take 400 ms
    await swipe(drag, 0.3, 120); // short, fast: a flick forward
    assert.equal(session.settings, null);
    const state = await drag.release();
    assert.deepEqual(ends.map((end) => Object.keys(end)), [["phase", "velocity"]]);
    assert.ok(ends[0].velocity > 0.5, JSON.stringify(ends));
    assert.deepEqual([drag.settle.completed, state.index, state.settle?.completed], [true, 1, true]);
  });

  test("a swipe another client ended while a report was in flight: the conflict goes to onError, nothing more is sent", async () => {
    const { client, log } = loggingClient();
    let slow = false;
    const delayed = client.fetch;
    client.fetch = async (input, init) => {
      if (slow && new URL(input).pathname.endsWith("/scroll")) await sleep(300);
      return delayed(input, init);
    };
    const session = await client.create({ template: "media" });
    await session.loadSettings();
    const other = await new PagerdClient({ baseURL: PAGERD }).open(session.id);
    const errors = [];
    const drag = session.drag({ draw: () => {}, onError: (error) => errors.push(error) });
    drag.move(0.3); // reported at once
    await until("the report answered", () => drag.inFlight === null && session.state.transition !== null);
    slow = true;
    await sleep(120);
    drag.move(0.45); // the second report waits 300 ms before it leaves
    assert.notEqual(drag.inFlight, null);
    await other.end(false, { ifMatch: false }); // meanwhile the other client cancels the swipe
    const state = await drag.release();
    assert.deepEqual(errors.map((error) => [error.status, error.code]), [[412, "version_mismatch"]]);
    assert.deepEqual(log.requests.map((r) => [r.path, r.status]), [["scroll", 200], ["scroll", 412]]);
    assert.deepEqual([state.index, state.transition], [0, null]);
  });

  test("a swipe another client ended before the release: the conflict goes to onError, nothing is sent again", async () => {
    const { log, session, other, errors, drag } = await twoClients();
    drag.move(0.7);
    await until("the report answered", () => drag.inFlight === null && session.state.transition !== null);
    await other.end(false, { ifMatch: false }); // the other client cancels the swipe
    await sleep(150);
    const state = await drag.release();
    assert.deepEqual(errors.map((error) => [error.status, error.code]), [[412, "version_mismatch"]]);
    assert.deepEqual(log.requests.filter((r) => r.path === "transition").map((r) => r.status), [412]);
    assert.deepEqual([state.index, state.transition], [0, null]);
  });
});
