// The pagerd demo: every number drawn here comes from the server's state document; the page
// only reports input (drags, taps, buttons) and follows the session's event stream.
"use strict";

const $ = (id) => document.getElementById(id);
let state = null;
let events = null;
let animating = false;
let drag = null;

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = response.status === 204 ? null : await response.json();
  if (!response.ok) {
    $("status").textContent = `${response.status} ${data.code}: ${data.detail}`;
    return null;
  }
  return data;
}

// Reads out what a move announces (next, previous and select answer with it).
function announce(result) {
  if (result && result.announcement) $("announcer").textContent = result.announcement;
}

function sessionPath(suffix = "") {
  return `/v1/sessions/${state.id}${suffix}`;
}

// Applies a state document unless it is older than the one shown (responses and events race).
function accept(next) {
  if (!next || !next.id) return;
  if (state && state.id === next.id && next.version < state.version) return;
  state = next;
  if (!animating) render(state);
}

// Where page `position` (a logical index, or one a loop period away) sits along the track: the
// server's page offsets are physical (mirrored right to left, by height when vertical), so the
// cards are placed the same way and the track moves by the offset as given.
function placeAt(s, position) {
  if (s.orientation === "vertical") return position * s.viewport.height;
  const W = s.viewport.width;
  return s.layoutDirection === "rtl" ? (s.pageCount - 1 - position) * W : position * W;
}

function render(s, frame = {}) {
  const W = s.viewport.width;
  const vertical = s.orientation === "vertical";
  const pageOffset = frame.pageOffset ?? s.pageOffset;
  const indicator = frame.indicator === undefined ? s.indicator : frame.indicator;
  const tabBarOffset = frame.tabBarOffset ?? s.tabBar.offset;
  document.documentElement.style.setProperty("--viewport-width", `${W}px`);
  document.documentElement.style.setProperty("--viewport-height", `${s.viewport.height}px`);
  $("device").classList.toggle("vertical", vertical);
  $("device").dir = s.layoutDirection;
  $("pager").hidden = false;
  $("status").textContent = `session ${s.id} · ${s.mode} · ${s.pageCount} pages`;

  const bar = $("tabbar");
  bar.hidden = s.tabBar.layout === "none" || s.empty;
  const strip = $("tabstrip");
  strip.style.width = `${s.tabBar.contentWidth}px`;
  strip.style.transform = `translateX(${-tabBarOffset}px)`;
  strip.querySelectorAll(".tab").forEach((tab) => tab.remove());
  for (const tab of s.tabs) {
    const button = document.createElement("button");
    button.className = "tab" + (tab.index === s.index ? " current" : "");
    // The server's accessibility descriptor (SPEC §5.9) becomes the tab's ARIA attributes.
    const described = tab.accessibility;
    button.setAttribute("role", "tab");
    if (described) {
      button.setAttribute("aria-selected", String(described.selected));
      button.setAttribute("aria-label", `${described.label}, ${described.value}`);
      if (described.hint) button.title = described.hint;
    }
    button.style.left = `${tab.x}px`;
    button.style.width = `${tab.width}px`;
    button.textContent = tab.title;
    button.dataset.index = tab.index;
    button.addEventListener("click", () => select(tab.index));
    strip.insertBefore(button, $("indicator"));
  }
  const holder = $("indicator");
  holder.replaceChildren();
  if (indicator) {
    for (const segment of indicator.segments) {
      const piece = document.createElement("div");
      piece.className = "indicator-segment";
      piece.style.left = `${segment.x}px`;
      piece.style.width = `${segment.width}px`;
      piece.style.height = `${indicator.height}px`;
      holder.appendChild(piece);
    }
  }

  $("viewport").hidden = s.empty;
  const track = $("track");
  track.replaceChildren();
  const placed = frame.pages ?? pagesAround(s);
  for (const { page, position } of placed) {
    const card = document.createElement("div");
    card.className = "page";
    if (vertical) {
      card.style.top = `${placeAt(s, position)}px`;
      card.style.height = `${s.viewport.height}px`;
    } else {
      card.style.left = `${placeAt(s, position)}px`;
      card.style.width = `${W}px`;
    }
    const content = page.content || {};
    card.style.background = content.color || "#8e8e93";
    card.innerHTML = "";
    const emoji = document.createElement("div");
    emoji.className = "emoji";
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
  track.style.transform = vertical ? `translateY(${-pageOffset}px)` : `translateX(${-pageOffset}px)`;

  $("empty").hidden = !s.empty || !s.emptyState;
  if (s.empty && s.emptyState) {
    $("empty-title").textContent = s.emptyState.title;
    $("empty-action").textContent = s.emptyState.action ? s.emptyState.action.title : "";
    $("empty-action").hidden = !s.emptyState.action;
  }
  $("previous").disabled = !s.canGoPrevious;
  $("next").disabled = !s.canGoNext;
  $("trailing").hidden = !s.trailingAction;
  if (s.trailingAction) $("trailing").textContent = s.trailingAction.title;
  $("push").disabled = s.empty;
  $("pop").disabled = s.empty || !(s.page && s.page.stack.length);
  $("second-window").href = `${location.pathname}#session=${s.id}`;
  $("fact-version").textContent = s.version;
  $("fact-index").textContent = s.index;
  $("fact-offset").textContent = pageOffset;
  $("fact-transition").textContent = s.transition ? JSON.stringify(s.transition) : "none";
  $("fact-overscroll").textContent = s.overscroll ? JSON.stringify(s.overscroll) : "none";
  $("direction").setAttribute("aria-pressed", String(s.layoutDirection === "rtl"));
  $("orientation").setAttribute("aria-pressed", String(vertical));
  $("rubber-band").setAttribute("aria-pressed", String(rubberBand !== "none"));
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

// MARK: Session life

async function loadTemplates() {
  const list = await call("GET", "/v1/templates");
  if (!list) return;
  for (const template of list.templates) {
    const option = document.createElement("option");
    option.value = template.name;
    option.textContent = `${template.name} — ${template.description}`;
    $("template").appendChild(option);
  }
}

async function openSession(id) {
  const s = await call("GET", `/v1/sessions/${id}`);
  if (!s) return;
  state = null;
  accept(s);
  follow(id);
  if (location.hash !== `#session=${id}`) history.replaceState(null, "", `#session=${id}`);
}

function follow(id) {
  if (events) events.close();
  events = new EventSource(`/v1/sessions/${id}/events`);
  const kinds = ["state", "pageChanged", "transition", "pagesChanged", "stackChanged", "settingsChanged", "actionRequested"];
  for (const kind of kinds) events.addEventListener(kind, (event) => accept(JSON.parse(event.data)));
  events.addEventListener("deleted", () => {
    $("status").textContent = "This session was deleted.";
    events.close();
  });
}

// MARK: Input

async function select(index) {
  if (!state || animating) return;
  const result = await call("POST", sessionPath("/select"), { index, path: "shortest" });
  if (!result) return;
  announce(result);
  if (result.keyframes && result.keyframes.length > 1) {
    // Every page the jump passes, each at its own index (and one period away in a loop).
    const list = await call("GET", sessionPath("/pages"));
    const pages = (list ? list.pages : []).flatMap((page, i) => [{ page, position: i }]
      .concat(state.mode === "loop" ? [{ page, position: i + list.pages.length }, { page, position: i - list.pages.length }] : []));
    animating = true;
    document.body.classList.add("animating");
    for (const frame of result.keyframes) {
      render(state, { ...frame, pages });
      await new Promise((resolve) => setTimeout(resolve, 160));
    }
    document.body.classList.remove("animating");
    animating = false;
  }
  accept(result);
  render(state);
}

function startDrag(event) {
  if (!state || state.empty || animating) return;
  drag = { startX: event.clientX, startY: event.clientY, progress: 0, frame: 0, sending: null, dirty: false };
  $("viewport").setPointerCapture(event.pointerId);
  $("viewport").classList.add("dragging");
}

function moveDrag(event) {
  if (!drag) return;
  // Progress is logical (+ toward the next page): dragging against the reading direction, or up.
  let travel;
  if (state.orientation === "vertical") travel = (drag.startY - event.clientY) / state.viewport.height;
  else if (state.layoutDirection === "rtl") travel = (event.clientX - drag.startX) / state.viewport.width;
  else travel = (drag.startX - event.clientX) / state.viewport.width;
  drag.progress = Math.max(-1, Math.min(1, travel));
  // At most one report per animation frame, and never two in flight at once.
  if (!drag.frame) drag.frame = requestAnimationFrame(() => { drag && (drag.frame = 0, report()); });
}

function report() {
  if (!drag) return;
  if (drag.sending) { drag.dirty = true; return; }
  const progress = drag.progress;
  drag.sending = call("POST", sessionPath("/scroll"), { progress }).then((s) => {
    accept(s);
    const current = drag;
    if (current) {
      current.sending = null;
      if (current.dirty) { current.dirty = false; report(); }
    }
  });
}

async function endDrag() {
  if (!drag) return;
  const finished = drag;
  drag = null;
  $("viewport").classList.remove("dragging");
  if (finished.frame) cancelAnimationFrame(finished.frame);
  if (finished.sending) await finished.sending;
  if (finished.progress === 0) return;
  accept(await call("POST", sessionPath("/scroll"), { progress: finished.progress }));
  // A pull past an end (a rubber band) counts as completed from a quarter of the page; the
  // server then asks for the trailing action, if the pager offers one there.
  const pulled = state && state.overscroll;
  const completed = Math.abs(finished.progress) > (pulled ? 0.25 : 0.5);
  const released = await call("POST", sessionPath("/transition"), { phase: "end", completed });
  accept(released);
  if (released && released.actionRequested && released.actionRequested.id === "add-bottle") await addBottle();
}

// The demo's own memory of the rubber band it asked for (the state document reports the
// overscroll, not the setting).
let rubberBand = "none";

async function patchSettings(patch) {
  accept(await call("PATCH", sessionPath(), patch));
}

async function addBottle() {
  const n = Date.now().toString(36);
  const emojis = ["🍯", "🎈", "🧸", "🪴", "🎸"];
  accept(await call("POST", sessionPath("/pages"), {
    page: { id: `bottle-${n}`, title: `Bottle ${state.pageCount + 1}`,
      content: { emoji: emojis[state.pageCount % emojis.length], color: "#34c759", coins: 0, goal: 100 } },
    then: "select",
  }));
}

function wire() {
  $("create").addEventListener("submit", async (event) => {
    event.preventDefault();
    const s = await call("POST", "/v1/sessions", { template: $("template").value });
    if (s) await openSession(s.id);
  });
  $("open").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = $("session-input").value.trim();
    if (id) openSession(id);
  });
  for (const command of ["next", "previous"]) {
    $(command).addEventListener("click", async () => {
      const result = await call("POST", sessionPath(`/${command}`));
      announce(result);
      accept(result);
    });
  }
  $("trailing").addEventListener("click", addBottle);
  $("empty-action").addEventListener("click", addBottle);
  $("push").addEventListener("click", async () => {
    const depth = state.page.stack.length + 1;
    accept(await call("POST", sessionPath(`/pages/${state.page.id}/stack`), {
      screen: { id: `screen-${depth}`, title: `Screen ${depth}` },
    }));
  });
  $("pop").addEventListener("click", async () => accept(await call("DELETE", sessionPath(`/pages/${state.page.id}/stack`))));
  $("direction").addEventListener("click", () =>
    patchSettings({ layoutDirection: state.layoutDirection === "rtl" ? "ltr" : "rtl" }));
  $("orientation").addEventListener("click", () =>
    patchSettings(state.orientation === "vertical"
      ? { orientation: "horizontal" } : { orientation: "vertical", viewport: { height: 420 } }));
  $("rubber-band").addEventListener("click", async () => {
    rubberBand = rubberBand === "none" ? "linear" : "none";
    await patchSettings({ rubberBand: { style: rubberBand }, tabBar: { indicator: { overscroll: "bounce" } } });
  });
  const viewport = $("viewport");
  viewport.addEventListener("pointerdown", startDrag);
  viewport.addEventListener("pointermove", moveDrag);
  viewport.addEventListener("pointerup", endDrag);
  viewport.addEventListener("pointercancel", endDrag);
}

wire();
loadTemplates().then(() => {
  const match = location.hash.match(/session=([A-Za-z0-9_-]+)/);
  if (match) openSession(match[1]);
});
