// pagerd.js: a dependency-free ES module for web apps that use pagerd. It imports nothing and
// touches no DOM when imported, so it runs in browsers and in Node 18 or later.
//
// - `predictScroll(state, settings, input)` computes, on the client, what pagerd will answer to
//   a scroll: a client draws every frame of a swipe itself, at once, exactly as the server will.
// - `PagerdClient` and `Session` send commands (with If-Match: a conflict is reported, never
//   re-sent behind the caller's back), follow the session's event stream (read with fetch, so it
//   carries the bearer token and stops on a refusal that retrying will not change), and keep the
//   newest state document.
//   The token is pagerd's authToken or an access token (a JWT for one session: `watch`, `drive`
//   or `control`); `Session.mintToken()` asks pagerd for one (a "share to watch" link), and
//   `Session.eventSourceURL()` gives the stream's URL with `?access_token=` for EventSource.
// - `Session.drag()` draws a swipe from the prediction on every frame and tells the server a few
//   times a second, then releases it by velocity.
// Every failure is a `PagerdError`. The types are declared in pagerd.d.ts, next to this file.
// Served by pagerd at /demo/pagerd.js.

// MARK: - Errors

/**
 * Every failure of this module: a problem document from pagerd (`code` is its code), a request
 * that got no answer (`code` "network_error", the TypeError as `cause`), an answer that is not
 * what pagerd sends (`code` "unexpected_response", e.g. a proxy's HTML page, with its `status`),
 * a cancelled call (`code` "aborted", the signal's reason as `cause`), or a refusal that
 * `predictScroll` computed (the code the server would answer).
 */
export class PagerdError extends Error {
  /**
   * @param {object} init
   * @param {number} [init.status] The HTTP status; 0 when there was no answer.
   * @param {string} init.code
   * @param {string} init.detail
   * @param {string} [init.field]
   * @param {import("./pagerd.js").Problem} [init.problem]
   * @param {unknown} [init.cause]
   * @param {import("./pagerd.js").State} [init.state]
   * @param {number} [init.retryAfter]
   */
  constructor({ status = 0, code, detail, field, problem, cause, state, retryAfter }) {
    super(status ? `${status} ${code}: ${detail}` : `${code}: ${detail}`, cause === undefined ? undefined : { cause });
    this.name = "PagerdError";
    /** @type {number} */
    this.status = status;
    /** @type {string} */
    this.code = code;
    /** @type {string} */
    this.detail = detail;
    /** @type {string | undefined} */
    this.field = field;
    /** @type {import("./pagerd.js").Problem | undefined} */
    this.problem = problem;
    /** @type {import("./pagerd.js").State | undefined} On version_mismatch: the session's current state. */
    this.state = state;
    /** @type {number | undefined} Seconds to wait before asking again, from the answer's Retry-After. */
    this.retryAfter = retryAfter;
    if (cause !== undefined && this.cause === undefined) this.cause = cause;
  }
}

/** A 400 invalid_request naming `field`, as the server words it. */
function invalidRequest(detail, field) {
  return new PagerdError({ status: 400, code: "invalid_request", detail, field });
}

// MARK: - Prediction
//
// predictScroll follows the server's computation step by step, in the same order and with the
// same expressions, so that its numbers agree to the last bits in practice (the contract is
// 1e-6). The steps:
//   1. read the input and turn it into a signed progress p (scrollProgress);
//   2. apply the scroll to the swipe state: transition, overscroll, edge, blocked (applyScroll);
//   3. lay out the tab frames for the tabs' highlight (tabFrames), place the indicator's focus
//      frame (focusFrame), take the indicator inset off it, scroll the tab bar (barOffset),
//      cut the segments, fill a progressive indicator, mirror right to left (tabBarMembers);
//   4. the page axis: pageOffset and visible (pageAxis).
// Each of the layout settings that came later (tab alignment, where the selected tab scrolls to,
// the indicator inset, bounded and auto widths, a selected tab of its own width, several pages
// per viewport) lives in one function below; at their defaults each reduces to the rule before it.

/** Thresholds on progress and widths allow this much (f ≥ 0.5 means f ≥ 0.5 − 1e-9). */
const TOLERANCE = 1e-9;
/** A segment piece no wider than this is a rounding sliver, and is omitted. */
const SLIVER = 1e-9;
const SCROLL_FORMS = ["progress", "offset", "windowOffset"];

/**
 * The scroll members of pagerd's answer to `POST /v1/sessions/{id}/scroll` with `input`, given
 * the session's state (`state`, at rest or mid-swipe, from an answer or an event) and its
 * settings (`settings`, from `GET /v1/sessions/{id}/settings`). Throws a PagerdError with the
 * code the server would answer for a bad input (400 invalid_request) or an empty pager (409
 * empty_pager).
 * @param {import("./pagerd.js").State} state
 * @param {import("./pagerd.js").Settings} settings
 * @param {import("./pagerd.js").ScrollInput} input
 * @returns {import("./pagerd.js").ScrollMembers}
 */
export function predictScroll(state, settings, input) {
  const { form, value } = readScrollInput(input);
  if (state.empty || state.index === null || state.index === undefined) {
    throw new PagerdError({ status: 409, code: "empty_pager", detail: "The pager has no pages." });
  }
  const pager = readPager(state, settings);
  const raw = progressFrom(pager, form, value);
  // A ratio that overflows to ±Infinity still has a direction (and is clamped); only NaN is
  // refused, as the server refuses it.
  if (Number.isNaN(raw)) throw invalidRequest("Must be a finite number.", form);
  const motion = applyScroll(pager, raw);
  const members = render(pager, motion.transition, motion.overscroll);
  if (motion.edge) members.edge = motion.edge;
  if (motion.blocked) members.blocked = motion.blocked;
  return members;
}

/**
 * The signed progress p that pagerd derives from a scroll input (before clamping it to [−1, 1]):
 * + toward the next page. Throws as predictScroll does.
 * @param {import("./pagerd.js").State} state
 * @param {import("./pagerd.js").Settings} settings
 * @param {import("./pagerd.js").ScrollInput} input
 * @returns {number}
 */
export function scrollProgress(state, settings, input) {
  const { form, value } = readScrollInput(input);
  if (state.empty || state.index === null || state.index === undefined) {
    throw new PagerdError({ status: 409, code: "empty_pager", detail: "The pager has no pages." });
  }
  return progressFrom(readPager(state, settings), form, value);
}

/**
 * Whether a release with `velocity` (pages per second, signed like progress) completes the swipe
 * in flight in `state`, by pagerd's rule: it completes when the velocity points the swipe's way
 * at the flick velocity or faster, or when it is past half way and not flung back at least that
 * fast. null when nothing is in flight (the release changes nothing).
 * @param {import("./pagerd.js").State} state
 * @param {import("./pagerd.js").Settings} settings
 * @param {number} velocity
 * @returns {boolean | null}
 */
export function predictRelease(state, settings, velocity) {
  let p, s;
  if (state.transition) {
    s = state.transition.direction === "forward" ? 1 : -1;
    p = s * state.transition.progress;
  } else if (state.overscroll) {
    s = state.overscroll.edge === "end" ? 1 : -1;
    p = s * state.overscroll.progress;
  } else {
    return null;
  }
  const flick = settings.release?.flickVelocity ?? 0.5;
  return velocity * s >= flick || (Math.abs(p) >= 0.5 - TOLERANCE && velocity * s > -flick);
}

/**
 * `state` with the scroll members `members` (from predictScroll) in place of its own: what the
 * state document will be once the server has applied the scroll (but for `version`,
 * `autoAdvance` and `accessibility`). `state` is not changed.
 * @param {import("./pagerd.js").State} state
 * @param {import("./pagerd.js").ScrollMembers} members
 * @returns {import("./pagerd.js").State}
 */
export function withScroll(state, members) {
  const next = { ...state };
  for (const key of ["transition", "overscroll", "pageOffset", "visible", "indicator"]) next[key] = members[key];
  next.tabBar = { ...state.tabBar, ...members.tabBar };
  next.tabs = state.tabs.map((tab, i) => ({ ...tab, ...members.tabs[i] }));
  delete next.edge;
  delete next.blocked;
  if (members.edge) next.edge = members.edge;
  if (members.blocked) next.blocked = members.blocked;
  return next;
}

/**
 * Reads a scroll input as the server reads the JSON body it is sent as: exactly one of
 * `progress`, `offset` or `windowOffset`, a number; a member that JSON would drop (undefined) or
 * send as null (null, NaN, ±Infinity) counts as absent.
 */
function readScrollInput(input) {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw invalidRequest("The body must be a JSON object.");
  }
  const present = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
    if (!SCROLL_FORMS.includes(key)) {
      throw invalidRequest("Unknown member; expected one of offset, progress, windowOffset.", key);
    }
  }
  for (const form of SCROLL_FORMS) {
    const value = input[form];
    const absent = value === undefined || value === null || (typeof value === "number" && !Number.isFinite(value));
    if (!absent) present.push(form);
  }
  if (present.length !== 1) {
    throw invalidRequest(
      "Send exactly one of 'progress', 'offset' or 'windowOffset'.",
      present.length > 1 ? present[1] : "progress",
    );
  }
  const form = present[0];
  const value = input[form];
  if (typeof value !== "number") throw invalidRequest(`Expected a number, found ${kindName(value)}.`, form);
  return { form, value };
}

function kindName(value) {
  if (typeof value === "string") return "a string";
  if (typeof value === "boolean") return "a boolean";
  if (Array.isArray(value)) return "an array";
  return "an object";
}

// MARK: Reading the state and the settings

/**
 * What the prediction reads, in one place: the pager from the state (index, page count,
 * transition, overscroll, the tab frames left to right) and the settings that bear on a scroll.
 */
function readPager(state, settings) {
  if (!settings || typeof settings !== "object" || !settings.tabBar || !settings.viewport) {
    throw new TypeError("predictScroll needs the session's settings document (GET /v1/sessions/{id}/settings).");
  }
  if (!state || !Array.isArray(state.tabs) || !state.tabBar) throw new TypeError("predictScroll needs a state document of pagerd.");
  const viewport = settings.viewport;
  const bar = settings.tabBar;
  const vertical = settings.orientation === "vertical";
  const rtl = settings.layoutDirection === "rtl";
  const W = viewport.width;
  const E = vertical ? viewport.height : W;
  // `auto` is resolved by the server when it lays the frames out; the state says which it chose.
  const layout = bar.layout === "auto" ? state.tabBar.effectiveLayout ?? "fixed" : bar.layout;
  const n = state.pageCount;
  const pager = {
    state,
    n,
    c: state.index,
    loop: settings.mode === "loop",
    swipe: settings.swipe,
    rubberBand: settings.rubberBand,
    W,
    E,
    rtl,
    // Horizontal page offsets are mirrored right to left; vertical ones never are.
    mirrorsPages: rtl && !vertical,
    transition: state.transition ?? null,
    overscroll: state.overscroll ?? null,
    tabBar: readTabBar(state, bar, layout, W, rtl),
    pages: readPageAxis(viewport, settings.mode, n, E),
  };
  return pager;
}

/**
 * The tab bar: its settings, and each tab's frame left to right (the state's frames unmirrored,
 * kept inside the bar: on a very wide bar, C − x − w is off by a rounding error that would
 * otherwise reach past an edge, where the server's own frames never do).
 */
function readTabBar(state, bar, layout, W, rtl) {
  const indicator = bar.indicator;
  const C = state.tabBar.contentWidth;
  const tabs = state.tabs;
  const unmirrored = (tab) => Math.min(Math.max(C - tab.x - tab.width, 0), C - tab.width);
  const frames = tabs.map((tab) => ({ x: rtl ? unmirrored(tab) : tab.x, width: tab.width }));
  const inset = indicator.inset ?? {};
  return {
    layout,
    hasTabs: layout !== "none" && tabs.length > 0,
    contentWidth: C,
    frames,
    W,
    e: bar.inset,
    s: bar.spacing,
    alignment: bar.alignment ?? "leading",
    scrollPosition: bar.selectedScrollPosition ?? "center",
    // A selected tab of its own width: the widths of the tabs when not selected come with the state.
    selectedWidth: layout === "scrollable" ? bar.selectedTabWidth ?? null : null,
    baseWidths: tabs.map((tab) => tab.baseWidth),
    height: indicator.height,
    style: indicator.style,
    tracking: indicator.tracking,
    overscroll: indicator.overscroll,
    progressive: indicator.progressive,
    inset: {
      leading: inset.leading ?? 0,
      trailing: inset.trailing ?? 0,
      firstLeading: inset.firstLeading ?? 0,
      lastTrailing: inset.lastTrailing ?? 0,
    },
    title: bar.title ? readTitle(bar.title) : null,
  };
}

/** The title colours as channels and the scales. */
function readTitle(title) {
  return {
    color: readColour(title.color ?? "#000000FF"),
    selectedColor: readColour(title.selectedColor ?? "#037DE9FF"),
    scale: title.scale ?? 1,
    selectedScale: title.selectedScale ?? 1,
  };
}

/** "#RRGGBB" or "#RRGGBBAA" as [R, G, B, A]. */
function readColour(text) {
  const hex = text.slice(1);
  const channels = [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
  channels.push(hex.length === 8 ? parseInt(hex.slice(6, 8), 16) : 255);
  return channels;
}

/**
 * The page axis: E, and for several pages per viewport the page size P, stride D, centring
 * offset κ and the bound M of a bounded pager. `plain` with one page per viewport and no
 * spacing, whether or not `centered` is set (a page E long has nothing to centre): then the
 * simple formulas apply as they are.
 */
function readPageAxis(viewport, mode, n, E) {
  const k = viewport.pagesPerView ?? 1;
  const g = viewport.pageSpacing ?? 0;
  const plain = k === 1 && g === 0;
  const centered = !plain && (viewport.centered ?? false);
  const P = (E - (k - 1) * g) / k;
  const D = P + g;
  const kappa = centered ? (E - P) / 2 : 0;
  // A loop of one page is laid out as a bounded one.
  const bounded = mode === "bounded" || n < 2;
  const M = bounded && !centered ? Math.max(0, (n - 1) * D - (E - P)) : Infinity;
  return { plain, P, D, kappa, M, bounded, centered };
}

// MARK: Navigation

/** The index one step from `position` in `direction`, wrapping in a loop; null at a bounded end. */
function neighbor(pager, position, direction) {
  if (pager.n < 2) return null;
  const target = position + (direction === "forward" ? 1 : -1);
  if (target >= 0 && target < pager.n) return target;
  return pager.loop ? (target + pager.n) % pager.n : null;
}

/** The edge a move from `position` in `direction` meets, if any; a loop of two or more has none. */
function edgeAfter(pager, position, direction) {
  if (pager.loop && pager.n >= 2) return null;
  if (direction === "forward") return position === pager.n - 1 ? "end" : null;
  return position === 0 ? "start" : null;
}

function allows(swipe, direction) {
  return swipe === "both" || swipe === direction;
}

/**
 * The swipe state after a scroll to raw progress `raw`: `{transition, overscroll, edge?,
 * blocked?}`, as the server applies it (a locked way changes nothing; p = 0 keeps a transition
 * at 0; no neighbour gives the rest state or, with a rubber band, an overscroll).
 */
function applyScroll(pager, raw) {
  const { c } = pager;
  if (raw !== 0) {
    const way = raw > 0 ? "forward" : "reverse";
    if (!allows(pager.swipe, way)) return { transition: pager.transition, overscroll: pager.overscroll, blocked: way };
  }
  const p = Math.min(Math.max(raw, -1), 1);
  if (p === 0) {
    const transition = pager.transition ? { ...pager.transition, progress: 0 } : null;
    return { transition, overscroll: null };
  }
  const direction = p > 0 ? "forward" : "reverse";
  const target = neighbor(pager, c, direction);
  if (target === null) {
    const edge = edgeAfter(pager, c, direction);
    if (pager.rubberBand.style === "none" || !edge) return { transition: null, overscroll: pager.overscroll, edge };
    return { transition: null, overscroll: { edge, progress: Math.abs(p) }, edge };
  }
  return { transition: { from: c, to: target, progress: Math.abs(p), direction }, overscroll: null };
}

// MARK: The page axis

/**
 * Signed progress from an input form. An offset within TOLERANCE of the page offset the current
 * page reports at rest (computed as it is reported, so the `pageOffset` a state gave, sent back,
 * is on it exactly), or a window offset within TOLERANCE of one stride, is the rest: progress 0.
 */
function progressFrom(pager, form, value) {
  if (form === "progress") return value;
  const { E, n, c, pages } = pager;
  if (form === "offset") {
    const rest = pages.plain ? c * E : restOffset(pager, c);
    const reported = pager.mirrorsPages ? mirroredPageOffset(pager, rest) : rest;
    if (Math.abs(value - reported) <= TOLERANCE) return 0;
  }
  if (pages.plain) {
    if (form === "offset") {
      if (!pager.mirrorsPages) return value / E - c;
      return ((n - 1) * E - value) / E - c;
    }
    if (Math.abs(value - E) <= TOLERANCE) return 0;
    return pager.mirrorsPages ? (E - value) / E : (value - E) / E;
  }
  // Several pages per viewport: a unit of progress is one stride D.
  const { D, kappa } = pages;
  if (form === "windowOffset") {
    if (Math.abs(value - D) <= TOLERANCE) return 0;
    return pager.mirrorsPages ? (D - value) / D : (value - D) / D;
  }
  const offset = pager.mirrorsPages ? restOffset(pager, 0) + restOffset(pager, n - 1) - value : value;
  const Oc = restOffset(pager, c);
  const way = offset > Oc ? "forward" : offset < Oc ? "reverse" : null;
  const t = way ? neighbor(pager, c, way) : null;
  if (!isLimited(pager, c) && (t === null || !isLimited(pager, t))) return (offset + kappa) / D - c;
  const Ot = t === null ? Oc : restOffset(pager, t);
  // Rest offsets within 1e-9 are one offset (j·D − κ and M can differ by rounding).
  const span = Math.abs(Ot - Oc) <= 1e-9 ? D : Math.abs(Ot - Oc);
  return (offset - Oc) / span;
}

/** The rest offset O_j of position j (several pages per viewport). */
function restOffset(pager, j) {
  const { D, kappa, M } = pager.pages;
  return isLimited(pager, j) ? M : j * D - kappa;
}

/** Whether position j cannot scroll to its own rest offset: the last pages share one view. */
function isLimited(pager, j) {
  const { D, kappa, M } = pager.pages;
  return j * D - kappa > M + TOLERANCE;
}

/** The page offset along the axis, before mirroring, and the pages on screen. */
function pageAxis(pager, transition, overscroll) {
  const { c, E, pages } = pager;
  if (pages.plain) {
    let moving = 0;
    if (transition) moving = (transition.direction === "forward" ? 1 : -1) * transition.progress;
    else if (overscroll) moving = overscrollShift(pager, overscroll, E);
    const offset = (c + moving) * E;
    return { offset, visible: plainVisible(pager, transition) };
  }
  const { D, kappa } = pages;
  let offset, rest;
  if (transition) {
    const sigma = transition.direction === "forward" ? 1 : -1;
    const f = transition.progress;
    if (isLimited(pager, c) || isLimited(pager, transition.to)) {
      const Oc = restOffset(pager, c);
      offset = Oc + (restOffset(pager, transition.to) - Oc) * f;
    } else {
      offset = (c + sigma * f) * D - kappa;
    }
    rest = offset;
  } else if (overscroll) {
    const delta = overscrollShift(pager, overscroll, D);
    offset = isLimited(pager, c) ? restOffset(pager, c) + delta * D : (c + delta) * D - kappa;
    rest = restOffset(pager, c);
  } else {
    offset = restOffset(pager, c);
    rest = offset;
  }
  return { offset, visible: spreadVisible(pager, transition, rest) };
}

/**
 * δ = σ_e·D′/extent in an overscroll: the displacement past the end in pages, with the rubber
 * band's resistance applied to the finger's travel.
 */
function overscrollShift(pager, overscroll, extent) {
  const travel = overscroll.progress * extent;
  const { style, ratio } = pager.rubberBand;
  const displacement = style === "resistance" ? Math.max(0, Math.pow(travel, ratio) - 1) : travel;
  return ((overscroll.edge === "end" ? 1 : -1) * displacement) / extent;
}

/** [{c, 1 − f}, {t, f}] without an entry whose share of the page is at most 1 point. */
function plainVisible(pager, transition) {
  const { c, E } = pager;
  const visible = [];
  const show = (index, fraction) => {
    if (fraction * E > 1 + TOLERANCE) visible.push({ index, id: pageId(pager, index), fraction });
  };
  if (!transition) {
    visible.push({ index: c, id: pageId(pager, c), fraction: 1 });
    return visible;
  }
  show(c, 1 - transition.progress);
  show(transition.to, transition.progress);
  return visible;
}

/**
 * Several pages per viewport: every position whose page overlaps the view [V, V + E] by more
 * than a point, with the overlap as a share of a page; c first, then t, then the rest along the
 * axis. In a loop, position j shows page j mod n.
 */
function spreadVisible(pager, transition, V) {
  const { n, c, E } = pager;
  const { P, D, bounded } = pager.pages;
  let first = Math.floor((V - P) / D);
  let last = Math.ceil((V + E) / D);
  if (bounded) {
    first = Math.max(first, 0);
    last = Math.min(last, n - 1);
  }
  const current = [], target = [], rest = [];
  const toPosition = transition ? c + (transition.direction === "forward" ? 1 : -1) : null;
  for (let j = first; j <= last; j += 1) {
    const overlap = Math.min(j * D + P, V + E) - Math.max(j * D, V);
    if (overlap <= 1 + TOLERANCE) continue;
    const index = ((j % n) + n) % n;
    const entry = { index, id: pageId(pager, index), fraction: Math.min(1, overlap / P) };  // (jD + P) − jD can round above P
    if (j === c) current.push(entry);
    else if (j === toPosition) target.push(entry);
    else rest.push(entry);
  }
  return [...current, ...target, ...rest];
}

/** The id of page `index`, from whichever member of the state lists it. */
function pageId(pager, index) {
  const s = pager.state;
  if (s.index === index && s.page) return s.page.id;
  for (const summary of [s.next, s.previous, ...(s.preload ?? []), ...(s.tabs ?? []), ...(s.visible ?? [])]) {
    if (summary && summary.index === index) return summary.id;
  }
  throw new PagerdError({
    code: "unexpected_response",
    detail: `The state names no id for page ${index}, which this scroll brings into view.`,
  });
}

// MARK: The tab bar

/**
 * How strongly each tab is highlighted and which one is selected: tab c at rest or in an
 * overscroll; during a transition from c to t at f, by the tracking.
 */
function highlight(pager, transition) {
  const { c } = pager;
  const selection = new Array(pager.n).fill(0);
  if (!transition) {
    selection[c] = 1;
    return { selection, selected: c };
  }
  const halfway = transition.progress >= 0.5 - TOLERANCE ? transition.to : transition.from;
  switch (pager.tabBar.tracking) {
    case "halfway":
      selection[halfway] = 1;
      return { selection, selected: halfway };
    case "settled":
      selection[c] = 1;
      return { selection, selected: c };
    default:
      selection[transition.to] = transition.progress;
      selection[c] = 1 - transition.progress;
      return { selection, selected: halfway };
  }
}

/**
 * The tab frames of the moment, left to right, and the bar's content width C. The state's own
 * frames, unless a selected tab has its own width: then each tab is widened by its selection
 * from its base width and the bar is laid out again (inset, spacing, alignment).
 */
function tabFrames(bar, selection) {
  if (bar.selectedWidth === null) return { frames: bar.frames, C: bar.contentWidth, delta: alignmentShift(bar, bar.frames) };
  const S = bar.selectedWidth;
  const frames = [];
  let x = bar.e;
  bar.baseWidths.forEach((base, i) => {
    const width = base + (S - base) * selection[i];
    frames.push({ x, width });
    x += width + bar.s;
  });
  const last = frames[frames.length - 1];
  const C0 = last.x + last.width + bar.e;
  const delta = alignmentOffset(bar, C0);
  if (delta === 0) return { frames, C: C0, delta: 0 };
  return { frames: frames.map((f) => ({ x: f.x + delta, width: f.width })), C: bar.W, delta };
}

/** Δ, how far alignment moves a scrollable bar's tabs whose content C0 is narrower than W. */
function alignmentOffset(bar, C0) {
  if (bar.layout !== "scrollable" || bar.alignment === "leading" || !(C0 < bar.W - TOLERANCE)) return 0;
  return bar.alignment === "center" ? (bar.W - C0) / 2 : bar.W - C0;
}

/** Δ of frames laid out by the server: the first tab's distance from the inset. */
function alignmentShift(bar, frames) {
  if (bar.layout !== "scrollable" || bar.alignment === "leading" || frames.length === 0) return 0;
  return frames[0].x - bar.e;
}

/**
 * The indicator's focus frame G, left to right, at rest on c, between tabs during a transition
 * (by tracking and style), or past an end; with `kind`, how its segments are cut ("rest": one
 * piece; "wrap": clipped to the bar, wrapping across a loop's seam; "edge": one clipped piece),
 * the indicator inset to take off it, and its alpha.
 */
function focusFrame(pager, layout, transition, overscroll) {
  const bar = pager.tabBar;
  const { frames, C } = layout;
  const current = frames[pager.c];
  const rest = (j) => ({ frame: frames[j], kind: "rest", inset: tabInset(pager, j), alpha: 1 });
  if (transition) {
    const f = transition.progress;
    const shown = f >= 0.5 - TOLERANCE ? transition.to : transition.from;
    switch (bar.tracking) {
      case "halfway":
        return rest(shown);
      case "settled":
        return rest(pager.c);
      default:
        if (bar.style === "fade") return { ...rest(shown), alpha: Math.abs(1 - 2 * f) };
        break;
    }
    const target = { ...frames[transition.to] };
    // Across a loop's seam the target is taken one period away, so the indicator keeps moving
    // the way the page moves.
    if (transition.direction === "forward" && transition.to < transition.from) target.x += C;
    if (transition.direction === "reverse" && transition.to > transition.from) target.x -= C;
    const from = tabInset(pager, pager.c), to = tabInset(pager, transition.to);
    const inset = { a: from.a + (to.a - from.a) * f, b: from.b + (to.b - from.b) * f };
    return { frame: interpolate(current, target, f, bar.style), kind: "wrap", inset, alpha: 1 };
  }
  if (overscroll && bar.tracking === "continuous") {
    const shift = overscrollShift(pager, overscroll, pager.pages.plain ? pager.E : pager.pages.D);
    let frame;
    if (bar.overscroll === "bounce") frame = { x: current.x + shift * current.width, width: current.width };
    else if (bar.overscroll === "compress" && overscroll.edge === "end") {
      frame = { x: current.x + shift * current.width, width: current.width * (1 - shift) };
    } else if (bar.overscroll === "compress") frame = { x: current.x, width: current.width * (1 + shift) };
    else frame = current;
    return { frame, kind: "edge", inset: tabInset(pager, pager.c), alpha: 1 };
  }
  return rest(pager.c);
}

/** Tab j's indicator inset (A_j, B_j): the leading and trailing insets, wider at the bar's ends. */
function tabInset(pager, j) {
  const { leading, trailing, firstLeading, lastTrailing } = pager.tabBar.inset;
  return {
    a: Math.max(leading, j === 0 ? firstLeading : 0),
    b: Math.max(trailing, j === pager.n - 1 ? lastTrailing : 0),
  };
}

/** The indicator frame F: G less the inset (A, B), collapsed where the inset is wider than G. */
function insetFrame(G, { a, b }) {
  if (a === 0 && b === 0) return G;
  if (a + b > G.width) return { x: G.x + (G.width * a) / (a + b), width: 0 };
  return { x: G.x + a, width: G.width - a - b };
}

/** a(f) = 1 − cos(f·π/2), starts slow; d(f) = sin(f·π/2), starts fast. */
const ease = (f) => 1 - Math.cos((f * Math.PI) / 2);
const lead = (f) => Math.sin((f * Math.PI) / 2);
const lerp = (a, b, t) => a + (b - a) * t;

/** The frame between `current` and `target` at progress f: linear, or elastic (edges apart). */
function interpolate(current, target, f, style) {
  if (style !== "elastic") return { x: lerp(current.x, target.x, f), width: lerp(current.width, target.width, f) };
  const currentRight = current.x + current.width, targetRight = target.x + target.width;
  let left, right;
  if (target.x > current.x) {
    left = lerp(current.x, target.x, ease(f));
    right = lerp(currentRight, targetRight, lead(f));
  } else {
    left = lerp(current.x, target.x, lead(f));
    right = lerp(currentRight, targetRight, ease(f));
  }
  return { x: left, width: right - left };
}

/** A piece, unless it is a sliver. */
function piece(x, width, into) {
  if (width > SLIVER) into.push({ x, width });
}

/** The visible pieces of F in a bar of width C: inside first, then what wrapped past an edge. */
function wrappedSegments(F, C) {
  const pieces = [];
  const right = F.x + F.width;
  const insideLeft = Math.max(F.x, 0), insideRight = Math.min(right, C);
  piece(insideLeft, insideRight - insideLeft, pieces);
  if (F.x < 0) piece(C + F.x, Math.min(-F.x, F.width), pieces);
  if (right > C) piece(Math.max(F.x - C, 0), Math.min(right - C, F.width), pieces);
  return pieces;
}

/** F clipped to the bar, one piece (an overscroll never wraps). */
function clippedSegments(F, C) {
  const pieces = [];
  const left = Math.max(F.x, 0), right = Math.min(F.x + F.width, C);
  piece(left, right - left, pieces);
  return pieces;
}

/**
 * The tab bar's offset for focus frame G: where the selected tab scrolls to (centred by
 * default), clamped to the content; 0 unless the bar scrolls.
 */
function barOffset(pager, G, C) {
  const bar = pager.tabBar;
  if (bar.layout !== "scrollable") return 0;
  const W = pager.W;
  let wanted;
  if (bar.scrollPosition === "leading") wanted = G.x - bar.e;
  else if (bar.scrollPosition === "trailing") wanted = G.x + G.width + bar.e - W;
  else wanted = G.x + G.width / 2 - W / 2;
  return Math.min(Math.max(wanted, 0), Math.max(0, C - W));
}

/** The tab members of a scroll answer: tabs, indicator and tabBar, mirrored when right to left. */
function tabBarMembers(pager, transition, overscroll) {
  const bar = pager.tabBar;
  if (!bar.hasTabs) {
    return { tabs: [], indicator: null, tabBar: { contentWidth: bar.layout === "none" ? 0 : bar.contentWidth, offset: 0 } };
  }
  const lit = highlight(pager, transition);
  const layout = tabFrames(bar, lit.selection);
  const { frames, C, delta } = layout;
  const mirror = (f) => (pager.rtl ? { x: C - f.x - f.width, width: f.width } : { x: f.x, width: f.width });

  const title = bar.title;
  /** @type {import("./pagerd.js").ScrollTab[]} */
  const tabs = new Array(frames.length);
  for (let i = 0; i < frames.length; i += 1) {
    const frame = frames[i];
    const selection = lit.selection[i];
    const x = pager.rtl ? C - frame.x - frame.width : frame.x;
    tabs[i] = title
      ? {
        x, width: frame.width, selection, selected: i === lit.selected,
        color: mixColour(title.color, title.selectedColor, selection),
        scale: title.scale + (title.selectedScale - title.scale) * selection,
      }
      : { x, width: frame.width, selection, selected: i === lit.selected };
  }

  const focus = focusFrame(pager, layout, transition, overscroll);
  const G = focus.frame;
  let F = insetFrame(G, focus.inset);
  let segments;
  if (focus.kind === "wrap") segments = wrappedSegments(F, C);
  else if (focus.kind === "edge") segments = clippedSegments(F, C);
  else segments = F.width > SLIVER ? [{ x: F.x, width: F.width }] : [];
  const offset = barOffset(pager, G, C);
  if (bar.progressive) {
    // The fill runs from the bar's start (or where aligned tabs start) to F's trailing edge, and
    // is empty when that edge is before it (an inset wider than a tab pulled past the start).
    const right = F.x + F.width;
    segments = [];
    F = { x: delta, width: Math.max(0, right - delta) };
    piece(delta, Math.min(right, C) - delta, segments);
  }
  const frame = mirror(F);
  const indicator = {
    x: frame.x,
    width: frame.width,
    height: bar.height,
    alpha: focus.alpha,
    segments: segments.map(mirror),
  };
  const reportedOffset = pager.rtl && bar.layout === "scrollable" ? Math.max(0, C - pager.W) - offset : offset;
  return { tabs, indicator, tabBar: { contentWidth: C, offset: reportedOffset } };
}

/** "00" … "FF". */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, "0"));

/** Each channel floor(a + (b − a)·fraction + 0.5 + 1e-9), written "#RRGGBBAA". */
function mixColour(from, to, fraction) {
  let text = "#";
  for (let i = 0; i < 4; i += 1) {
    const value = Math.floor(from[i] + (to[i] - from[i]) * fraction + 0.5 + TOLERANCE);
    text += HEX[Math.min(Math.max(value, 0), 255)];
  }
  return text;
}

/** The scroll members for a swipe state, as the server reports them. */
function render(pager, transition, overscroll) {
  const axis = pageAxis(pager, transition, overscroll);
  const pageOffset = pager.mirrorsPages ? mirroredPageOffset(pager, axis.offset) : axis.offset;
  const bar = tabBarMembers(pager, transition, overscroll);
  return {
    transition: transition ? { ...transition } : null,
    overscroll: overscroll ? { ...overscroll } : null,
    pageOffset,
    visible: axis.visible,
    indicator: bar.indicator,
    tabBar: bar.tabBar,
    tabs: bar.tabs,
  };
}

/** P′ = R − P, R being the rest offset of the last page plus that of the first ((n − 1)·W). */
function mirroredPageOffset(pager, offset) {
  if (pager.pages.plain) return (pager.n - 1) * pager.W - offset;
  return restOffset(pager, 0) + restOffset(pager, pager.n - 1) - offset;
}

// MARK: - Talking to pagerd

/** Statuses whose answer has no body. */
const BODILESS = new Set([204, 304]);

/** The error for a fetch that failed: cancelled by `signal`, or no answer at all. */
function fetchFailure(error, signal) {
  if (error instanceof PagerdError) return error;
  if (signal?.aborted || error?.name === "AbortError") {
    return new PagerdError({ code: "aborted", detail: "The request was cancelled.", cause: signal?.reason ?? error });
  }
  return new PagerdError({
    code: "network_error",
    detail: `The request got no answer (${error?.message ?? error}).`,
    cause: error,
  });
}

/** Whether `error` says a request got no answer (fetch's TypeError, or network_error). */
function gotNoAnswer(error) {
  return error instanceof TypeError || (error instanceof PagerdError && error.code === "network_error");
}

/** The "aborted" PagerdError of `signal`, already aborted (its reason as `cause`). */
function abortedBy(signal) {
  return fetchFailure(signal.reason, signal);
}

/**
 * A signal that aborts when `a` or `b` does (either may be absent): a call's own signal with the
 * one of what it belongs to; and `dispose()`, which takes the listeners this put on `a` and `b`
 * off again once the work is over, so that a signal that outlives many calls gathers nothing.
 * @param {AbortSignal | undefined | null} a
 * @param {AbortSignal | undefined | null} b
 * @returns {{signal: AbortSignal | undefined, dispose: () => void}}
 */
function eitherSignal(a, b) {
  const nothing = () => {};
  if (!a || !b || a === b) return { signal: a ?? b ?? undefined, dispose: nothing };
  if (a.aborted) return { signal: a, dispose: nothing };
  if (b.aborted) return { signal: b, dispose: nothing };
  const controller = new AbortController();
  const fromA = () => controller.abort(a.reason);
  const fromB = () => controller.abort(b.reason);
  a.addEventListener("abort", fromA, { once: true });
  b.addEventListener("abort", fromB, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      a.removeEventListener("abort", fromA);
      b.removeEventListener("abort", fromB);
    },
  };
}

/** The first characters of a body that is not JSON, on one line, for an error's detail. */
function excerpt(text) {
  const line = text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/**
 * Reads an answer: a JSON object on success (or no body at all, where `empty` says one is
 * expected: a 204 to a DELETE); a PagerdError from a problem document; an "unexpected_response"
 * PagerdError (status kept) for anything else, such as a proxy's HTML page or an empty 200.
 * @returns {Promise<import("./pagerd.js").Answer<any>>}
 */
async function readAnswer(response, signal, empty = false) {
  const status = response.status;
  let text = "";
  try {
    if (!BODILESS.has(status)) text = await response.text();
  } catch (error) {
    throw fetchFailure(error, signal);
  }
  const type = response.headers.get("Content-Type") ?? "";
  let data = null;
  let parseError;
  if (text && /[/+]json\b/i.test(type)) {
    try {
      data = JSON.parse(text);
    } catch (error) {
      parseError = error;
    }
  }
  const ok = (status >= 200 && status < 300) || status === 304;
  if (ok && ((data !== null && typeof data === "object") || (empty && !text))) {
    return { status, etag: response.headers.get("ETag"), headers: response.headers, body: data };
  }
  const retryAfter = retryAfterSeconds(response.headers.get("Retry-After"));
  if (!ok && data && typeof data === "object" && typeof data.code === "string") {
    throw new PagerdError({
      status, code: data.code, detail: data.detail ?? response.statusText, field: data.field, problem: data, retryAfter,
    });
  }
  const what = text ? `${type || "no Content-Type"}: ${excerpt(text)}` : "an empty body";
  throw new PagerdError({
    status,
    code: "unexpected_response",
    detail: `pagerd did not answer this (${status} ${response.statusText}, ${what}).`,
    cause: parseError,
    retryAfter,
  });
}

/**
 * The seconds a Retry-After value in delta-seconds names (pagerd sends only that form); undefined
 * for none, or for the HTTP-date form.
 * @param {string | null} value
 * @returns {number | undefined}
 */
function retryAfterSeconds(value) {
  return value !== null && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : undefined;
}

/**
 * Resolves after `ms` milliseconds (never, for null), once `settles` settles, or at once when
 * `signal` (if any) aborts, whichever comes first.
 * @param {number | null} ms
 * @param {AbortSignal | undefined} signal
 * @param {Promise<unknown>} [settles]
 * @returns {Promise<void>}
 */
function pause(ms, signal, settles) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    let timer;
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    if (ms !== null) timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
    settles?.then(done, done);
  });
}

/**
 * Settles as `work` does, or rejects with the "aborted" PagerdError as soon as `signal` (if any)
 * aborts; `work` itself goes on.
 * @template T
 * @param {Promise<T> | T} work
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<T>}
 */
function unlessAborted(work, signal) {
  if (!signal) return Promise.resolve(work);
  if (signal.aborted) return Promise.reject(abortedBy(signal));
  return new Promise((resolve, reject) => {
    const abort = () => reject(abortedBy(signal));
    signal.addEventListener("abort", abort, { once: true });
    Promise.resolve(work).then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** The longest wait a timer takes (setTimeout fires at once past it). */
const MAX_TIMER = 2_147_483_647;

/**
 * Calls `onSilence` once `ms` milliseconds pass without a restart() (never, for Infinity);
 * stop() ends the wait.
 */
class Silence {
  constructor(ms, onSilence) {
    this.ms = ms;
    this.onSilence = onSilence;
    this.timer = null;
    this.restart();
  }

  restart() {
    clearTimeout(this.timer);
    if (this.ms !== Infinity) this.timer = setTimeout(this.onSilence, this.ms);
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
  }
}

/** A pagerd server: where it is and how to authenticate. */
export class PagerdClient {
  /**
   * @param {object} options
   * @param {string} [options.baseURL] The server's origin, such as "https://pager.example.com";
   *   "" (the default) for the page's own.
   * @param {string} [options.token] The bearer token, when the server requires one: its
   *   authToken, or an access token.
   * @param {() => Promise<string> | string} [options.refreshToken] Called when an event
   *   stream's access token expired (an `expired` event, or a reconnection refused 401), once
   *   until the stream opens again: answers a new token, and the stream resumes where it
   *   stopped. When it got no answer (a fetch's TypeError, or a network_error), it is asked
   *   again after a wait. Without it, when it fails otherwise, or when the new token is refused
   *   too, the stream stops ("stopped", code token_expired, or the 401).
   * @param {typeof fetch} [options.fetch] The fetch to use (the global one by default).
   * @param {number} [options.silenceTimeout] Milliseconds an event stream's connection may stay
   *   silent before it is given up and opened again (45,000 by default: three of pagerd's 15 s
   *   heartbeats; raise it with the server's `eventHeartbeat`), at most 2,147,483,647 (a timer's
   *   limit); Infinity never gives up.
   */
  constructor({ baseURL = "", token, refreshToken, fetch: fetchFunction, silenceTimeout = 45_000 } = {}) {
    if (!(typeof silenceTimeout === "number" && silenceTimeout > 0 && (silenceTimeout <= MAX_TIMER || silenceTimeout === Infinity))) {
      throw new PagerdError({ code: "invalid_request", detail: `silenceTimeout must be from 1 to ${MAX_TIMER} milliseconds, or Infinity.`, field: "silenceTimeout" });
    }
    /** @type {string} */
    this.baseURL = baseURL.replace(/\/$/, "");
    /** @type {string | undefined} */
    this.token = token;
    /** @type {(() => Promise<string> | string) | undefined} */
    this.refreshToken = refreshToken;
    /** @type {typeof fetch} */
    this.fetch = fetchFunction ?? ((input, init) => globalThis.fetch(input, init));
    /** @type {number} */
    this.silenceTimeout = silenceTimeout;
  }

  /**
   * The headers every request carries, with `extra`.
   * @param {Record<string, string>} extra
   * @returns {Record<string, string>}
   */
  headers(extra = {}) {
    /** @type {Record<string, string>} */
    const headers = { Accept: "application/json", ...extra };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return headers;
  }

  /**
   * Sends one request and reads the answer: a JSON object, or no body where `empty` is set (an
   * answer without a body is otherwise a failure). Rejects with a PagerdError for every failure.
   * @param {string} method
   * @param {string} path
   * @param {import("./pagerd.js").RequestOptions & {body?: unknown, headers?: Record<string, string>, empty?: boolean}} options
   * @returns {Promise<import("./pagerd.js").Answer<any>>}
   */
  async request(method, path, { body, headers = {}, signal, empty = false } = {}) {
    /** @type {RequestInit & {headers: Record<string, string>}} */
    const init = { method, headers: this.headers(headers), signal };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      signal?.throwIfAborted();
      response = await this.fetch(this.baseURL + path, init);
    } catch (error) {
      throw fetchFailure(error, signal);
    }
    return readAnswer(response, signal, empty);
  }

  /**
   * Creates a session from a template name plus overrides, or from a full definition.
   * @param {import("./pagerd.js").SessionDefinition} definition For example `{template: "mall"}`.
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<Session>}
   */
  async create(definition, { signal } = {}) {
    const { body } = await this.request("POST", "/v1/sessions", { body: definition, signal });
    return new Session(this, body);
  }

  /**
   * Opens an existing session by id.
   * @param {string} id
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<Session>}
   */
  async open(id, { signal } = {}) {
    const { body } = await this.request("GET", `/v1/sessions/${encodeURIComponent(id)}`, { signal });
    return new Session(this, body);
  }

  /**
   * Asks pagerd for an access token for session `id` (POST …/tokens): `watch` (read and follow),
   * `drive` (also move the pager) or `control` (everything). The client's token must be the
   * server's authToken, or a control token for the session (which mints watch and drive only,
   * expiring no later than itself).
   * @param {string} id
   * @param {"watch" | "drive" | "control"} scope
   * @param {{ttl?: number} & import("./pagerd.js").RequestOptions} options `ttl` in seconds.
   * @returns {Promise<import("./pagerd.js").MintedSessionToken>}
   */
  async mintToken(id, scope, { ttl, signal } = {}) {
    const body = ttl === undefined ? { scope } : { scope, ttl };
    const answer = await this.request("POST", `/v1/sessions/${encodeURIComponent(id)}/tokens`, { body, signal });
    return answer.body;
  }

  /**
   * The templates sessions can be created from.
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<import("./pagerd.js").TemplateSummary[]>}
   */
  async templates({ signal } = {}) {
    const { body } = await this.request("GET", "/v1/templates", { signal });
    return body.templates;
  }
}

/** An event of a Session, with its `detail` (Event plus detail, in Node 18 too). */
export class SessionEvent extends Event {
  /** @param {string} type @param {unknown} detail */
  constructor(type, detail) {
    super(type);
    /** @type {any} */
    this.detail = detail;
  }
}

/** Whether pagerd releases a swipe by velocity: its settings document then has `release`. */
export function releasesByVelocity(settings) {
  return settings !== null && typeof settings === "object" && settings.release !== undefined;
}

/**
 * One session. `state` is always the newest state document seen, from an answer or an event;
 * `settings` the session's settings once loaded (kept current while the session follows its
 * events). Events: "change" (detail `{state, kind, cause}`), "settings" (detail `{settings}`),
 * "open" (the event stream is connected; changes from now on arrive),
 * "deleted" (detail `{cause}`), "stopped" (detail `{error}`: the event stream gave up, on 400,
 * 401, 403, 404, 405 or 410 or an expired token; `following` is false), and "error" (detail
 * `{error}`: the stream failed and will try again; or a background settings load failed).
 */
export class Session extends EventTarget {
  /** While a new token for the stream is fetched (refreshToken): a promise, else null. */
  #refreshing = null;
  /** Removes follow()'s listener from its signal, if it was given one. */
  #forgetSignal = null;

  /**
   * @param {PagerdClient} client
   * @param {import("./pagerd.js").State} state
   */
  constructor(client, state) {
    super();
    /** @type {PagerdClient} */
    this.client = client;
    /** @type {string} */
    this.id = state.id;
    /** @type {import("./pagerd.js").State} */
    this.state = state;
    /** @type {import("./pagerd.js").Settings | null} */
    this.settings = null;
    /** @type {boolean} Whether the event stream is followed (false once it stopped). */
    this.following = false;
    // The version of the state when the settings held were read, and of the last change of
    // settings known (the state's settingsVersion, a PATCH, a settingsChanged event).
    this.settingsRead = 0;
    this.settingsChanged = state.settingsVersion ?? state.version;
    this.settingsLoad = null;
    this.stream = null;
    /** @type {import("./pagerd.js").SessionAccess | null} Tokens pagerd minted when it created the session. */
    this.access = state.access ?? null;
  }

  /** @returns {number} The version of the state held. */
  get version() {
    return this.state.version;
  }

  /** @returns {boolean} Whether the settings held are those of the state held. */
  get settingsCurrent() {
    return this.settings !== null && this.settingsChanged <= this.settingsRead;
  }

  /**
   * Keeps `next` if it is not older than the state held, and tells the listeners. Answers
   * whether it was kept.
   * @param {import("./pagerd.js").State} next
   * @param {import("./pagerd.js").EventKind | "response"} [kind]
   * @param {import("./pagerd.js").Cause} [cause]
   * @returns {boolean}
   */
  accept(next, kind = "response", cause = "request") {
    if (!next || next.id !== this.id || next.version < this.state.version) return false;
    const changed = next.version !== this.state.version || kind !== "response";
    this.state = next;
    const settingsAt = next.settingsVersion ?? (kind === "settingsChanged" ? next.version : 0);
    if (settingsAt > this.settingsChanged) this.settingsChanged = settingsAt;
    if (changed) this.dispatchEvent(new SessionEvent("change", { state: next, kind, cause }));
    // Settings that were read once are kept current.
    if (this.settings !== null && !this.settingsCurrent) this.refreshSettings();
    return true;
  }

  /**
   * The path of this session, plus `suffix`.
   * @param {string} suffix
   * @returns {string}
   */
  path(suffix = "") {
    return `/v1/sessions/${encodeURIComponent(this.id)}${suffix}`;
  }

  /**
   * Sends a command at the version held (If-Match) and keeps the answer. When another client or
   * a tick changed the session first, pagerd refuses it (412) and nothing is sent again: the
   * PagerdError (code "version_mismatch") carries the current state as `state`, which the
   * session also keeps. `{ifMatch: false}` sends the command whatever the version.
   * @param {string} method
   * @param {string} suffix
   * @param {unknown} [body]
   * @param {import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  async command(method, suffix, body, { signal, ifMatch = true } = {}) {
    const headers = ifMatch ? { "If-Match": `"${this.state.version}"` } : {};
    try {
      const { body: result } = await this.client.request(method, this.path(suffix), { body, headers, signal });
      if (suffix === "" && method === "PATCH") this.settingsChanged = Math.max(this.settingsChanged, result.version);
      this.accept(result);
      return result;
    } catch (error) {
      throw await this.#withCurrentState(error, signal);
    }
  }

  /** `error`; a conflict (412) carries the current state as `state`, which the session keeps. */
  async #withCurrentState(error, signal) {
    if (error instanceof PagerdError && error.code === "version_mismatch") {
      try {
        error.state = await this.refresh({ signal });
      } catch {
        // The error stays what it was; the state could not be read.
      }
    }
    return error;
  }

  /**
   * Reads the current state.
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  async refresh({ signal } = {}) {
    const { body } = await this.client.request("GET", this.path(), { signal });
    this.accept(body);
    return this.state;
  }

  /**
   * Reads the session's settings (every setting, defaults filled in) and keeps them.
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<import("./pagerd.js").Settings>}
   */
  async loadSettings({ signal } = {}) {
    // The version they were read at is their ETag's; without one (a proxy that drops it), the
    // settings version known when the read was sent, so that reads do not follow each other.
    const known = this.settingsChanged;
    const { body, etag } = await this.client.request("GET", this.path("/settings"), { signal });
    const tagged = /\d+/.exec(etag ?? "");
    const version = tagged ? Number(tagged[0]) : known;
    if (version >= this.settingsRead) {
      this.settings = body;
      this.settingsRead = version;
      this.dispatchEvent(new SessionEvent("settings", { settings: body }));
    }
    return this.settings;
  }

  /**
   * The settings of the state held, read again only when they changed.
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<import("./pagerd.js").Settings>}
   */
  async currentSettings({ signal } = {}) {
    if (this.settingsCurrent) return this.settings;
    return this.loadSettings({ signal });
  }

  /**
   * Reads the settings again in the background (one read at a time); a failure is an "error" event.
   * `signal` cancels the read this call starts (no "error" event then, and no read again), or,
   * when a read is already under way, only this call's wait for it; either way the promise then
   * rejects with a PagerdError whose code is "aborted".
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<void>} Resolves when the read is over.
   */
  refreshSettings({ signal } = {}) {
    if (signal?.aborted) return Promise.reject(abortedBy(signal));
    if (!this.settingsLoad) {
      this.settingsLoad = this.loadSettings({ signal })
        .then(() => true, (error) => {
          if (error instanceof PagerdError && error.code === "aborted") return false;
          this.dispatchEvent(new SessionEvent("error", { error }));
          return true;
        })
        .then((over) => {
          this.settingsLoad = null;
          if (over && this.settings !== null && !this.settingsCurrent) this.refreshSettings();
        });
    }
    const read = this.settingsLoad;
    if (!signal) return read;
    return new Promise((resolve, reject) => {
      const abort = () => reject(abortedBy(signal));
      signal.addEventListener("abort", abort, { once: true });
      read.then(() => {
        signal.removeEventListener("abort", abort);
        if (signal.aborted) abort();
        else resolve();
      });
    });
  }

  /**
   * What pagerd will answer to a scroll with `input` from the state held (see predictScroll).
   * Needs the settings (loadSettings).
   * @param {import("./pagerd.js").ScrollInput} input
   * @returns {import("./pagerd.js").ScrollMembers}
   */
  predict(input) {
    if (this.settings === null) {
      throw new PagerdError({ code: "settings_not_loaded", detail: "Call loadSettings() before predicting." });
    }
    return predictScroll(this.state, this.settings, input);
  }

  /** @param {import("./pagerd.js").CommandOptions} options @returns {Promise<import("./pagerd.js").State>} */
  next(options = {}) { return this.command("POST", "/next", undefined, options); }

  /** @param {import("./pagerd.js").CommandOptions} options @returns {Promise<import("./pagerd.js").State>} */
  previous(options = {}) { return this.command("POST", "/previous", undefined, options); }

  /**
   * Jumps to a page; the answer carries the keyframes.
   * @param {number | string} target An index, or a page id.
   * @param {import("./pagerd.js").SelectOptions & import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  select(target, { path, animation, ...options } = {}) {
    const body = typeof target === "number" ? { index: target } : { page: target };
    if (path !== undefined) body.path = path;
    if (animation !== undefined) body.animation = animation;
    return this.command("POST", "/select", body, options);
  }

  /**
   * Reports a swipe's progress (one report; see drag() for a whole swipe).
   * @param {import("./pagerd.js").ScrollInput} input Exactly one member.
   * @param {import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  scroll(input, options = {}) { return this.command("POST", "/scroll", input, options); }

  /**
   * Begins a transition toward a neighbour.
   * @param {number} to
   * @param {import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  begin(to, options = {}) { return this.command("POST", "/transition", { phase: "begin", to }, options); }

  /**
   * Ends the swipe in flight: `true` completes it, `false` cancels it, `{velocity}` lets pagerd
   * decide by the release velocity (pages per second, signed like progress).
   * @param {boolean | {velocity: number}} how
   * @param {import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  end(how, options = {}) {
    const body = typeof how === "boolean" ? { phase: "end", completed: how } : { phase: "end", velocity: how.velocity };
    return this.command("POST", "/transition", body, options);
  }

  /**
   * Inserts a page.
   * @param {import("./pagerd.js").PageInput} page
   * @param {{at?: number, then?: "stay" | "select"} & import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  insert(page, { at, then, ...options } = {}) {
    const body = { page };
    if (at !== undefined) body.at = at;
    if (then !== undefined) body.then = then;
    return this.command("POST", "/pages", body, options);
  }

  /**
   * Changes settings (an RFC 7396 merge patch).
   * @param {import("./pagerd.js").SettingsPatch} settings
   * @param {import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  patch(settings, options = {}) { return this.command("PATCH", "", settings, options); }

  /**
   * Starts, stops, pauses or resumes auto-advance.
   * @param {import("./pagerd.js").AutoAdvanceAction} action
   * @param {import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  autoAdvance(action, options = {}) { return this.command("POST", "/autoAdvance", { action }, options); }

  /**
   * Pushes a screen on a page's navigation stack.
   * @param {string} pageId
   * @param {import("./pagerd.js").Screen} screen
   * @param {import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  push(pageId, screen, options = {}) {
    return this.command("POST", `/pages/${encodeURIComponent(pageId)}/stack`, { screen }, options);
  }

  /**
   * Pops the top screen of a page's stack, or every screen with `{toRoot: true}`.
   * @param {string} pageId
   * @param {{toRoot?: boolean} & import("./pagerd.js").CommandOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  pop(pageId, { toRoot = false, ...options } = {}) {
    return this.command("DELETE", `/pages/${encodeURIComponent(pageId)}/stack${toRoot ? "?to=root" : ""}`, undefined, options);
  }

  /**
   * Every page of the session, with content and stack (changes nothing).
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<import("./pagerd.js").Page[]>}
   */
  async pages({ signal } = {}) {
    const { body } = await this.client.request("GET", this.path("/pages"), { signal });
    return body.pages;
  }

  /**
   * Deletes the session and, once it is deleted, stops following it. A refusal leaves the stream
   * as it was; a conflict (412) carries the current state, as for command().
   * @param {import("./pagerd.js").CommandOptions} options
   * @returns {Promise<void>}
   */
  async delete({ signal, ifMatch = true } = {}) {
    const headers = ifMatch ? { "If-Match": `"${this.state.version}"` } : {};
    try {
      await this.client.request("DELETE", this.path(), { headers, signal, empty: true });
    } catch (error) {
      throw await this.#withCurrentState(error, signal);
    }
    this.unfollow();
  }

  /**
   * Asks pagerd for an access token for this session (see PagerdClient.mintToken).
   * @param {"watch" | "drive" | "control"} scope
   * @param {{ttl?: number} & import("./pagerd.js").RequestOptions} options
   * @returns {Promise<import("./pagerd.js").MintedSessionToken>}
   */
  mintToken(scope, options = {}) {
    return this.client.mintToken(this.id, scope, options);
  }

  /**
   * The event stream's URL for an EventSource, which cannot send headers: the token goes in
   * `?access_token=` and the version to resume from in `?lastEventId=`. pagerd reads a query
   * token only on this route, and only an access token (never `authToken`, which must not sit in
   * a URL); a URL reaches logs and Referer, so give it a short-lived watch token. By default the
   * token is the client's when that is an access token, else the watch token pagerd minted when
   * it created the session (`access.watch`), else none. This module itself reads the stream with
   * fetch and sends the token in the Authorization header (follow()).
   * @param {{token?: string, lastEventId?: number}} options
   * @returns {string}
   */
  eventSourceURL({ token = this.#queryToken(), lastEventId } = {}) {
    const query = new URLSearchParams();
    if (token) query.set("access_token", token);
    if (lastEventId !== undefined) query.set("lastEventId", String(lastEventId));
    const search = query.toString();
    return `${this.client.baseURL}${this.path("/events")}${search ? `?${search}` : ""}`;
  }

  /** The token a URL may carry: an access token (a JWT), never the server's authToken. */
  #queryToken() {
    const own = this.client.token;
    if (own && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(own)) return own;
    return this.access?.watch?.token;
  }

  // MARK: The event stream
  //
  // The stream is read with fetch and parsed here rather than with EventSource, because
  // EventSource neither sends headers (the bearer token would have to go in the URL, where it
  // reaches logs) nor shows the status of a refused stream (it retries a 401 or a 404 forever).
  // With fetch, a refusal is a status: 400, 401, 403, 404, 405 and 410 stop the stream and are
  // reported ("stopped"), but for a 401 answered once with a new token (refreshToken); a network
  // failure, a 5xx or the end of the stream is retried from the last version seen
  // (Last-Event-ID), waiting longer each time (up to 5 s), so nothing is missed.

  /**
   * Follows the event stream: every change made by anyone reaches `state` and "change".
   * `signal` stops following, as unfollow() does.
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {void}
   */
  follow({ signal } = {}) {
    if (this.following || signal?.aborted) return;
    this.following = true;
    const controller = new AbortController();
    this.stream = controller;
    if (signal) {
      const stop = () => { if (this.stream === controller) this.unfollow(); };
      signal.addEventListener("abort", stop, { once: true });
      this.#forgetSignal = () => signal.removeEventListener("abort", stop);
    }
    this.#readStream(controller).catch((error) => this.#stop(controller, error));
  }

  /** Stops following the event stream. @returns {void} */
  unfollow() {
    this.following = false;
    if (this.stream) this.stream.abort();
    this.stream = null;
    this.#forgetSignal?.();
    this.#forgetSignal = null;
  }

  /** Stops the stream `controller` belongs to, for good, and says why. */
  #stop(controller, error) {
    if (this.stream !== controller) return;
    this.unfollow();
    this.dispatchEvent(new SessionEvent("stopped", { error }));
  }

  async #readStream(controller) {
    // The wait before the next connection: 250 ms doubling to 5 s, less up to half at random (so
    // that clients a restart dropped together do not return together); where a refusal's
    // Retry-After asks for longer (503 at_capacity: 5 s), that plus up to a quarter; a minute at most.
    let delay = 250;
    // Whether refreshToken has answered since the stream last opened: a 401 then stops it.
    let renewed = false;
    while (this.stream === controller && !controller.signal.aborted) {
      let response;
      const jitter = Math.random();
      let wait = delay * (1 - jitter / 2);
      // This connection alone: ended with the stream, and given up when nothing (not even a
      // heartbeat) arrives for silenceTimeout, as a network that dropped it without closing it
      // would leave it.
      const connection = new AbortController();
      const endConnection = () => connection.abort(controller.signal.reason);
      controller.signal.addEventListener("abort", endConnection, { once: true });
      const silence = new Silence(this.client.silenceTimeout, () => connection.abort(new PagerdError({
        code: "network_error",
        detail: `The event stream was silent for ${this.client.silenceTimeout / 1000} s; connecting again.`,
      })));
      try {
        response = await this.client.fetch(`${this.client.baseURL}${this.path("/events")}`, {
          headers: this.client.headers({ Accept: "text/event-stream", "Last-Event-ID": String(this.state.version) }),
          signal: connection.signal,
        });
        if (!response.ok || !/text\/event-stream/.test(response.headers.get("Content-Type") ?? "")) {
          let refusal;
          try {
            await readAnswer(response, controller.signal);
            refusal = new PagerdError({ status: response.status, code: "unexpected_response", detail: "The event stream's answer is not a stream." });
          } catch (error) {
            refusal = error;
          }
          if (response.status === 401 && this.client.refreshToken && !renewed) {
            // The token expired while the stream was down: once, a new one, then open again.
            renewed = true;
            this.#renew(controller);
          } else if ([400, 401, 403, 404, 405, 410].includes(response.status)) {
            return this.#stop(controller, refusal);
          } else {
            throw refusal;
          }
        } else {
          delay = 250;
          renewed = false;
          this.dispatchEvent(new SessionEvent("open", {}));
          const ended = await this.#readEvents(response.body, controller, silence);
          if (ended) return;
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        const failure = connection.signal.aborted ? connection.signal.reason : fetchFailure(error, controller.signal);
        if (failure.retryAfter !== undefined) {
          wait = Math.min(60_000, Math.max(wait, Math.min(failure.retryAfter, 60) * 1000 * (1 + jitter / 4)));
        }
        this.dispatchEvent(new SessionEvent("error", { error: failure }));
      } finally {
        silence.stop();
        controller.signal.removeEventListener("abort", endConnection);
      }
      if (this.stream !== controller) return;
      const refreshing = this.#refreshing;
      if (refreshing?.controller === controller) {
        // The stream ended after `expired`, or was refused for a token that expired meanwhile:
        // reopen at once with the new token (a refusal of it then stops the stream).
        renewed = true;
        await pause(null, controller.signal, refreshing.done);
        if (this.#refreshing === refreshing) this.#refreshing = null;
        continue;
      }
      await pause(wait, controller.signal);
      delay = Math.min(delay * 2, 5000);
    }
  }

  /**
   * Reads server-sent events from `body` until it ends; answers true when the session was
   * deleted, the stream expired, or a listener stopped following (nothing more is read).
   */
  async #readEvents(body, controller, silence) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let event = { kind: "message", data: [] };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return false;
        silence.restart();
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split(/\r\n|\r|\n/);
        // The last piece is incomplete (or empty), unless a lone \r ends the chunk; keep it.
        buffer = lines.pop();
        for (const line of lines) {
          // A listener of an event before may have called unfollow() (or follow() again).
          if (this.stream !== controller) return true;
          if (line === "") {
            if (event.data.length && this.#handleEvent(event.kind, event.data.join("\n"), controller)) return true;
            event = { kind: "message", data: [] };
            continue;
          }
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? "" : line.slice(colon + 1);
          if (value.startsWith(" ")) value = value.slice(1);
          if (field === "event") event.kind = value;
          else if (field === "data") event.data.push(value);
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  /**
   * Asks refreshToken for a new token, which the client then holds. When it got no answer (it
   * threw a fetch's TypeError or a network_error PagerdError: the device offline a moment), that
   * is an "error" event and it is asked again, 250 ms later doubling to 5 s; when it fails
   * otherwise, the stream stops (token_expired). The loop of `controller`'s stream awaits
   * `#refreshing` (or the stream's end), then opens again.
   */
  #renew(controller) {
    const done = (async () => {
      for (let delay = 250; ; delay = Math.min(delay * 2, 5000)) {
        try {
          // Awaited, so that a refreshToken that throws, or answers a plain string, counts the
          // same as one that rejects or resolves.
          this.client.token = await this.client.refreshToken();
          return;
        } catch (cause) {
          if (this.stream !== controller) return;
          if (!gotNoAnswer(cause)) {
            this.#stop(controller, new PagerdError({ status: 401, code: "token_expired", detail: "The event stream's token expired and no new one came.", cause }));
            return;
          }
          this.dispatchEvent(new SessionEvent("error", { error: fetchFailure(cause, controller.signal) }));
          await pause(delay * (1 - Math.random() / 2), controller.signal);
          if (this.stream !== controller) return;
        }
      }
    })();
    this.#refreshing = { controller, done };
  }

  /** Applies one event; answers true when nothing more will come. */
  #handleEvent(kind, data, controller) {
    let document;
    try {
      document = JSON.parse(data);
    } catch (cause) {
      this.dispatchEvent(new SessionEvent("error", {
        error: new PagerdError({ status: 200, code: "unexpected_response", detail: `An event's data is not JSON: ${excerpt(data)}`, cause }),
      }));
      return false;
    }
    if (kind === "deleted") {
      // The event carries the last state and its cause: "request" (a DELETE) or "idle" (evicted).
      this.unfollow();
      this.dispatchEvent(new SessionEvent("deleted", { cause: document.cause ?? "request" }));
      return true;
    }
    if (kind === "expired") {
      // The token the stream was opened with is no longer accepted. With refreshToken, a new
      // token is fetched and the stream reopened from the version reached (the loop sends it as
      // Last-Event-ID); otherwise the stream stops.
      const expired = new PagerdError({ status: 401, code: "token_expired", detail: "The event stream's token expired." });
      if (!this.client.refreshToken) {
        this.#stop(controller, expired);
        return true;
      }
      this.#renew(controller);
      return false;
    }
    this.accept(document, kind, document.cause ?? "request");
    return false;
  }

  /**
   * Starts a swipe drawn on the client: see Drag. `options.signal` cancels every request of the
   * drag and abandons it (see Drag).
   * @param {import("./pagerd.js").DragOptions} options
   * @returns {Drag}
   */
  drag(options) {
    return new Drag(this, options);
  }
}

// MARK: - A swipe drawn on the client

/**
 * A swipe drawn on the client and told to the server a few times a second (Session.drag()).
 *
 * Every `move()` draws on the next frame, from predictScroll on the newest state the session
 * holds, so the drawing never waits for the network. The server hears of it at once when the
 * swipe starts moving, then at most `mirrorRate` times a second (the latest progress, only when
 * it changed, never two reports in flight), each report with If-Match of the version the
 * frames are drawn from: when another client or a tick changed the session first (412), the
 * session takes the server's state and the swipe goes on from it. `release()` ends the swipe
 * with one `transition end` carrying the release velocity, measured over the last 100 ms.
 *
 * The drag's `signal` goes with every request it makes (the settings read, the reports, the
 * end). Aborting it abandons the drag where it is: no more frames or reports, the request in
 * flight is cancelled, and `release()` and `cancel()` reject with a PagerdError whose code is
 * "aborted" (nothing ends the swipe on the server then: `session.end()` does, or `dragTimeout`).
 * `release({signal})` and `cancel({signal})` take a signal of their own for their requests and
 * their waits.
 */
export class Drag {
  /**
   * @param {Session} session
   * @param {import("./pagerd.js").DragOptions} options
   */
  constructor(session, { draw, mirrorRate = 10, now, requestFrame, cancelFrame, onError, signal }) {
    if (typeof draw !== "function") throw new TypeError("drag() needs a draw callback.");
    if (!(mirrorRate > 0)) throw new RangeError("mirrorRate must be greater than 0.");
    /** @type {Session} */
    this.session = session;
    this.drawFrame = draw;
    /** @type {number} Milliseconds between two reports, at least. */
    this.interval = 1000 / mirrorRate;
    this.now = now ?? (() => performance.now());
    const frames = typeof globalThis.requestAnimationFrame === "function";
    this.requestFrame = requestFrame ?? (frames ? (callback) => globalThis.requestAnimationFrame(callback) : (callback) => setTimeout(callback, 16));
    this.cancelFrame = cancelFrame ?? (frames ? (id) => globalThis.cancelAnimationFrame(id) : (id) => clearTimeout(id));
    this.onError = onError ?? ((error) => session.dispatchEvent(new SessionEvent("error", { error })));
    /** @type {number} The latest progress (signed, + toward the next page). */
    this.progress = 0;
    /** @type {{t: number, p: number}[]} Recent samples, for the velocity. */
    this.samples = [];
    /** @type {number} Reports sent (scrolls, and the final end). */
    this.requests = 0;
    /** @type {import("./pagerd.js").ScrollMembers | null} What the last frame drew. */
    this.drawn = null;
    /** @type {import("./pagerd.js").Settle | null} How the release ends, as predicted; set by release(). */
    this.settle = null;
    this.reported = 0;
    this.reportedAt = -Infinity;
    this.inFlight = null;
    /** @type {PagerdError | null} The conflict (412) the last report met, if it met one. */
    this.conflict = null;
    this.timer = null;
    this.frame = null;
    this.released = null;
    /** @type {AbortSignal | null} Cancels every request of the drag, and abandons it. */
    this.signal = signal ?? null;
    // The frames follow the session: an answer, an event or an adopted state is drawn at once.
    this.redraw = () => this.#scheduleDraw();
    session.addEventListener("change", this.redraw);
    session.addEventListener("settings", this.redraw);
    this.abandon = () => this.#abandon();
    if (signal?.aborted) {
      this.#abandon();
      return;
    }
    signal?.addEventListener("abort", this.abandon, { once: true });
    // A failed read is the session's "error" event; an aborted one is this drag's end.
    if (session.settings === null) session.refreshSettings({ signal }).catch(() => {});
  }

  /**
   * Moves the swipe to `input`: a progress (a number, or `{progress}`), or an `{offset}` or
   * `{windowOffset}` (which need the settings). Draws on the next frame, and reports if due.
   * @param {number | import("./pagerd.js").ScrollInput} input
   * @returns {void}
   */
  move(input) {
    if (this.released) return;
    let p;
    if (typeof input === "number") p = input;
    else if (input && typeof input === "object" && "progress" in input) p = input.progress;
    else {
      if (this.session.settings === null) {
        throw new PagerdError({ code: "settings_not_loaded", detail: "Offsets need the settings; load them first." });
      }
      p = scrollProgress(this.session.state, this.session.settings, input);
    }
    if (!Number.isFinite(p)) throw new PagerdError({ status: 400, code: "invalid_request", detail: "Progress must be a finite number.", field: "progress" });
    this.progress = p;
    const t = this.now();
    this.samples.push({ t, p });
    while (this.samples.length > 2 && this.samples[0].t < t - 300) this.samples.shift();
    this.#scheduleDraw();
    this.#report();
  }

  /** Draws on the next frame (once, however many moves come before it). */
  #scheduleDraw() {
    if (this.frame !== null || this.released) return;
    this.frame = this.requestFrame(() => {
      this.frame = null;
      this.#draw();
    });
  }

  /** Draws the swipe at the latest progress, from the newest state held. */
  #draw() {
    const { state, settings } = this.session;
    if (settings === null || state.empty) return;
    let members;
    try {
      members = predictScroll(state, settings, { progress: this.progress });
    } catch (error) {
      this.onError(error);
      return;
    }
    this.drawn = members;
    this.drawFrame(withScroll(state, members), members, this.progress);
  }

  /** Sends the latest progress when it changed, the previous report was answered, and one is due. */
  #report() {
    if (this.released || this.inFlight || this.progress === this.reported) return;
    // A swipe a locked way changes nothing on the server: there is nothing to tell.
    const way = this.progress > 0 ? "forward" : this.progress < 0 ? "reverse" : null;
    if (way && !allows(this.session.state.swipe ?? "both", way)) {
      this.reported = this.progress;
      return;
    }
    const wait = this.reportedAt + this.interval - this.now();
    if (wait > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.#report();
      }, wait);
      return;
    }
    this.#send().finally(() => this.#report());
  }

  /** One report: the latest progress, If-Match the version drawn from. */
  #send(signal = this.signal ?? undefined) {
    const progress = this.progress;
    this.reported = progress;
    this.reportedAt = this.now();
    this.requests += 1;
    this.conflict = null;
    this.inFlight = this.session.scroll({ progress }, { signal })
      .catch((error) => {
        // 412: the session now holds the server's state (another client or a tick moved the
        // pager); while the finger is down, the next report sends the progress again, at that
        // version (a release checks whose swipe that state holds: see #lost). A report
        // cancelled by a signal is the caller's doing, not an error.
        if (error instanceof PagerdError && error.code === "version_mismatch") {
          this.reported = Number.NaN;
          this.conflict = error;
        } else if (!(error instanceof PagerdError && error.code === "aborted")) this.onError(error);
      })
      .finally(() => { this.inFlight = null; });
    return this.inFlight;
  }

  /**
   * The release velocity in pages per second, signed like progress: the slope of the progress
   * over the last 100 ms (least squares, the release itself included, so a finger that stopped
   * before letting go releases at 0).
   * @returns {number}
   */
  velocity() {
    const end = this.now();
    const points = this.samples.filter((sample) => sample.t >= end - 100);
    points.push({ t: end, p: this.progress });
    if (points.length < 2) return 0;
    const meanT = points.reduce((sum, q) => sum + q.t, 0) / points.length;
    const meanP = points.reduce((sum, q) => sum + q.p, 0) / points.length;
    let num = 0, den = 0;
    for (const q of points) {
      num += (q.t - meanT) * (q.p - meanP);
      den += (q.t - meanT) ** 2;
    }
    if (!(den > 0)) return 0;
    const v = (num / den) * 1000;
    return Math.max(-1000, Math.min(1000, v));
  }

  /**
   * Lets go: measures the velocity, predicts how the swipe ends (`settle`, at once, so the
   * caller can animate without waiting; a drag released before the settings were read waits for
   * them, and sets `settle` then), and ends it on the server with one
   * `transition end {velocity}` once the report in flight is answered (sent again after a
   * conflict while the server's state still has this swipe in flight; a swipe another client
   * ended or turned, seen by the end or by a report, goes to `onError`, and nothing is sent).
   * Resolves with the state after the release. Rejects with the PagerdError of an end that
   * failed (no answer, the session gone, a token refused, a 5xx, a third conflict), and with
   * one whose code is "aborted" as soon as `signal` (or the drag's) aborts, even while it waits
   * for the report in flight or the next report's turn; then nothing more is sent. Only the
   * first release() or cancel() counts: a later one answers the same promise.
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  release({ signal } = {}) {
    return this.released ?? this.#finish(this.velocity(), true, signal);
  }

  /**
   * Abandons the swipe: the page goes back (`transition end {completed: false}`). `signal` as
   * for release().
   * @param {import("./pagerd.js").RequestOptions} options
   * @returns {Promise<import("./pagerd.js").State>}
   */
  cancel({ signal } = {}) {
    return this.released ?? this.#finish(0, false, signal);
  }

  /** Stops drawing, reporting and following the session. */
  #stop() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.frame !== null) this.cancelFrame(this.frame);
    this.frame = null;
    this.session.removeEventListener("change", this.redraw);
    this.session.removeEventListener("settings", this.redraw);
    this.signal?.removeEventListener("abort", this.abandon);
  }

  /** The drag's signal aborted before the release: the drag stops where it is. */
  #abandon() {
    if (this.released) return; // the release's requests carry the signal, and fail with it
    this.#stop();
    this.released = Promise.reject(abortedBy(this.signal));
    this.released.catch(() => {}); // rejected for whoever asks; unhandled by nobody
  }

  #finish(velocity, byRelease, signal) {
    this.#stop();
    // Whether a swipe state completes: by the release rule (by |p| ≥ 0.5 while the settings are
    // not read), or never when cancelled; null when nothing is in flight.
    const decide = (s) => {
      if (!s.transition && !s.overscroll) return null;
      if (!byRelease) return false;
      const settings = this.session.settings;
      return settings ? predictRelease(s, settings, velocity) : Math.abs(signedProgress(s)) >= 0.5;
    };
    const either = eitherSignal(this.signal, signal);
    this.released = this.#end(this.#settling(decide, velocity), decide, velocity, byRelease, either.signal)
      .finally(either.dispose);
    return this.released;
  }

  /** The swipe drawn at the latest progress from the state held, and whether the release completes it (`settle`). */
  #settling(decide, velocity) {
    const { state, settings } = this.session;
    const drawn = settings && !state.empty ? withScroll(state, predictScroll(state, settings, { progress: this.progress })) : state;
    const completed = decide(drawn);
    this.settle = { completed: completed === true, progress: signedProgress(drawn), velocity };
    return { drawn, completed };
  }

  /**
   * Whether the last report met a conflict that left the session with another swipe than the
   * one drawn (another client ended or turned it): that swipe is theirs, and the conflict goes
   * to onError.
   */
  #lost(drawn) {
    if (!this.conflict || swipeOf(this.session.state) === swipeOf(drawn)) return false;
    this.onError(this.conflict);
    return true;
  }

  async #end({ drawn, completed }, decide, velocity, byRelease, signal) {
    const session = this.session;
    if (signal?.aborted) throw abortedBy(signal);
    if (byRelease && session.settings === null) {
      // Released before the settings were read (the drag asked for them when it began): the
      // release waits for them, to end by velocity and predict the settle from them.
      await session.refreshSettings({ signal });
      if (session.settings !== null) ({ drawn, completed } = this.#settling(decide, velocity));
    }
    // The report in flight was sent with the drag's signal only: the release's own ends the wait.
    await unlessAborted(this.inFlight, signal);
    // Nothing was reported (the swipe never moved, or only a locked way): nothing to end.
    if (this.reportedAt === -Infinity) return session.state;
    if (this.#lost(drawn)) return session.state;
    for (let attempt = 1; ; attempt += 1) {
      // The server decides from the progress it last heard. Where that leads elsewhere than the
      // progress drawn last, the latest progress is reported first (when the rate allows).
      if (outcome(session.state, decide(session.state)) !== outcome(drawn, completed)) {
        const wait = this.reportedAt + this.interval - this.now();
        if (wait > 0) await pause(wait, signal);
        if (signal?.aborted) throw abortedBy(signal);
        await this.#send(signal);
        if (signal?.aborted) throw abortedBy(signal);
        if (this.#lost(drawn)) return session.state;
      }
      this.requests += 1;
      const how = byRelease && releasesByVelocity(session.settings) ? { velocity } : decide(session.state) === true;
      try {
        return await session.end(how, { signal });
      } catch (error) {
        // A failed end (no answer, the session gone, a token refused, a 5xx) is the release's
        // failure: the swipe stays in flight on the server until it is ended or `dragTimeout`.
        if (!(error instanceof PagerdError && error.code === "version_mismatch")) throw error;
        // 412: another client or a tick changed the session first, and the session now holds
        // the server's state. While that state still has this swipe in flight (a change beside
        // it, such as a screen pushed), the end is sent again at its version; a swipe another
        // client ended or turned elsewhere is theirs, and is reported as the conflict it is.
        if (swipeOf(session.state) !== swipeOf(drawn)) {
          this.onError(error);
          return session.state;
        }
        if (attempt >= 3) throw error;
      }
    }
  }
}

/** The swipe in flight in `state` (its target page or overscrolled edge); null at rest. */
function swipeOf(state) {
  if (state.transition) return `${state.transition.from}→${state.transition.to}`;
  if (state.overscroll) return `past ${state.overscroll.edge}`;
  return null;
}

/** What a release changes: the swipe's target and whether it completes ("nothing" with none in flight). */
function outcome(state, completed) {
  if (completed === null) return "nothing";
  return `${swipeOf(state)} ${completed ? "completed" : "cancelled"}`;
}

/** The signed progress of the swipe in flight in `state`: + toward the next page; 0 at rest. */
function signedProgress(state) {
  if (state.transition) return (state.transition.direction === "forward" ? 1 : -1) * state.transition.progress;
  if (state.overscroll) return (state.overscroll.edge === "end" ? 1 : -1) * state.overscroll.progress;
  return 0;
}
