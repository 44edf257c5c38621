// pagerd.js: a dependency-free ES module for web apps that use pagerd. It creates and opens
// sessions, sends commands with If-Match (and, when another client changed the session first,
// reads the newer state and sends the command again), follows the session's event stream with
// reconnection and Last-Event-ID, and keeps the newest state document for the page to draw.
// Served by pagerd at /demo/pagerd.js; the shapes are those of /openapi.json.

/**
 * @typedef {object} Problem An RFC 9457 problem document.
 * @property {number} status
 * @property {string} code
 * @property {string} detail
 * @property {string} [field]
 */

/**
 * @typedef {"start" | "stop" | "pause" | "resume"} AutoAdvanceAction What
 *   `POST /v1/sessions/{id}/autoAdvance` does to the timer (SPEC §5.10).
 */

/**
 * @typedef {object} AutoAdvance The state member `autoAdvance` (SPEC §5.10): the setting's five
 *   members plus where the timer stands.
 * @property {boolean} enabled Whether auto-advance is switched on (a halt sets it false).
 * @property {number} interval Milliseconds between ticks.
 * @property {"forward" | "reverse"} direction Which way a tick moves.
 * @property {"rewind" | "stop"} atEnd What a tick does at the far end of a bounded pager.
 * @property {"pause" | "stop"} onInteraction What a swipe does to a running timer.
 * @property {boolean} running `enabled` and at least two pages.
 * @property {boolean} paused Whether a running timer is paused.
 * @property {"interaction" | "control" | null} pausedBy Who paused it; null unless paused.
 * @property {number | null} dueAt Server Unix time (ms) of the next tick; null unless running unpaused.
 * @property {number | null} remaining Milliseconds left when the pause ends; null unless paused.
 */

/**
 * @typedef {object} TabAccessibility A tab's accessibility descriptor (SPEC §5.9).
 * @property {string} label
 * @property {string | null} hint
 * @property {string} value For example "Tab 2 of 3".
 * @property {boolean} selected
 * @property {string[]} traits `["button"]` or `["button", "selected"]`.
 * @property {string[]} actions `[]` or `["activate"]`.
 */

/**
 * @typedef {object} Tab One tab of the strip (SPEC §2.2, §5.8, §5.9, §5.12).
 * @property {number} index
 * @property {string} id
 * @property {string} title
 * @property {number} x
 * @property {number} width
 * @property {number} selection How strongly the tab is highlighted, 0…1.
 * @property {boolean} selected
 * @property {string} [color] `#RRGGBBAA`, only when `tabBar.title` is set.
 * @property {number} [scale] Only when `tabBar.title` is set.
 * @property {string | null} icon
 * @property {string | number | null} badge
 * @property {TabAccessibility} accessibility
 */

/**
 * @typedef {object} Indicator The indicator's frame (SPEC §2.3, §5.8).
 * @property {number} x
 * @property {number} width
 * @property {number} height
 * @property {number} alpha 1, except while a fade indicator crosses between tabs.
 * @property {{x: number, width: number}[]} segments The visible pieces of the frame.
 */

/**
 * @typedef {object} Accessibility The pager's accessibility descriptor (SPEC §5.9).
 * @property {{value: string | null, traits: string[], actions: ("increment" | "decrement")[],
 *   platformActions: ("pageLeft" | "pageRight" | "pageUp" | "pageDown")[]}} pager
 * @property {"off" | "polite"} liveRegion "off" while auto-advance runs unpaused, else "polite".
 */

/**
 * @typedef {object} State The state document of a session (see the `State` schema of
 *   /openapi.json): `id`, `version`, `index`, `tabs`, `indicator`, `accessibility`, `visible`…
 *   A command's response adds what the command reported (`moved`, `edge`, `keyframes`,
 *   `announcement`, `actionRequested`, `blocked`); an event after the first adds `cause`.
 * @property {string} id
 * @property {number} version
 * @property {number | null} index
 * @property {number} pageCount
 * @property {boolean} empty
 * @property {Tab[]} tabs
 * @property {Indicator | null} indicator
 * @property {Accessibility} accessibility
 * @property {AutoAdvance} autoAdvance
 * @property {Cause} [cause] On events only: what made the change.
 */

/**
 * @typedef {"state" | "pageChanged" | "transition" | "pagesChanged" | "stackChanged" | "settingsChanged"
 *   | "actionRequested" | "autoAdvanceChanged"} EventKind The kinds of event that reach "change"
 *   ("deleted", after which nothing follows, is told apart as the Session's "deleted" event).
 */

/**
 * @typedef {"request" | "autoAdvance" | "idle"} Cause What made a change: a client's request, an
 *   auto-advance tick or halt (SPEC §5.10), or eviction of an idle session (on "deleted" only).
 */

/**
 * @typedef {object} ChangeDetail The detail of a Session's "change" event.
 * @property {State} state The newest state document.
 * @property {EventKind | "response"} kind The event's kind, or "response" for a command's answer.
 * @property {Cause} cause "request" for responses and for events that carry no `cause`.
 */

/** A refusal from pagerd: the problem document's `status`, `code`, `detail` and `field`. */
export class PagerdError extends Error {
  /** @param {Problem} problem */
  constructor(problem) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = "PagerdError";
    this.status = problem.status;
    this.code = problem.code;
    this.field = problem.field;
    this.problem = problem;
  }
}

/** A pagerd server: where it is and how to authenticate. */
export class PagerdClient {
  /**
   * @param {object} [options]
   * @param {string} [options.baseURL] The server's origin, such as "http://127.0.0.1:8080"; "" for the page's own.
   * @param {string} [options.token] The bearer token, when the server requires one.
   * @param {number} [options.retries] How many times a command is sent again after 412 (default 3).
   */
  constructor({ baseURL = "", token, retries = 3 } = {}) {
    this.baseURL = baseURL.replace(/\/$/, "");
    this.token = token;
    this.retries = retries;
  }

  /**
   * Sends one request; resolves with `{status, etag, body}`, or rejects with a PagerdError.
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @param {Record<string, string>} [headers]
   */
  async request(method, path, body, headers = {}) {
    const init = { method, headers: { ...headers } };
    if (this.token) init.headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(this.baseURL + path, init);
    const text = response.status === 204 || response.status === 304 ? "" : await response.text();
    const data = text ? JSON.parse(text) : null;
    if (!response.ok && response.status !== 304) {
      throw new PagerdError(data ?? { status: response.status, code: "unknown", detail: response.statusText });
    }
    return { status: response.status, etag: response.headers.get("ETag"), body: data };
  }

  /**
   * Creates a session from a template name plus overrides, or from a full definition.
   * @param {object} definition For example `{template: "mall"}` or `{pages: [...]}`.
   * @returns {Promise<Session>}
   */
  async create(definition) {
    const { body } = await this.request("POST", "/v1/sessions", definition);
    return new Session(this, body);
  }

  /**
   * Opens an existing session by id.
   * @param {string} id
   * @returns {Promise<Session>}
   */
  async open(id) {
    const { body } = await this.request("GET", `/v1/sessions/${encodeURIComponent(id)}`);
    return new Session(this, body);
  }
}

/**
 * One session. `state` is always the newest state document seen, from a response or an event;
 * listen for "change" (detail: a ChangeDetail, `{state, kind, cause}`), "deleted" (detail:
 * `{cause}`) and "error".
 */
export class Session extends EventTarget {
  /**
   * @param {PagerdClient} client
   * @param {State} state
   */
  constructor(client, state) {
    super();
    this.client = client;
    this.id = state.id;
    /** @type {State} */
    this.state = state;
    this.source = null;
    this.following = false;
    this.retryDelay = 250;
  }

  get version() {
    return this.state.version;
  }

  /**
   * Keeps `next` if it is not older than the state held; tells the listeners.
   * @param {State} next
   * @param {EventKind | "response"} [kind]
   * @param {Cause} [cause]
   */
  accept(next, kind = "response", cause = "request") {
    if (!next || next.id !== this.id || next.version < this.state.version) return false;
    const changed = next.version !== this.state.version || kind !== "response";
    this.state = next;
    if (changed) this.dispatchEvent(new CustomEvent("change", { detail: { state: next, kind, cause } }));
    return true;
  }

  path(suffix = "") {
    return `/v1/sessions/${encodeURIComponent(this.id)}${suffix}`;
  }

  /**
   * Sends a command at the version held (If-Match). When another client changed the session
   * first (412), reads the newer state and sends it again, up to the client's `retries`.
   * Resolves with the response's document: the new state plus what the command reported.
   * @param {string} method
   * @param {string} suffix
   * @param {unknown} [body]
   */
  async command(method, suffix, body) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const { body: result } = await this.client.request(method, this.path(suffix), body, {
          "If-Match": `"${this.state.version}"`,
        });
        if (result) this.accept(result);
        return result;
      } catch (error) {
        if (!(error instanceof PagerdError) || error.code !== "version_mismatch" || attempt >= this.client.retries) {
          throw error;
        }
        await this.refresh();
      }
    }
  }

  /** Reads the current state. */
  async refresh() {
    const { body } = await this.client.request("GET", this.path());
    this.accept(body);
    return this.state;
  }

  next() { return this.command("POST", "/next"); }
  previous() { return this.command("POST", "/previous"); }

  /**
   * @param {number | string} target An index, or a page id.
   * @param {{path?: "direct" | "shortest", animation?: "stepped" | "direct" | "capped"}} [options]
   */
  select(target, options = {}) {
    const body = typeof target === "number" ? { index: target } : { page: target };
    return this.command("POST", "/select", { ...body, ...options });
  }

  /** @param {{progress?: number, offset?: number, windowOffset?: number}} input Exactly one member. */
  scroll(input) { return this.command("POST", "/scroll", input); }
  /** @param {number} to */
  begin(to) { return this.command("POST", "/transition", { phase: "begin", to }); }
  /** @param {boolean} completed */
  end(completed) { return this.command("POST", "/transition", { phase: "end", completed }); }
  /** @param {object} page @param {{at?: number, then?: "stay" | "select"}} [options] */
  insert(page, options = {}) { return this.command("POST", "/pages", { page, ...options }); }
  /** @param {object} settings A merge patch of the settings (RFC 7396). */
  patch(settings) { return this.command("PATCH", "", settings); }

  /**
   * Starts, stops, pauses or resumes auto-advance (SPEC §5.10); answers with the state. An
   * unknown action is refused with a PagerdError whose `field` is "action".
   * @param {AutoAdvanceAction} action
   */
  autoAdvance(action) { return this.command("POST", "/autoAdvance", { action }); }

  /**
   * Pushes a screen on a page's navigation stack.
   * @param {string} pageId
   * @param {{id: string, title?: string, content?: object}} screen
   */
  push(pageId, screen) {
    return this.command("POST", `/pages/${encodeURIComponent(pageId)}/stack`, { screen });
  }

  /**
   * Pops the top screen of a page's stack, or every screen with `{toRoot: true}`.
   * @param {string} pageId
   * @param {{toRoot?: boolean}} [options]
   */
  pop(pageId, { toRoot = false } = {}) {
    return this.command("DELETE", `/pages/${encodeURIComponent(pageId)}/stack${toRoot ? "?to=root" : ""}`);
  }

  /**
   * Reads every page of the session, with content and stack (changes nothing).
   * @returns {Promise<object[]>}
   */
  async pages() {
    const { body } = await this.client.request("GET", this.path("/pages"));
    return body.pages;
  }

  /** Deletes the session and stops following it. */
  async delete() {
    this.unfollow();
    await this.client.request("DELETE", this.path(), undefined, { "If-Match": `"${this.state.version}"` });
  }

  /**
   * Follows the event stream: every change made by anyone reaches `state` and "change". A lost
   * stream is opened again after a short wait, from the last version seen (Last-Event-ID), so
   * nothing is missed and nothing repeats. Needs EventSource (browsers).
   */
  follow() {
    this.following = true;
    this.connect();
  }

  connect() {
    if (!this.following) return;
    // EventSource sends no headers of its own choosing, so the stream cannot carry a bearer
    // token: follow sessions of a server without `authToken`, or behind a proxy that adds it.
    const source = new EventSource(`${this.client.baseURL}${this.path("/events")}?lastEventId=${this.state.version}`);
    this.source = source;
    const kinds = ["state", "pageChanged", "transition", "pagesChanged", "stackChanged", "settingsChanged",
      "actionRequested", "autoAdvanceChanged"];
    for (const kind of kinds) {
      source.addEventListener(kind, (event) => {
        const data = JSON.parse(event.data);
        this.retryDelay = 250;
        this.accept(data, kind, data.cause ?? "request");
      });
    }
    source.addEventListener("deleted", (event) => {
      // The event carries the last state and its cause: "request" (a DELETE) or "idle" (evicted).
      let cause = "request";
      try { cause = JSON.parse(event.data).cause ?? cause; } catch { /* no document: keep "request" */ }
      this.unfollow();
      this.dispatchEvent(new CustomEvent("deleted", { detail: { cause } }));
    });
    source.addEventListener("error", () => {
      // The browser retries on its own while the stream is CONNECTING; once CLOSED, start over
      // from the version held, waiting longer each time (up to 5 s).
      if (source.readyState !== EventSource.CLOSED || !this.following) return;
      this.dispatchEvent(new CustomEvent("error"));
      setTimeout(() => { if (this.source === source) this.connect(); }, this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, 5000);
    });
  }

  /** Stops following the event stream. */
  unfollow() {
    this.following = false;
    if (this.source) this.source.close();
    this.source = null;
  }
}
