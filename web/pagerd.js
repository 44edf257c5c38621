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
 * @typedef {object} State The state document of a session (see the `State` schema of
 *   /openapi.json): `id`, `version`, `index`, `tabs`, `indicator`, `accessibility`, `visible`…
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
 * listen for "change" (detail: `{state, kind, cause}`), "deleted" and "error".
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

  /** Keeps `next` if it is not older than the state held; tells the listeners. */
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
    source.addEventListener("deleted", () => {
      this.unfollow();
      this.dispatchEvent(new CustomEvent("deleted"));
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
