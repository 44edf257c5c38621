// The pagerd demo, built on the client module ./pagerd.js. Every number drawn here comes from the
// server's state document, or, while a finger drags the pages, from predictScroll: what the
// server will answer for that drag, computed on the page, so a swipe is drawn at once and costs
// a few requests (Session.drag()). The page follows the session's event stream, so several
// windows on one session (?session=ID) stay in step, and auto-advance ticks made by the server
// show up in all of them.
//
// With ?token=T the page sends T (pagerd's authToken, or an access token) on every request. A
// watch token opens the page read-only: no controls are drawn and no command is sent. The
// "Share to watch" link carries a watch token minted for the session (POST …/tokens), when the
// page's own token may mint one.

import { PagerdClient, predictScroll, withScroll } from "./pagerd.js";

const $ = (id) => document.getElementById(id);
const pageParams = new URLSearchParams(location.search);
const token = pageParams.get("token") ?? undefined;
const client = new PagerdClient({ token });

/**
 * The scopes an access token claims, read from its payload without checking it (pagerd checks
 * it); null for a token that is not a JWT (pagerd's authToken) or no token.
 * @param {string | undefined} text
 * @returns {string[] | null}
 */
function tokenScopes(text) {
  const parts = text ? text.split(".") : [];
  if (parts.length !== 3) return null;
  try {
    const json = atob(parts[1].replace(/-/g, "+").replace(/_/g, "/"));
    const scope = JSON.parse(json).scope;
    return typeof scope === "string" ? scope.split(" ").filter(Boolean) : [];
  } catch {
    return null;
  }
}

// Read-only: the page's token is an access token that can neither drive nor control.
const scopes = tokenScopes(token);
const readOnly = scopes !== null && !scopes.includes("drive") && !scopes.includes("control");

/** @type {import("./pagerd.js").Session | null} The session shown. */
let session = null;
// For tests and debugging: while `pagerdDemo.trace` is true, every frame a swipe draws is logged
// in `pagerdDemo.frames` with the progress, the state and settings it was predicted from, and
// the indicator's pieces as laid out on the page (points from the tab strip's left edge); and
// every event received in `pagerdDemo.events`.
window.pagerdDemo = { trace: false, frames: [], events: [] };
// Counts the sessions asked for, so that only the newest one asked for is shown.
let opening = 0;
// True while a jump plays its keyframes: state changes are held (the session keeps them) and
// drawn when it ends.
let animating = false;
// The swipe in progress ({session, startX, startY, swipe: a Drag}), or null.
let drag = null;
// While a released swipe settles (its animation plays, its end is sent): a promise, else null.
let settling = null;
// The id of the current page in the last state seen, to announce page changes made elsewhere.
let lastPageId = null;
// The demo's own memory of settings the state document does not report: the rubber band it
// asked for and whether it asked for the fade indicator (both forgotten when a session opens).
let rubberBand = "none";
let fade = false;
// The tab buttons, kept from one render to the next so that keyboard focus stays on them.
const tabButtons = [];

// The title colours the "Title colours" button asks for (tabBar.title, docs/api.md «Tab rendering»): both keep a
// contrast above 4.5:1 on the white tab bar.
const TITLE_COLOURS = { color: "#545458", selectedColor: "#0060DF", scale: 0.85, selectedScale: 1 };

// The keys that carry out the pager's platform actions (docs/api.md, «Accessibility»).
const ACTION_KEYS = { pageRight: "ArrowRight", pageLeft: "ArrowLeft", pageDown: "ArrowDown", pageUp: "ArrowUp" };

// MARK: Errors and announcements

/** Runs one request; shows a refusal (or any failure) in the error line and answers null. */
async function attempt(request) {
  $("error").textContent = "";
  try {
    return await request();
  } catch (error) {
    $("error").textContent = error.message ?? String(error);
    return null;
  }
}

/** Reads `text` out through the live region (unchanged text is not set again). */
function announce(text) {
  const announcer = $("announcer");
  if (text && announcer.textContent !== text) announcer.textContent = text;
}

/** What a page change made elsewhere announces: "{label}, {value}", as the server's
 *  announcements are built (docs/api.md, «Accessibility»). */
function pageAnnouncement(s) {
  if (!s.page) return "";
  const tab = s.tabs.find((t) => t.index === s.index);
  const label = tab?.accessibility?.label || s.page.accessibilityLabel || s.page.title || s.page.id;
  const value = s.accessibility?.pager.value;
  return value ? `${label}, ${value}` : label;
}

// MARK: Sessions

/**
 * Shows the session that `load` resolves with (a create or an open), unless another was asked
 * for meanwhile; answers the session, or null when the request failed.
 */
async function openSession(load) {
  const ticket = ++opening;
  const next = await attempt(load);
  if (next && ticket === opening) show(next);
  return next;
}

/** Stops following the session shown, then shows and follows `next`. */
function show(next) {
  if (session) session.unfollow();
  session = next;
  animating = false;
  drag = null;
  settling = null;
  rubberBand = "none";
  fade = false;
  lastPageId = next.state.page ? next.state.page.id : null;
  $("event-log").replaceChildren();
  $("pager").dataset.lastKind = "";
  $("pager").dataset.lastCause = "";
  next.addEventListener("change", (event) => { if (session === next) changed(event.detail); });
  next.addEventListener("deleted", (event) => {
    if (session !== next) return;
    $("status").textContent = event.detail.cause === "idle"
      ? "This session was deleted after idling." : "This session was deleted.";
  });
  // A report of a swipe that failed, or a stream that will be opened again.
  next.addEventListener("error", (event) => {
    if (session === next) $("error").textContent = event.detail.error.message;
  });
  next.addEventListener("stopped", (event) => {
    if (session === next) $("error").textContent = `Stopped following this session: ${event.detail.error.message}`;
  });
  next.follow();
  shareToWatch(next);
  // Swipes are drawn from the settings; the session keeps them current once read.
  next.currentSettings().catch((error) => { if (session === next) $("error").textContent = error.message; });
  // The address names the session, so it can be reloaded or opened in another window.
  const url = new URL(location.href);
  url.searchParams.set("session", next.id);
  url.hash = "";
  history.replaceState(null, "", url);
  render(next.state);
}

/** The demo's address for session `id`, with `withToken` in ?token= when given. */
function pageURL(id, withToken) {
  const query = new URLSearchParams({ session: id });
  if (withToken) query.set("token", withToken);
  return `${location.pathname}?${query}`;
}

/**
 * Shows the "Share to watch" link: the page with a watch token minted for `target`, which opens
 * read-only. Hidden when the page's token cannot mint one (no token, a watch or drive token, or
 * a server without a signing key).
 */
async function shareToWatch(target) {
  const link = $("share-watch");
  link.hidden = true;
  if (readOnly || !token) return;
  try {
    const minted = await target.mintToken("watch");
    if (session !== target) return;
    link.href = pageURL(target.id, minted.token);
    link.dataset.expiresAt = String(minted.expiresAt);
    link.hidden = false;
  } catch {
    // Nothing to share: the link stays hidden.
  }
}

/**
 * A new state from a response or an event: logs events, announces a page change made elsewhere
 * (a response's own announcement is read out by the code that sent it), and draws the state.
 * @param {import("./pagerd.js").ChangeDetail} detail
 */
function changed({ state, kind, cause }) {
  const pageId = state.page ? state.page.id : null;
  if (kind !== "response") {
    logEvent(kind, kind === "state" ? "none" : cause, state);
    if (window.pagerdDemo.trace) {
      window.pagerdDemo.events.push({ kind, version: state.version, index: state.index, transition: state.transition, settle: state.settle ?? null });
    }
    if (pageId !== null && pageId !== lastPageId) announce(pageAnnouncement(state));
  }
  lastPageId = pageId;
  // A swipe in progress draws itself (from this state too); a settling one draws when done.
  if (!animating && !drag && !settling) render(state);
}

/** Adds an event to the top of the event list (the newest eight are kept). */
function logEvent(kind, cause, s) {
  const item = document.createElement("li");
  item.dataset.kind = kind;
  item.dataset.cause = cause;
  item.dataset.version = String(s.version);
  item.dataset.index = s.index === null ? "" : String(s.index);
  const where = s.index === null ? "no pages" : `page ${s.index + 1}`;
  item.textContent = `v${s.version} ${kind} (${cause}): ${where}`;
  const log = $("event-log");
  log.prepend(item);
  while (log.children.length > 8) log.lastElementChild.remove();
  $("pager").dataset.lastKind = kind;
  $("pager").dataset.lastCause = cause;
}

async function loadTemplates() {
  const templates = await attempt(() => client.templates());
  if (!templates) return;
  for (const template of templates) {
    const option = document.createElement("option");
    option.value = template.name;
    option.textContent = `${template.name} — ${template.description}`;
    $("template").appendChild(option);
  }
}

// MARK: Drawing

/**
 * How pages sit along the track (docs/api.md, «Several pages per viewport»): a page's length
 * (`size`: the state's viewport.pageSize, or the whole viewport when it reports none) and the
 * stride from one page to the next (`stride`: the page and the gap).
 */
function pageLayout(s) {
  const extent = s.orientation === "vertical" ? s.viewport.height : s.viewport.width;
  const size = s.viewport.pageSize ?? extent;
  return { extent, size, stride: size + (s.viewport.pageSpacing ?? 0) };
}

// Where page `position` (a logical index, or one a loop period away) sits along the track: the
// server's page offsets are physical (mirrored right to left, by height when vertical), so the
// cards are placed the same way and the track moves by the offset as given. Right to left, the
// offsets are mirrored about R, the sum of the first and the last page's rest offsets (a bounded
// pager that is not centred rests at most where the last page touches the trailing edge), so a
// card lies at R + extent − size − position·stride: (n − 1 − position)·W with one page per view.
function placeAt(s, position) {
  const { extent, size, stride } = pageLayout(s);
  if (s.orientation === "vertical" || s.layoutDirection !== "rtl") return position * stride;
  const n = s.pageCount;
  const centered = s.viewport.centered ?? false;
  const lead = centered ? (extent - size) / 2 : 0;
  const bounded = s.mode === "bounded" || n < 2;
  const limit = bounded && !centered ? Math.max(0, (n - 1) * stride - (extent - size)) : Infinity;
  const rest = (j) => Math.min(j * stride - lead, limit);
  return rest(0) + rest(n - 1) + extent - size - position * stride;
}

/** Black or white, whichever has the higher contrast on the colour `background` ("#RRGGBB"). */
function textColourOn(background) {
  const match = /^#([0-9a-f]{6})/i.exec(background);
  if (!match) return "#000";
  const channel = (at) => {
    const c = parseInt(match[1].slice(at, at + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? "#fff" : "#000";
}

/**
 * Draws state `s`. During a jump, `frame` (a keyframe plus every page) replaces the page offset,
 * the indicator, the tab bar's offset and the pages placed.
 */
function render(s, frame = {}) {
  const W = s.viewport.width;
  const vertical = s.orientation === "vertical";
  const pageOffset = frame.pageOffset ?? s.pageOffset;
  const indicator = frame.indicator === undefined ? s.indicator : frame.indicator;
  const tabBarOffset = frame.tabBarOffset ?? s.tabBar.offset;
  document.documentElement.style.setProperty("--viewport-width", `${W}px`);
  document.documentElement.style.setProperty("--viewport-height", `${s.viewport.height}px`);
  $("pager").dataset.session = s.id;
  $("device").classList.toggle("vertical", vertical);
  $("device").dir = s.layoutDirection;
  $("status").textContent = `session ${s.id} · ${s.mode} · ${s.pageCount} pages`;

  $("tabbar").hidden = s.tabBar.layout === "none" || s.empty;
  const strip = $("tabstrip");
  strip.style.width = `${s.tabBar.contentWidth}px`;
  strip.style.transform = `translateX(${-tabBarOffset}px)`;
  renderTabs(s);
  renderIndicator(indicator);
  renderPages(s, frame.pages ?? pagesAround(s), pageOffset);

  $("empty").hidden = !s.empty || !s.emptyState;
  if (s.empty && s.emptyState) {
    $("empty-title").textContent = s.emptyState.title;
    $("empty-action").textContent = s.emptyState.action ? s.emptyState.action.title : "";
    $("empty-action").hidden = !s.emptyState.action;
  }
  // The live region is silent while auto-advance turns the pages by itself (docs/api.md, «Accessibility»).
  $("announcer").setAttribute("aria-live", s.accessibility?.liveRegion ?? "polite");
  renderPager(s);
  renderAutoAdvance(s.autoAdvance);

  $("previous").disabled = !s.canGoPrevious;
  $("next").disabled = !s.canGoNext;
  $("trailing").hidden = !s.trailingAction;
  if (s.trailingAction) $("trailing").textContent = s.trailingAction.title;
  $("push").disabled = s.empty;
  $("pop").disabled = s.empty || !(s.page && s.page.stack.length);
  $("second-window").href = pageURL(s.id, token);
  $("fact-version").textContent = s.version;
  $("fact-index").textContent = s.index;
  $("fact-offset").textContent = pageOffset;
  $("fact-transition").textContent = s.transition ? JSON.stringify(s.transition) : "none";
  $("fact-overscroll").textContent = s.overscroll ? JSON.stringify(s.overscroll) : "none";

  const hasTabs = s.tabs.length > 0;
  $("direction").setAttribute("aria-pressed", String(s.layoutDirection === "rtl"));
  $("orientation").setAttribute("aria-pressed", String(vertical));
  $("rubber-band").setAttribute("aria-pressed", String(rubberBand !== "none"));
  $("title-colors").setAttribute("aria-pressed", String(hasTabs && s.tabs[0].color !== undefined));
  $("title-colors").disabled = !hasTabs;
  $("fade").setAttribute("aria-pressed", String(fade));
  $("fade").disabled = !hasTabs;
}

/**
 * The tabs: frames, title colour and scale (present when tabBar.title is set), badge, and the
 * server's accessibility descriptor as ARIA (docs/api.md, «Tab rendering», «Accessibility», «Tab icons and badges»). Only the selected tab is in
 * the Tab order; the arrow keys move between tabs.
 */
function renderTabs(s) {
  const strip = $("tabstrip");
  while (tabButtons.length > s.tabs.length) tabButtons.pop().remove();
  while (tabButtons.length < s.tabs.length) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tab";
    button.setAttribute("role", "tab");
    button.setAttribute("aria-controls", "viewport");
    const label = document.createElement("span");
    label.className = "label";
    button.append(label);
    button.addEventListener("click", () => select(Number(button.dataset.index)));
    strip.insertBefore(button, $("indicator"));
    tabButtons.push(button);
  }
  s.tabs.forEach((tab, i) => {
    const button = tabButtons[i];
    button.dataset.index = String(tab.index);
    button.classList.toggle("current", tab.index === s.index);
    button.style.left = `${tab.x}px`;
    button.style.width = `${tab.width}px`;
    button.style.color = tab.color ?? "";
    const label = button.querySelector(".label");
    if (label.textContent !== tab.title) label.textContent = tab.title;
    label.style.transform = tab.scale === undefined ? "" : `scale(${tab.scale})`;
    let badge = button.querySelector(".badge");
    if (tab.badge === null || tab.badge === undefined) {
      if (badge) badge.remove();
    } else {
      if (!badge) {
        badge = document.createElement("span");
        badge.className = "badge";
        button.append(badge);
      }
      badge.textContent = String(tab.badge);
    }
    const described = tab.accessibility;
    const selected = described ? described.selected : tab.index === s.index;
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    if (described) {
      const badgeText = tab.badge === null || tab.badge === undefined ? "" : `, badge ${tab.badge}`;
      button.setAttribute("aria-label", `${described.label}, ${described.value}${badgeText}`);
      if (described.hint) button.title = described.hint;
      else button.removeAttribute("title");
    }
  });
}

/** The indicator's pieces, faded by its `alpha` (docs/api.md, «Tab rendering»). */
function renderIndicator(indicator) {
  const holder = $("indicator");
  holder.replaceChildren();
  holder.style.opacity = indicator ? String(indicator.alpha ?? 1) : "";
  if (!indicator) return;
  for (const segment of indicator.segments) {
    const piece = document.createElement("div");
    piece.className = "indicator-segment";
    piece.style.left = `${segment.x}px`;
    piece.style.width = `${segment.width}px`;
    piece.style.height = `${indicator.height}px`;
    holder.appendChild(piece);
  }
}

// What the track's cards were built from: a swipe's frames, drawn from one state, move the
// track without building the cards again.
let trackKey = "";

/** The page cards along the track. Only the current page's card is exposed to assistive
 *  technology; its neighbours (and a loop's copies) are drawn for swiping only. */
function renderPages(s, placed, pageOffset) {
  const vertical = s.orientation === "vertical";
  const { size } = pageLayout(s);
  $("viewport").hidden = s.empty;
  $("device").classList.toggle("carousel", s.viewport.pageSize !== undefined);
  const track = $("track");
  track.style.transform = vertical ? `translateY(${-pageOffset}px)` : `translateX(${-pageOffset}px)`;
  const key = [s.id, s.version, ...placed.map(({ page, position }) => `${position}:${page.id}`)].join("|");
  if (key === trackKey) return;
  trackKey = key;
  track.replaceChildren();
  for (const { page, position } of placed) {
    const card = document.createElement("div");
    card.className = "page";
    card.dataset.position = String(position);
    if (vertical) {
      card.style.top = `${placeAt(s, position)}px`;
      card.style.height = `${size}px`;
    } else {
      card.style.left = `${placeAt(s, position)}px`;
      card.style.width = `${size}px`;
    }
    const content = page.content || {};
    const background = content.color || "#8e8e93";
    card.style.background = background;
    card.style.color = textColourOn(background);
    if (position === s.index) {
      card.setAttribute("role", "group");
      card.setAttribute("aria-roledescription", "page");
      card.setAttribute("aria-label", page.title || page.id);
    } else {
      card.setAttribute("aria-hidden", "true");
    }
    const emoji = document.createElement("div");
    emoji.className = "emoji";
    emoji.setAttribute("aria-hidden", "true");
    emoji.textContent = content.emoji || "📄";
    const title = document.createElement("div");
    title.className = "title";
    title.textContent = page.title;
    card.append(emoji, title);
    if (content.goal !== undefined) {
      const meta = document.createElement("div");
      meta.className = "meta";
      meta.textContent = `${content.coins ?? 0} of ${content.goal} coins`;
      card.append(meta);
    }
    if (page.stack && page.stack.length) {
      const top = page.stack[page.stack.length - 1];
      const screen = document.createElement("div");
      screen.className = "screen";
      screen.textContent = `▸ ${top.title || top.id} (${page.stack.length} deep)`;
      card.append(screen);
    }
    track.appendChild(card);
  }
}

// The current page, its preloaded neighbours, and copies one period away so a loop's seam shows
// the right page on each side.
function pagesAround(s) {
  if (s.empty) return [];
  const byIndex = new Map([[s.index, s.page], ...s.preload.map((p) => [p.index, p])]);
  const placed = [];
  for (const [index, page] of byIndex) {
    placed.push({ page, position: index });
    if (s.mode === "loop") {
      placed.push({ page, position: index + s.pageCount });
      placed.push({ page, position: index - s.pageCount });
    }
  }
  return placed;
}

/** The pager's value under the device, and the keys its actions take (docs/api.md, «Accessibility»). */
function renderPager(s) {
  const pager = s.accessibility?.pager;
  $("pager-value").textContent = pager?.value ?? "";
  const keys = (pager?.platformActions ?? []).map((action) => ACTION_KEYS[action]).filter(Boolean);
  if (keys.length) $("viewport").setAttribute("aria-keyshortcuts", keys.join(" "));
  else $("viewport").removeAttribute("aria-keyshortcuts");
}

/** The auto-advance control (docs/api.md, «Auto-advance»); hidden when the server reports no auto-advance. */
function renderAutoAdvance(auto) {
  const box = $("auto-advance");
  box.hidden = !auto;
  if (!auto) return;
  box.dataset.enabled = String(auto.enabled);
  box.dataset.running = String(auto.running);
  box.dataset.paused = String(auto.paused);
  box.dataset.pausedBy = auto.pausedBy ?? "";
  $("auto-start").disabled = auto.enabled && auto.pausedBy !== "control";
  $("auto-pause").disabled = !auto.running || auto.pausedBy === "control";
  $("auto-resume").disabled = !auto.paused;
  $("auto-stop").disabled = !auto.enabled;
  // The interval field shows the server's interval, except while someone is typing in it.
  if (document.activeElement !== $("auto-interval")) $("auto-interval").value = String(auto.interval);
  const every = `every ${auto.interval} ms, ${auto.direction}`;
  let text;
  if (!auto.enabled) text = `Off (${every})`;
  else if (!auto.running) text = `On, waiting for a second page (${every})`;
  else if (auto.paused) text = `Paused by ${auto.pausedBy}, ${auto.remaining} ms left (${every})`;
  else text = `Running (${every})`;
  $("auto-status").textContent = text;
}

// MARK: Input

/** next or previous, with the server's announcement read out. */
async function move(command) {
  if (readOnly || !session || animating) return;
  const target = session;
  const result = await attempt(() => target[command]());
  if (result) announce(result.announcement);
}

/** A tab tap: a jump, whose keyframes are played before the final state is drawn. */
async function select(index) {
  if (readOnly || !session || animating) return;
  const target = session;
  animating = true;
  try {
    const result = await attempt(() => target.select(index, { path: "shortest" }));
    if (!result) return;
    announce(result.announcement);
    if (result.keyframes && result.keyframes.length > 1) {
      // Every page the jump passes, each at its own index (and one period away in a loop).
      const list = (await attempt(() => target.pages())) ?? [];
      const n = list.length;
      const pages = list.flatMap((page, i) => [{ page, position: i }]
        .concat(target.state.mode === "loop" ? [{ page, position: i + n }, { page, position: i - n }] : []));
      document.body.classList.add("animating");
      for (const frame of result.keyframes) {
        if (session !== target) break;
        render(target.state, { ...frame, pages });
        await new Promise((resolve) => setTimeout(resolve, 160));
      }
    }
  } finally {
    document.body.classList.remove("animating");
    if (session === target) {
      animating = false;
      render(target.state);
    }
  }
}

/** The arrow keys on the tab list move the focus between tabs; Enter or Space selects one. */
function tabKeydown(event) {
  const at = tabButtons.indexOf(document.activeElement);
  if (at < 0 || !tabButtons.length) return;
  const rtl = session && session.state.layoutDirection === "rtl";
  let to;
  if (event.key === "Home") to = 0;
  else if (event.key === "End") to = tabButtons.length - 1;
  else if (event.key === (rtl ? "ArrowLeft" : "ArrowRight")) to = (at + 1) % tabButtons.length;
  else if (event.key === (rtl ? "ArrowRight" : "ArrowLeft")) to = (at - 1 + tabButtons.length) % tabButtons.length;
  else return;
  event.preventDefault();
  tabButtons[to].focus();
}

/** On the focused pager, the keys of its platform actions move a page (increment = next). */
function pagerKeydown(event) {
  const pager = session?.state.accessibility?.pager;
  if (!pager) return;
  const at = pager.platformActions.findIndex((action) => ACTION_KEYS[action] === event.key);
  if (at < 0) return;
  event.preventDefault();
  move(pager.actions[at] === "increment" ? "next" : "previous");
}

// MARK: Swipes

function startDrag(event) {
  if (readOnly || !session || session.state.empty || animating || settling || !session.settings) return;
  const target = session;
  drag = {
    session: target,
    startX: event.clientX,
    startY: event.clientY,
    swipe: target.drag({ draw: (view, members, progress) => drawSwipe(target, view, progress) }),
  };
  $("viewport").setPointerCapture(event.pointerId);
  $("viewport").classList.add("dragging");
}

/** One frame of a swipe: the state as the server will answer it for this progress. */
function drawSwipe(target, view, progress) {
  if (session !== target) return;
  render(view);
  if (!window.pagerdDemo.trace) return;
  const strip = $("tabstrip").getBoundingClientRect();
  const pieces = [...document.querySelectorAll(".indicator-segment")].map((piece) => {
    const box = piece.getBoundingClientRect();
    return { x: box.left - strip.left, width: box.width };
  });
  window.pagerdDemo.frames.push({ progress, state: target.state, settings: target.settings, drawn: pieces, at: performance.now() });
}

function moveDrag(event) {
  if (!drag) return;
  const s = drag.session.state;
  // Progress is logical (+ toward the next page): dragging against the reading direction, or up,
  // by one stride (a page and the gap after it) per page, so the page follows the finger.
  const { stride } = pageLayout(s);
  let travel;
  if (s.orientation === "vertical") travel = (drag.startY - event.clientY) / stride;
  else if (s.layoutDirection === "rtl") travel = (event.clientX - drag.startX) / stride;
  else travel = (drag.startX - event.clientX) / stride;
  // Drawn on the next frame from the prediction; the server hears of it a few times a second.
  drag.swipe.move(Math.max(-1, Math.min(1, travel)));
}

/**
 * Lets go (or, when the browser took the pointer away, gives up: the page goes back): the page
 * settles at once the way the server will decide (a short animation drawn from the prediction),
 * while the release is sent; then the server's state is drawn.
 */
async function endDrag(event) {
  if (!drag) return;
  const finished = drag;
  drag = null;
  $("viewport").classList.remove("dragging");
  const target = finished.session;
  const from = target.state;
  const released = event.type === "pointercancel" ? finished.swipe.cancel() : finished.swipe.release();
  const play = settle(target, from, finished.swipe.drawn, finished.swipe.settle);
  // Both run to their end, even when the release fails: the animation is not cut short.
  settling = Promise.allSettled([released, play]);
  let result = null;
  try {
    const [outcome] = await settling;
    if (outcome.status === "fulfilled") result = outcome.value;
    // The release's end failed (the swipe stays in flight on the server until it times out).
    else if (session === target) $("error").textContent = outcome.reason.message;
  } finally {
    settling = null;
    if (session === target && !animating) render(target.state);
  }
  if (result && result.actionRequested && result.actionRequested.id === "add-bottle") await addBottle();
}

/**
 * The settle animation: from the release's progress to where the page lands (the target page,
 * or back), in 200 ms; `drawn` is the last frame the swipe drew.
 */
function settle(target, from, drawn, { completed, progress }) {
  const settings = target.settings;
  const to = completed && drawn && drawn.transition ? Math.sign(progress) : 0;
  if (!settings || !drawn || progress === to) return Promise.resolve();
  const start = performance.now();
  return new Promise((resolve) => {
    const step = (now) => {
      const t = Math.min(1, (now - start) / 200);
      const eased = 1 - (1 - t) ** 3;
      if (session !== target) return resolve();
      try {
        render(withScroll(from, predictScroll(from, settings, { progress: progress + (to - progress) * eased })));
      } catch {
        return resolve();
      }
      if (t < 1) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}

async function patchSettings(patch) {
  if (readOnly || !session) return null;
  const target = session;
  return attempt(() => target.patch(patch));
}

async function addBottle() {
  if (readOnly || !session) return;
  const target = session;
  const n = Date.now().toString(36);
  const count = target.state.pageCount;
  const emojis = ["🍯", "🎈", "🧸", "🪴", "🎸"];
  await attempt(() => target.insert(
    { id: `bottle-${n}`, title: `Bottle ${count + 1}`,
      content: { emoji: emojis[count % emojis.length], color: "#34c759", coins: 0, goal: 100 } },
    { then: "select" }));
}

/** Sends an auto-advance action, then moves the focus to `next` if the clicked button is now
 *  disabled (pause and resume take turns). */
async function autoAdvance(action, next) {
  if (readOnly || !session) return;
  const target = session;
  const result = await attempt(() => target.autoAdvance(action));
  if (result && document.activeElement && document.activeElement.disabled && !$(next).disabled) $(next).focus();
}

/** A changed interval is sent at once (the server restarts the timer with it). */
async function intervalChanged() {
  const auto = session?.state.autoAdvance;
  const interval = Number($("auto-interval").value);
  if (!auto || !Number.isInteger(interval) || interval === auto.interval) return;
  if (interval < 100 || interval > 86400000) {
    $("error").textContent = "The interval is 100 to 86,400,000 ms.";
    return;
  }
  await patchSettings({ autoAdvance: { interval } });
}

function wire() {
  $("create").addEventListener("submit", (event) => {
    event.preventDefault();
    openSession(() => client.create({ template: $("template").value }));
  });
  $("open").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = $("session-input").value.trim();
    if (id) openSession(() => client.open(id));
  });
  $("next").addEventListener("click", () => move("next"));
  $("previous").addEventListener("click", () => move("previous"));
  $("trailing").addEventListener("click", addBottle);
  $("empty-action").addEventListener("click", addBottle);
  $("push").addEventListener("click", () => {
    if (!session || !session.state.page) return;
    const target = session;
    const depth = target.state.page.stack.length + 1;
    attempt(() => target.push(target.state.page.id, { id: `screen-${depth}`, title: `Screen ${depth}` }));
  });
  $("pop").addEventListener("click", () => {
    if (!session || !session.state.page) return;
    const target = session;
    attempt(() => target.pop(target.state.page.id));
  });
  $("direction").addEventListener("click", () =>
    patchSettings({ layoutDirection: session.state.layoutDirection === "rtl" ? "ltr" : "rtl" }));
  $("orientation").addEventListener("click", () =>
    patchSettings(session.state.orientation === "vertical"
      ? { orientation: "horizontal" } : { orientation: "vertical", viewport: { height: 420 } }));
  $("rubber-band").addEventListener("click", async () => {
    const style = rubberBand === "none" ? "linear" : "none";
    if (await patchSettings({ rubberBand: { style }, tabBar: { indicator: { overscroll: "bounce" } } })) {
      rubberBand = style;
      render(session.state);
    }
  });
  $("title-colors").addEventListener("click", () => {
    const on = session.state.tabs.length > 0 && session.state.tabs[0].color !== undefined;
    patchSettings({ tabBar: { title: on ? null : TITLE_COLOURS } });
  });
  $("fade").addEventListener("click", async () => {
    if (await patchSettings({ tabBar: { indicator: { style: fade ? "linear" : "fade" } } })) {
      fade = !fade;
      render(session.state);
    }
  });
  $("auto-start").addEventListener("click", () => autoAdvance("start", "auto-pause"));
  $("auto-pause").addEventListener("click", () => autoAdvance("pause", "auto-resume"));
  $("auto-resume").addEventListener("click", () => autoAdvance("resume", "auto-pause"));
  $("auto-stop").addEventListener("click", () => autoAdvance("stop", "auto-start"));
  $("auto-interval").addEventListener("change", intervalChanged);
  $("tabstrip").addEventListener("keydown", tabKeydown);
  const viewport = $("viewport");
  viewport.addEventListener("keydown", pagerKeydown);
  viewport.addEventListener("pointerdown", startDrag);
  viewport.addEventListener("pointermove", moveDrag);
  viewport.addEventListener("pointerup", endDrag);
  viewport.addEventListener("pointercancel", endDrag);
}

/**
 * Opens the session named in the address (?session=ID, or the older #session=ID) so that another
 * window can join it; otherwise, or when it is gone, creates one from ?template=NAME or the
 * first template, so the page never starts empty.
 */
async function start() {
  // Read-only, app.css draws no control (the forms, the buttons, auto-advance, the layout
  // switches), and none is wired: the page only follows the session.
  document.body.classList.toggle("read-only", readOnly);
  if (!readOnly) wire();
  else $("tabstrip").addEventListener("keydown", tabKeydown);
  const params = pageParams;
  const id = params.get("session") ?? /session=([A-Za-z0-9_-]+)/.exec(location.hash)?.[1];
  // A watch token opens its session and nothing else: it can create none.
  if (readOnly) {
    if (id) await openSession(() => client.open(id));
    else $("error").textContent = "A watch token opens the session it was made for: ?session=ID is missing.";
    return;
  }
  await loadTemplates();
  if (id) {
    if (await openSession(() => client.open(id))) return;
  }
  const missing = $("error").textContent;
  const wanted = params.get("template");
  if (wanted && [...$("template").options].some((option) => option.value === wanted)) $("template").value = wanted;
  if (!$("template").value) return;
  const created = await openSession(() => client.create({ template: $("template").value }));
  if (created && id) $("error").textContent = `${missing} A new session was created instead.`;
}

start();
