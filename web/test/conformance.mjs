// predictScroll against a running pagerd: for each case, the state and settings the server gave,
// a prediction, then the real POST …/scroll, and a comparison of the scroll members (numbers
// within 1e-6, nothing else may differ). A table covers every value of every setting that bears
// on a scroll, at the first, a middle and the last index, for progress −1…1 in steps of 0.05 in
// each input form, from rest and from mid-swipe; a seeded random sweep adds random settings,
// pages, positions and inputs; refusals check the errors, and inputs at the ends of the number
// line the arithmetic.
//
//   node web/test/conformance.mjs --base http://127.0.0.1:PORT [--seed N] [--sweep N] [--workers N]
//                                 [--table-only | --sweep-only]
//
// Prints one JSON line with the counts and the largest difference; exits 1 on any difference.
import { predictScroll } from "../pagerd.js";
import { Server, compare, scrollMembers, seeded } from "./harness.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const base = option("base", process.env.PAGERD_URL);
if (!base) {
  console.error("usage: node web/test/conformance.mjs --base http://127.0.0.1:PORT [--seed N] [--sweep N]");
  process.exit(2);
}
const seed = Number(option("seed", 20251126));
const sweepSessions = Number(option("sweep", 400));
const workers = Number(option("workers", 3));
const server = new Server(base, { sockets: workers + 1 });

const totals = { cases: 0, tableCases: 0, sweepCases: 0, edgeCases: 0, sessions: 0, maxDiff: 0, failures: [] };
// Per input form of the table, over every config and over those of several pages per view (docs/api.md, «Several pages per viewport»):
// cases, and those the server answered with a progress strictly inside (−1, 1) (in flight, or at
// rest) and not blocked, for the inputs cover a stride either side of the rest position.
const coverage = Object.fromEntries(["progress", "offset", "windowOffset"].map((form) => [form, { cases: 0, inside: 0, pagesCases: 0, pagesInside: 0 }]));

// MARK: Pages

const titled = (titles) => titles.map((title, i) => ({ id: `p${i}`, title }));
const PAGES = {
  one: titled(["Only"]),
  two: titled(["First", "Second"]),
  three: titled(["Photos", "Videos", "Music"]),
  five: titled(["Home", "최근 본 상품", "Wishlist and more", "찜", "Settings"]),
  widths: [60, 120, 80, 200, 95.5].map((tabWidth, i) => ({ id: `w${i}`, title: `W${i}`, tabWidth })),
  seven: titled(["A", "Bb", "Ccc", "Dddd", "Eeeee", "Ffffff", "Ggggggg"]),
  mall: titled(["상품", "최근 본 상품", "찜"]),
  ten: titled(["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]),
};

// MARK: The table

/**
 * Every setting that bears on a scroll, each value at least once, the interplay in groups. The
 * layout settings a server may not have yet (`features`, read from its settings document) join
 * the table once it has them.
 */
function table(features) {
  const configs = [];
  let group; // the layout setting (docs/api.md, «Layouts») a config of the table is there for
  // `effectiveLayout`, where given, is the layout an `auto` bar must resolve to at creation.
  const add = (name, pages, settings, effectiveLayout) => configs.push({ name, pages, settings, group, effectiveLayout });
  const indicator = (values) => ({ tabBar: { indicator: values } });

  // Layouts, widths, spacing and insets.
  for (const name of ["one", "two", "three", "five"]) add(`fixed/${name}`, PAGES[name], {});
  add("fixed/spacing-inset", PAGES.five, { tabBar: { spacing: 4, inset: 10 } });
  add("scrollable/titles", PAGES.five, { tabBar: { layout: "scrollable" } });
  add("scrollable/widths", PAGES.widths, { tabBar: { layout: "scrollable" } });
  add("scrollable/spacing-inset", PAGES.widths, { tabBar: { layout: "scrollable", spacing: 8, inset: 12 } });
  add("scrollable/estimate", PAGES.seven, { tabBar: { layout: "scrollable", minTabWidth: 30, tabPadding: 5, charWidth: 11 } });
  add("scrollable/narrow", PAGES.five, { viewport: { width: 200 }, tabBar: { layout: "scrollable" } });
  add("scrollable/short-bar", PAGES.three, { viewport: { width: 900 }, tabBar: { layout: "scrollable" } });
  add("none/bounded", PAGES.three, { tabBar: { layout: "none" } });
  add("none/loop", PAGES.five, { mode: "loop", tabBar: { layout: "none" } });

  // Direction, orientation and mode.
  for (const layoutDirection of ["ltr", "rtl"]) {
    for (const orientation of ["horizontal", "vertical"]) {
      for (const mode of ["bounded", "loop"]) {
        for (const layout of ["fixed", "scrollable"]) {
          add(`${layoutDirection}/${orientation}/${mode}/${layout}`, layout === "fixed" ? PAGES.three : PAGES.widths, {
            layoutDirection, orientation, mode, viewport: { width: 390, height: 600 },
            tabBar: { layout, spacing: layout === "fixed" ? 2 : 6, inset: 5 },
          });
        }
      }
    }
  }

  // Indicator style and tracking, bounded and across a loop's seam.
  let turn = 0;
  for (const style of ["linear", "elastic", "fade"]) {
    for (const tracking of ["continuous", "halfway", "settled"]) {
      for (const mode of ["bounded", "loop"]) {
        turn += 1;
        const layout = turn % 2 ? "fixed" : "scrollable";
        add(`${style}/${tracking}/${mode}`, layout === "fixed" ? PAGES.five : PAGES.widths, {
          mode, layoutDirection: turn % 3 === 0 ? "rtl" : "ltr", tabBar: { layout, indicator: { style, tracking } },
        });
      }
    }
  }

  // Across the seam with estimated widths (64, 128, 48), where rounding leaves slivers (left out).
  for (const style of ["linear", "elastic"]) {
    for (const layoutDirection of ["ltr", "rtl"]) {
      add(`seam/${style}/${layoutDirection}`, PAGES.mall, { mode: "loop", layoutDirection, tabBar: { layout: "scrollable", indicator: { style } } });
    }
  }

  // Overscroll of the indicator and the rubber band.
  turn = 0;
  for (const overscroll of ["none", "bounce", "compress"]) {
    for (const rubberBand of [{ style: "none" }, { style: "linear" }, { style: "resistance", ratio: 0.5 },
      { style: "resistance" }, { style: "resistance", ratio: 1 }]) {
      turn += 1;
      add(`overscroll/${overscroll}/${rubberBand.style}/${rubberBand.ratio ?? ""}`, turn % 2 ? PAGES.three : PAGES.widths, {
        rubberBand, layoutDirection: turn % 3 === 1 ? "rtl" : "ltr", orientation: turn % 4 === 2 ? "vertical" : "horizontal",
        tabBar: { layout: turn % 2 ? "fixed" : "scrollable", indicator: { overscroll, style: turn % 5 === 0 ? "elastic" : "linear" } },
      });
    }
  }
  for (const tracking of ["halfway", "settled"]) {
    add(`overscroll/bounce/${tracking}`, PAGES.three, { rubberBand: { style: "linear" }, ...indicator({ overscroll: "bounce", tracking }) });
  }
  add("overscroll/loop-of-one", PAGES.one, { mode: "loop", rubberBand: { style: "linear" }, ...indicator({ overscroll: "compress" }) });
  add("overscroll/bounded-one", PAGES.one, { rubberBand: { style: "resistance", ratio: 0.7 }, ...indicator({ overscroll: "bounce" }) });
  add("overscroll/loop-of-two", PAGES.two, { mode: "loop", rubberBand: { style: "linear" }, ...indicator({ overscroll: "bounce" }) });

  // A progressive indicator (bounded only).
  turn = 0;
  for (const layout of ["fixed", "scrollable"]) {
    for (const style of ["linear", "elastic", "fade"]) {
      for (const layoutDirection of ["ltr", "rtl"]) {
        turn += 1;
        const overscroll = ["none", "bounce", "compress"][turn % 3];
        add(`progressive/${layout}/${style}/${layoutDirection}`, layout === "fixed" ? PAGES.five : PAGES.widths, {
          layoutDirection, rubberBand: { style: turn % 2 ? "linear" : "none" },
          tabBar: { layout, indicator: { progressive: true, style, overscroll, tracking: turn % 4 === 3 ? "halfway" : "continuous" } },
        });
      }
    }
  }

  // Title colours and scales.
  const title = { color: "#112233", selectedColor: "#FFAA0080", scale: 0.8, selectedScale: 1.25 };
  for (const tracking of ["continuous", "halfway", "settled"]) {
    for (const mode of ["bounded", "loop"]) {
      add(`title/${tracking}/${mode}`, PAGES.five, { mode, tabBar: { title, indicator: { tracking } } });
    }
  }
  add("title/defaults", PAGES.three, { tabBar: { title: {} } });
  add("title/scrollable-rtl", PAGES.widths, { layoutDirection: "rtl", tabBar: { layout: "scrollable", title: { color: "#00000000", selectedColor: "#ffffff" } } });

  // Swipe locks.
  for (const swipe of ["both", "forward", "reverse", "none"]) {
    for (const mode of ["bounded", "loop"]) {
      add(`swipe/${swipe}/${mode}`, PAGES.three, { swipe, mode, rubberBand: { style: mode === "bounded" ? "linear" : "none" } });
    }
  }
  if (features.alignment) {
    group = "alignment";
    for (const alignment of ["center", "trailing"]) {
      for (const layoutDirection of ["ltr", "rtl"]) {
        for (const mode of ["bounded", "loop"]) {
          add(`alignment/${alignment}/${layoutDirection}/${mode}`, PAGES.widths, {
            mode, layoutDirection, viewport: { width: 900 }, tabBar: { layout: "scrollable", alignment, inset: 10, spacing: 3, indicator: { style: mode === "loop" ? "elastic" : "linear" } },
          });
        }
      }
      add(`alignment/${alignment}/progressive`, PAGES.widths, { viewport: { width: 900 }, rubberBand: { style: "linear" }, tabBar: { layout: "scrollable", alignment, indicator: { progressive: true, overscroll: "compress" } } });
    }
    add("alignment/overflowing", PAGES.seven, { viewport: { width: 200 }, tabBar: { layout: "scrollable", alignment: "center" } });
  }
  if (features.selectedScrollPosition) {
    group = "selectedScrollPosition";
    for (const position of ["leading", "trailing"]) {
      for (const layoutDirection of ["ltr", "rtl"]) {
        add(`scroll-position/${position}/${layoutDirection}`, PAGES.seven, {
          layoutDirection, viewport: { width: 200 }, rubberBand: { style: "linear" },
          tabBar: { layout: "scrollable", inset: 12, selectedScrollPosition: position, indicator: { overscroll: "bounce" } },
        });
      }
      // Across the loop's seam (clamped as in a bounded bar), `trailing` in RTL.
      add(`scroll-position/${position}/loop`, PAGES.seven, {
        mode: "loop", layoutDirection: position === "trailing" ? "rtl" : "ltr", viewport: { width: 200 },
        tabBar: { layout: "scrollable", inset: 12, selectedScrollPosition: position, indicator: { style: "elastic" } },
      });
    }
  }
  if (features.indicatorInset) {
    group = "indicatorInset";
    const inset = { leading: 10, trailing: 6, firstLeading: 20, lastTrailing: 30 };
    let round = 0;
    for (const style of ["linear", "elastic", "fade"]) {
      for (const tracking of ["continuous", "halfway", "settled"]) {
        round += 1;
        add(`inset/${style}/${tracking}`, round % 2 ? PAGES.five : PAGES.widths, {
          mode: round % 3 === 0 ? "loop" : "bounded", layoutDirection: round % 4 === 1 ? "rtl" : "ltr", rubberBand: { style: "linear" },
          tabBar: { layout: round % 2 ? "fixed" : "scrollable", indicator: { style, tracking, inset, overscroll: ["bounce", "compress", "none"][round % 3] } },
        });
      }
    }
    add("inset/progressive", PAGES.five, { rubberBand: { style: "resistance" }, tabBar: { indicator: { progressive: true, inset, overscroll: "compress" } } });
    add("inset/wider-than-tabs", PAGES.five, { mode: "loop", tabBar: { indicator: { inset: { leading: 50, trailing: 40 } } } });
  }
  if (features.maxTabWidth) {
    group = "maxTabWidth";
    add("max-width/scrollable", PAGES.five, { tabBar: { layout: "scrollable", maxTabWidth: 70 } });
    for (const width of [390, 200]) add(`auto/${width}`, PAGES.five, { viewport: { width }, tabBar: { layout: "auto", maxTabWidth: 120, minTabWidth: 40 } }, "scrollable");
    // Across the loop's seam: scrollable at W = 200, with bounded widths.
    add("auto/loop", PAGES.five, { mode: "loop", viewport: { width: 200 }, tabBar: { layout: "auto", maxTabWidth: 120, minTabWidth: 40, indicator: { style: "elastic" } } }, "scrollable");
    // Widths 80, 80 and 72 fit the share 130: fixed.
    add("auto/fixed/390", PAGES.three, { viewport: { width: 390 }, rubberBand: { style: "linear" }, tabBar: { layout: "auto", indicator: { overscroll: "bounce" } } }, "fixed");
  }
  if (features.selectedTabWidth) {
    group = "selectedTabWidth";
    for (const tracking of ["continuous", "halfway", "settled"]) {
      for (const mode of ["bounded", "loop"]) {
        add(`selected-width/${tracking}/${mode}`, PAGES.widths, {
          mode, layoutDirection: mode === "loop" ? "rtl" : "ltr", rubberBand: { style: "linear" },
          tabBar: { layout: "scrollable", selectedTabWidth: 150, indicator: { tracking, style: mode === "loop" ? "elastic" : "linear", overscroll: "bounce" } },
        });
      }
    }
    add("selected-width/centred-short-bar", PAGES.three, { viewport: { width: 900 }, tabBar: { layout: "scrollable", selectedTabWidth: 300, alignment: features.alignment ? "center" : undefined } });
  }
  if (features.pagesPerView) {
    group = "pagesPerView";
    const spreads = [{ pagesPerView: 2, pageSpacing: 10 }, { pagesPerView: 2.5 }, { pagesPerView: 1.25, pageSpacing: 10, centered: true }, { pageSpacing: 10 }, { pagesPerView: 3, centered: true }];
    for (const viewport of spreads) {
      for (const [mode, layoutDirection, orientation] of [["bounded", "ltr", "horizontal"], ["bounded", "rtl", "horizontal"], ["loop", "ltr", "horizontal"], ["bounded", "rtl", "vertical"]]) {
        add(`pages/${JSON.stringify(viewport)}/${mode}/${layoutDirection}/${orientation}`, PAGES.seven, {
          mode, layoutDirection, orientation, viewport, rubberBand: { style: mode === "bounded" ? "linear" : "none" },
          tabBar: { indicator: { overscroll: "bounce" } },
        });
      }
    }
    // Without tabs and with `preload` 0, the page past those on screen is named by `preload` alone.
    for (const [viewport, mode] of [[{ pagesPerView: 1.25, pageSpacing: 10, centered: true }, "bounded"], [{ pagesPerView: 2.5 }, "loop"]]) {
      add(`pages/no-tabs/preload-0/${JSON.stringify(viewport)}/${mode}`, PAGES.seven, { mode, viewport, preload: 0, tabBar: { layout: "none" } });
    }
    // Three pages per view 10 apart over ten pages: the last ones rest at M, which j·D − κ
    // reaches only to within rounding.
    add("pages/rounded-stride", PAGES.ten, { viewport: { pagesPerView: 3, pageSpacing: 10 } });
  }
  return configs;
}

/** Which of the later layout settings the server has: its settings document lists them. */
async function serverFeatures() {
  const { id, settings } = await createSession(PAGES.three, {});
  await server.call("DELETE", `/v1/sessions/${id}`);
  return {
    alignment: "alignment" in settings.tabBar,
    selectedScrollPosition: "selectedScrollPosition" in settings.tabBar,
    indicatorInset: "inset" in settings.tabBar.indicator,
    maxTabWidth: "maxTabWidth" in settings.tabBar,
    selectedTabWidth: "selectedTabWidth" in settings.tabBar,
    pagesPerView: "pagesPerView" in settings.viewport,
  };
}

// Progress −1…1 in steps of 0.05, and past both ends.
const GRID = Array.from({ length: 41 }, (_, i) => Math.round(i * 5 - 100) / 100).concat([-1.25, 1.25]);
const FORMS = ["progress", "offset", "windowOffset"];

/**
 * The page geometry of `state` along its page axis (docs/api.md, «Several pages per viewport»): the viewport's extent E, a page's
 * extent P, the stride D = P + g, the rest offset O(j) of position j (κ subtracted, capped at M in
 * a bounded pager that is not centred; a loop of one page is laid out as bounded) and whether the
 * offsets are mirrored (horizontal RTL, about R = O_0 + O_{n−1}).
 */
function geometry(state) {
  const vertical = state.orientation === "vertical";
  const viewport = state.viewport;
  const E = vertical ? viewport.height : viewport.width;
  const P = viewport.pageSize ?? E;
  const D = P + (viewport.pageSpacing ?? 0);
  const centered = viewport.centered === true;
  const kappa = centered ? (E - P) / 2 : 0;
  const n = Math.max(1, state.pageCount);
  const bounded = state.mode !== "loop" || n === 1;
  const M = bounded && !centered ? Math.max(0, (n - 1) * D - (E - P)) : Number.POSITIVE_INFINITY;
  const O = (j) => Math.min(j * D - kappa, M);
  return { E, P, D, O, R: O(0) + O(n - 1), mirrored: state.layoutDirection === "rtl" && !vertical };
}

/**
 * The input of form `form` that moves p strides from the rest position of `state`'s index:
 * `offset` O_c + p·D (mirrored: R − that), `windowOffset` D + p·D (mirrored: D − p·D). Where c or
 * its neighbour is limited, the server's progress differs from p (docs/api.md, «Several pages per viewport»); the inputs still cover
 * ±1 stride around the view at rest.
 */
function inputFor(form, p, state) {
  if (form === "progress") return { progress: p };
  const { D, O, R, mirrored } = geometry(state);
  if (form === "offset") {
    const forward = O(state.index) + p * D;
    return { offset: mirrored ? R - forward : forward };
  }
  return { windowOffset: mirrored ? D - p * D : D + p * D };
}

/** One case: predict from `state`, scroll, compare; answers the server's new state. */
async function check(session, state, settings, input, label, counter) {
  let predicted, refusal;
  try {
    predicted = predictScroll(state, settings, input);
  } catch (error) {
    refusal = error;
  }
  const answer = await server.call("POST", `/v1/sessions/${session}/scroll`, input);
  totals.cases += 1;
  totals[counter] += 1;
  const where = `${label} from ${describe(state)} with ${JSON.stringify(input)}`;
  if (answer.status !== 200) {
    if (!refusal || refusal.code !== answer.body.code || refusal.field !== answer.body.field) {
      fail(`${where}: server ${answer.status} ${JSON.stringify(answer.body)}, predicted ${refusal ? `${refusal.code} ${refusal.field}` : "success"}`);
    }
    return state;
  }
  if (refusal) {
    fail(`${where}: predicted ${refusal.code} (${refusal.message}), server answered 200`);
    return answer.body;
  }
  if (counter === "tableCases") {
    const form = Object.keys(input)[0];
    const moved = answer.body.transition ?? answer.body.overscroll;
    const inside = !answer.body.blocked && Math.abs(moved?.progress ?? 0) < 1;
    const tally = coverage[form];
    tally.cases += 1;
    tally.inside += inside;
    if (label.startsWith("pages/")) {
      tally.pagesCases += 1;
      tally.pagesInside += inside;
    }
  }
  const result = compare(scrollMembers(answer.body), predicted);
  totals.maxDiff = Math.max(totals.maxDiff, result.maxDiff);
  if (result.problems.length) fail(`${where}: ${result.problems.slice(0, 4).join("; ")}`);
  return answer.body;
}

function describe(state) {
  if (state.transition) return `index ${state.index}, transition ${JSON.stringify(state.transition)}`;
  if (state.overscroll) return `index ${state.index}, overscroll ${JSON.stringify(state.overscroll)}`;
  return `index ${state.index} at rest`;
}

/** Counts a difference; the first 50 are printed. */
function fail(message) {
  if (totals.failures.length < 50) totals.failures.push(message);
  totals.failed = (totals.failed ?? 0) + 1;
}

async function createSession(pages, settings, initialPage) {
  const body = { pages, ...settings };
  if (initialPage !== undefined) body.initialPage = initialPage;
  const created = await server.json("POST", "/v1/sessions", body, 201);
  totals.sessions += 1;
  const config = await server.json("GET", `/v1/sessions/${created.id}/settings`);
  return { id: created.id, state: created, settings: config };
}

/** Rest: a transition or overscroll in flight is cancelled. */
function rest(id) {
  return server.json("POST", `/v1/sessions/${id}/transition`, { phase: "end", completed: false });
}

async function runConfig(config) {
  const { id, state: created, settings } = await createSession(config.pages, config.settings);
  if (config.effectiveLayout && created.tabBar.effectiveLayout !== config.effectiveLayout) {
    fail(`${config.name}: effectiveLayout ${created.tabBar.effectiveLayout}, not ${config.effectiveLayout}`);
  }
  const n = created.pageCount;
  const indexes = [...new Set([0, Math.floor((n - 1) / 2), n - 1])];
  for (const index of indexes) {
    await server.json("POST", `/v1/sessions/${id}/select`, { index });
    // The page offset the state reports, sent back as it is: rounding and all, it is the rest.
    const atRest = await rest(id);
    const sentBack = await check(id, atRest, settings, { offset: atRest.pageOffset }, `${config.name} reported offset`, "edgeCases");
    if (sentBack.version !== atRest.version || sentBack.transition || sentBack.overscroll) {
      fail(`${config.name} at ${index}: sending back pageOffset ${atRest.pageOffset} changed the state`);
    }
    for (const form of FORMS) {
      for (let i = 0; i < GRID.length; i += 1) {
        const atRest = await rest(id);
        const label = `${config.name} ${form}`;
        const swiping = await check(id, atRest, settings, inputFor(form, GRID[i], atRest), label, "tableCases");
        // From mid-swipe: the next input starts from the state that scroll left.
        const next = GRID[(i * 17 + 5) % GRID.length];
        const otherForm = FORMS[(i + FORMS.indexOf(form) + 1) % FORMS.length];
        await check(id, swiping, settings, inputFor(otherForm, next, swiping), `${label} then ${otherForm}`, "tableCases");
      }
    }
  }
  await server.call("DELETE", `/v1/sessions/${id}`);
}

// MARK: The random sweep

function randomConfig(random, features) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const n = 1 + Math.floor(random() * 7);
  const explicit = random() < 0.5;
  const pages = Array.from({ length: n }, (_, i) => {
    const page = { id: `r${i}`, title: pick(["A", "Photos", "최근 본 상품", "A much longer title", "찜", "Settings", "🙂 Smile"]) };
    if (explicit) page.tabWidth = Math.round((20 + random() * 230) * 4) / 4;
    return page;
  });
  const mode = pick(["bounded", "bounded", "loop"]);
  const layout = pick(["fixed", "scrollable", "scrollable", "none"]);
  const settings = {
    mode,
    layoutDirection: pick(["ltr", "rtl"]),
    orientation: pick(["horizontal", "horizontal", "vertical"]),
    swipe: pick(["both", "both", "both", "forward", "reverse", "none"]),
    viewport: { width: pick([250, 320, 390, 414.5, 768]), height: pick([600, 844, 1000.5]) },
    rubberBand: { style: pick(["none", "linear", "resistance"]), ratio: pick([0.85, 0.5, 1, Math.round(random() * 1000) / 1000 || 0.001]) },
    tabBar: {
      layout,
      spacing: pick([0, 0, 3.5, 10]),
      inset: pick([0, 0, 6, 15.25]),
      indicator: {
        style: pick(["linear", "elastic", "fade"]),
        tracking: pick(["continuous", "continuous", "halfway", "settled"]),
        overscroll: pick(["none", "bounce", "compress"]),
        progressive: mode === "bounded" && random() < 0.25,
        height: pick([2, 3.5]),
      },
      title: random() < 0.3 ? { color: "#4A4A4A", selectedColor: pick(["#037DE9", "#FF000080"]), scale: 0.9, selectedScale: pick([1, 1.3]) } : null,
    },
  };
  // The later layout settings, where the server has them.
  const bar = settings.tabBar;
  if (features.alignment) bar.alignment = pick(["leading", "center", "trailing"]);
  if (features.selectedScrollPosition) bar.selectedScrollPosition = pick(["leading", "center", "trailing"]);
  if (features.indicatorInset && random() < 0.5) {
    bar.indicator.inset = { leading: pick([0, 4, 12]), trailing: pick([0, 6]), firstLeading: pick([0, 20]), lastTrailing: pick([0, 30]) };
  }
  if (features.maxTabWidth && layout !== "none" && random() < 0.4) {
    bar.layout = pick(["auto", "scrollable"]);
    bar.maxTabWidth = pick([null, 90, 160]);
    bar.minTabWidth = 40;
  }
  if (features.selectedTabWidth && random() < 0.3) bar.selectedTabWidth = pick([120, 200.5]);
  if (features.pagesPerView && random() < 0.4) {
    Object.assign(settings.viewport, { pagesPerView: pick([1, 1.5, 2, 3]), pageSpacing: pick([0, 8]), centered: random() < 0.4 });
  }
  return { pages, settings, initialPage: Math.floor(random() * n) };
}

function randomInput(random, state) {
  const forms = FORMS[Math.floor(random() * FORMS.length)];
  const { D } = geometry(state);
  const roll = random();
  let p;
  if (roll < 0.4) p = GRID[Math.floor(random() * GRID.length)];
  else if (roll < 0.85) p = random() * 2.6 - 1.3;
  else p = [0, 1, -1, 0.5, -0.5, 0.5 - 5e-10, -(0.5 - 2e-9), 1 / D, -1 / D, 1 - 1 / D, 1e-12, -1e-12][Math.floor(random() * 12)];
  return inputFor(forms, p, state);
}

async function runSweep(random, count, features) {
  for (let s = 0; s < count; s += 1) {
    const config = randomConfig(random, features);
    let session;
    try {
      session = await createSession(config.pages, config.settings, config.initialPage);
    } catch (error) {
      fail(`sweep session ${JSON.stringify(config)}: ${error.message}`);
      continue;
    }
    let state = session.state;
    for (let c = 0; c < 12; c += 1) {
      if (random() < 0.25) state = await rest(session.id);
      else if (random() < 0.1) state = await server.json("POST", `/v1/sessions/${session.id}/select`, { index: Math.floor(random() * state.pageCount) });
      state = await check(session.id, state, session.settings, randomInput(random, state), "sweep", "sweepCases");
    }
    await server.call("DELETE", `/v1/sessions/${session.id}`);
  }
}

// MARK: Refusals

async function runRefusals() {
  const { id, state, settings } = await createSession(PAGES.three, {});
  const bad = [{}, { progress: "0.5" }, { progress: true }, { progress: [1] }, { progress: 0.2, offset: 5 },
    { offset: 1, windowOffset: 2, progress: 3 }, { sideways: 1 }, { progress: null }, { progress: 0.1, extra: null },
    { progress: Number.NaN }, { offset: Number.POSITIVE_INFINITY }, [], [0.5], "0.5", 7, null];
  for (const input of bad) await check(id, state, settings, input, "refusal", "edgeCases");
  // Inputs at the ends of the number line, on ordinary and tiny viewports.
  const extremes = [{ offset: Number.MAX_VALUE }, { offset: -Number.MAX_VALUE }, { windowOffset: Number.MAX_VALUE },
    { progress: 1e308 }, { progress: -5e-324 }, { progress: 5e-324 }, { offset: 5e-324 }, { progress: -0 }];
  for (const settingsOfCase of [{}, { layoutDirection: "rtl", viewport: { width: 1e-300 } }, { mode: "loop", viewport: { width: 1e9 } }]) {
    const session = await createSession(PAGES.three, settingsOfCase);
    for (const input of extremes) {
      await check(session.id, await rest(session.id), session.settings, input, "extreme", "edgeCases");
    }
  }
  const empty = await createSession([], {});
  for (const input of [{ progress: 0.5 }, { offset: 10 }, { windowOffset: 0 }, { progress: 0 }, {}, { x: 1 }]) {
    await check(empty.id, empty.state, empty.settings, input, "empty pager", "edgeCases");
  }
  await runRoundingCorners();
}

/**
 * Where a rounding error decides a case: `visible`'s one-point cut with `centered` set on one
 * page per view (which then changes nothing), and the indicator at the ends of a right-to-left
 * bar a billion points wide, where unmirroring a frame is off by more than a sliver.
 */
async function runRoundingCorners() {
  const corners = [
    [PAGES.three, { viewport: { width: 1, centered: true }, rubberBand: { style: "linear" } }, [{ progress: 0 }, { progress: 0.3 }, { progress: -0.3 }, { offset: 1.5 }]],
    [PAGES.three, { viewport: { centered: true } }, [{ offset: 1.00000000100001 }, { offset: 389.999999999 }, { windowOffset: 390.000000001 }]],
    [PAGES.three, { orientation: "vertical", viewport: { height: 1e9, centered: true } }, [{ offset: 1000000001 }, { offset: 999999999 }]],
  ];
  for (const mode of ["bounded", "loop"]) {
    corners.push([PAGES.three, { mode, layoutDirection: "rtl", viewport: { width: 1e9 }, tabBar: { indicator: { style: "elastic" } } },
      [{ progress: 1e-9 }, { progress: -1e-9 }, { progress: 1e-12 }, { progress: 0.999 }]]);
  }
  for (const [pages, settingsOfCase, inputs] of corners) {
    const session = await createSession(pages, settingsOfCase);
    for (const index of [0, 1, 2]) {
      await server.json("POST", `/v1/sessions/${session.id}/select`, { index });
      for (const input of inputs) {
        await check(session.id, await rest(session.id), session.settings, input, `rounding ${JSON.stringify(settingsOfCase)}`, "edgeCases");
      }
    }
    await server.call("DELETE", `/v1/sessions/${session.id}`);
  }
}

// MARK: Main

const started = performance.now();
const features = await serverFeatures();
const configs = table(features);
if (!args.includes("--sweep-only")) {
  let next = 0;
  await Promise.all(Array.from({ length: workers }, async () => {
    while (next < configs.length) await runConfig(configs[next++]);
  }));
}
const random = seeded(seed);
if (!args.includes("--table-only")) {
  const perWorker = Math.ceil(sweepSessions / workers);
  const streams = Array.from({ length: workers }, (_, w) => seeded(Math.floor(random() * 2 ** 32) + w));
  await Promise.all(streams.map((stream) => runSweep(stream, perWorker, features)));
}
await runRefusals();
server.close();
const layoutConfigs = Object.fromEntries(Object.keys(features).map((name) => [name, configs.filter((config) => config.group === name).length]));
const summary = {
  configs: configs.length,
  layoutConfigs,
  layoutSettings: Object.keys(features).filter((name) => features[name]),
  cases: totals.cases,
  tableCases: totals.tableCases,
  sweepCases: totals.sweepCases,
  edgeCases: totals.edgeCases,
  coverage,
  sessions: totals.sessions,
  requests: server.requests,
  seed,
  maxDiff: totals.maxDiff,
  differences: totals.failed ?? 0,
  seconds: Math.round((performance.now() - started) / 100) / 10,
};
console.log(JSON.stringify(summary));
for (const failure of totals.failures) console.error(failure);
process.exit(totals.failed ? 1 : 0);
