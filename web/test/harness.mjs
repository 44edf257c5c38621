// Shared by the Node tests of web/pagerd.js: a keep-alive HTTP client for a pagerd server, the
// scroll members of an answer, and a comparison of two documents that reports the largest
// numeric difference and every structural one.
import http from "node:http";

/** A client that sends JSON requests over a few keep-alive connections. */
export class Server {
  /** @param {string} base For example "http://127.0.0.1:8123". */
  constructor(base, { sockets = 1 } = {}) {
    this.url = new URL(base);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
    this.requests = 0;
  }

  /** Sends one request; resolves with `{status, headers, body}` (body parsed when JSON). */
  call(method, path, body, headers = {}) {
    this.requests += 1;
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const options = {
      method,
      host: this.url.hostname,
      port: this.url.port,
      path,
      agent: this.agent,
      headers: { ...headers, ...(payload ? { "Content-Type": "application/json", "Content-Length": payload.length } : {}) },
    };
    return new Promise((resolve, reject) => {
      const request = http.request(options, (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed = text;
          if (/json/.test(response.headers["content-type"] ?? "") && text) parsed = JSON.parse(text);
          resolve({ status: response.statusCode, headers: response.headers, body: parsed });
        });
        response.on("error", reject);
      });
      request.on("error", reject);
      if (payload) request.write(payload);
      request.end();
    });
  }

  /** Like call, but anything but `expected` is an error. */
  async json(method, path, body, expected = 200) {
    const answer = await this.call(method, path, body);
    if (answer.status !== expected) {
      throw new Error(`${method} ${path} ${JSON.stringify(body)} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }

  close() {
    this.agent.destroy();
  }
}

/** The scroll members of a state document or scroll answer, in the shape predictScroll returns. */
export function scrollMembers(doc) {
  const members = {
    transition: doc.transition,
    overscroll: doc.overscroll,
    pageOffset: doc.pageOffset,
    visible: doc.visible,
    indicator: doc.indicator,
    tabBar: { contentWidth: doc.tabBar.contentWidth, offset: doc.tabBar.offset },
    tabs: doc.tabs.map((tab) => {
      const picked = { x: tab.x, width: tab.width, selection: tab.selection, selected: tab.selected };
      if ("color" in tab) picked.color = tab.color;
      if ("scale" in tab) picked.scale = tab.scale;
      return picked;
    }),
  };
  if ("edge" in doc) members.edge = doc.edge;
  if ("blocked" in doc) members.blocked = doc.blocked;
  return members;
}

/**
 * Compares `actual` (predicted) with `expected` (the server's): numbers within `tolerance`,
 * everything else equal, the same members and the same number of items (both leave out a
 * segment piece no wider than 1e-9, so a sliver on either side is a difference).
 * @returns {{maxDiff: number, problems: string[]}}
 */
export function compare(expected, actual, tolerance = 1e-6) {
  const result = { maxDiff: 0, problems: [] };
  walk(expected, actual, "", result, tolerance);
  return result;
}

function walk(expected, actual, path, result, tolerance) {
  if (typeof expected === "number" && typeof actual === "number") {
    const diff = Math.abs(expected - actual);
    if (!(diff <= tolerance)) result.problems.push(`${path}: ${expected} != ${actual}`);
    if (diff > result.maxDiff || Number.isNaN(diff)) result.maxDiff = Number.isNaN(diff) ? Infinity : diff;
    return;
  }
  if (expected === null || actual === null || typeof expected !== "object" || typeof actual !== "object") {
    if (expected !== actual) result.problems.push(`${path}: ${JSON.stringify(expected)} != ${JSON.stringify(actual)}`);
    return;
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) {
    result.problems.push(`${path}: array against object`);
    return;
  }
  if (Array.isArray(expected)) {
    if (expected.length !== actual.length) {
      result.problems.push(`${path}: ${expected.length} items != ${actual.length}: ${JSON.stringify(expected)} vs ${JSON.stringify(actual)}`);
      return;
    }
    expected.forEach((item, i) => walk(item, actual[i], `${path}[${i}]`, result, tolerance));
    return;
  }
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const key of keys) {
    if (!(key in actual)) result.problems.push(`${path}.${key}: missing from the prediction`);
    else if (!(key in expected)) result.problems.push(`${path}.${key}: not in the server's answer`);
    else walk(expected[key], actual[key], `${path}.${key}`, result, tolerance);
  }
}

/** A seeded generator of numbers in [0, 1) (mulberry32), so a sweep can be repeated. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
