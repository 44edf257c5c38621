// predictScroll on the worked examples of the layout settings of docs/api.md (tab alignment,
// where the selected tab scrolls to, the indicator inset, `auto` widths, a selected tab of its
// own width, several pages per viewport), in Node (node --test) without a server: from state
// documents written here as pagerd sends them, each prediction against the example's numbers.
// The conformance run (conformance.mjs) compares the same settings with a running server.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { predictScroll } from "../pagerd.js";

// MARK: Documents

const DEFAULT_SETTINGS = {
  mode: "bounded",
  viewport: { width: 390, height: 844, pagesPerView: 1, pageSpacing: 0, centered: false },
  layoutDirection: "ltr",
  orientation: "horizontal",
  swipe: "both",
  rubberBand: { style: "none", ratio: 0.85 },
  tabBar: {
    layout: "fixed", spacing: 0, inset: 0, minTabWidth: 48, tabPadding: 16, charWidth: 8,
    alignment: "leading", selectedScrollPosition: "center", maxTabWidth: null, selectedTabWidth: null,
    indicator: {
      style: "linear", height: 2, overscroll: "none", tracking: "continuous", progressive: false,
      inset: { leading: 0, trailing: 0, firstLeading: 0, lastTrailing: 0 },
    },
    title: null,
  },
  release: { flickVelocity: 0.5 },
  dragTimeout: 15000,
};

/** `base` with `patch` merged in, member by member (RFC 7396 without deletions). */
function merge(base, patch) {
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return patch;
  const result = { ...base };
  for (const [key, value] of Object.entries(patch)) result[key] = merge(base?.[key], value);
  return result;
}

const settingsWith = (patch = {}) => merge(DEFAULT_SETTINGS, patch);

/**
 * A state document as pagerd sends it: `frames` are the tabs' frames left to right ([x, w]),
 * mirrored here when right to left; `layout` "none" lists the pages in `preload` instead.
 */
function stateOf(settings, { n, index, frames = null, contentWidth, effectiveLayout, baseWidths, transition = null }) {
  const ids = Array.from({ length: n }, (_, i) => `p${i}`);
  const rtl = settings.layoutDirection === "rtl";
  const C = contentWidth ?? (frames ? Math.max(...frames.map(([x, w]) => x + w)) : 0);
  const tabs = (frames ?? []).map(([x, width], i) => {
    const tab = { index: i, id: ids[i], title: `Page ${i}`, x: rtl ? C - x - width : x, width, selection: i === index ? 1 : 0, selected: i === index };
    if (baseWidths) tab.baseWidth = baseWidths[i];
    return tab;
  });
  const summary = (i) => (i === null ? null : { index: i, id: ids[i], title: `Page ${i}` });
  const loop = settings.mode === "loop" && n > 1;
  const tabBar = { layout: frames ? settings.tabBar.layout : "none", contentWidth: C, offset: 0 };
  if (effectiveLayout) tabBar.effectiveLayout = effectiveLayout;
  return {
    id: "example", version: 1, mode: settings.mode, layoutDirection: settings.layoutDirection,
    orientation: settings.orientation, swipe: settings.swipe, pageCount: n, index, empty: false,
    page: { id: ids[index], title: `Page ${index}`, content: {}, stack: [] },
    previous: summary(index > 0 ? index - 1 : loop ? n - 1 : null),
    next: summary(index < n - 1 ? index + 1 : loop ? 0 : null),
    preload: ids.map((id, i) => ({ index: i, id, title: `Page ${i}`, content: {} })).filter((page) => page.index !== index),
    viewport: { width: settings.viewport.width, height: settings.viewport.height },
    tabs, indicator: null, tabBar, transition, overscroll: null,
  };
}

const tabsOf = (widths, x0 = 0, spacing = 0) => {
  let x = x0;
  return widths.map((w) => {
    const frame = [x, w];
    x += w + spacing;
    return frame;
  });
};

/** Asserts numbers within 1e-6, the rest equal. */
function near(actual, expected, path = "") {
  if (typeof expected === "number") {
    assert.ok(Math.abs(actual - expected) <= 1e-6, `${path}: ${actual} is not ${expected}`);
  } else if (Array.isArray(expected)) {
    assert.equal(actual.length, expected.length, `${path}: ${JSON.stringify(actual)}`);
    expected.forEach((item, i) => near(actual[i], item, `${path}[${i}]`));
  } else if (expected && typeof expected === "object") {
    for (const key of Object.keys(expected)) near(actual[key], expected[key], `${path}.${key}`);
  } else {
    assert.equal(actual, expected, path);
  }
}

const frame = (indicator) => ({ x: indicator.x, width: indicator.width });
const seg = (...pairs) => pairs.map(([x, width]) => ({ x, width }));

// MARK: Examples

describe("tab alignment", () => {
  const centred = settingsWith({ viewport: { width: 320 }, tabBar: { layout: "scrollable", alignment: "center" } });
  test("centred tabs move with the swipe from where they sit", () => {
    const state = stateOf(centred, { n: 3, index: 0, frames: tabsOf([50, 50, 50], 85), contentWidth: 320 });
    near(frame(predictScroll(state, centred, { progress: 0.5 }).indicator), { x: 110, width: 50 });
  });
  test("in a loop the seam period is the bar's width", () => {
    const loop = merge(centred, { mode: "loop" });
    const state = stateOf(loop, { n: 3, index: 2, frames: tabsOf([50, 50, 50], 85), contentWidth: 320 });
    const { indicator, tabBar } = predictScroll(state, loop, { progress: 0.5 });
    near(indicator, { x: 295, width: 50, segments: seg([295, 25], [0, 25]) });
    near(tabBar, { offset: 0, contentWidth: 320 });
  });
  test("a progressive indicator grows from where aligned tabs start", () => {
    const trailing = settingsWith({ viewport: { width: 320 }, tabBar: { layout: "scrollable", alignment: "trailing", indicator: { progressive: true } } });
    const state = stateOf(trailing, { n: 3, index: 0, frames: tabsOf([50, 50, 50], 170), contentWidth: 320 });
    near(predictScroll(state, trailing, { progress: 0 }).indicator, { x: 170, width: 50, segments: seg([170, 50]) });
    near(predictScroll(state, trailing, { progress: 0.5 }).indicator, { x: 170, width: 75, segments: seg([170, 75]) });
  });
  test("right to left, trailing tabs sit at the left", () => {
    const rtl = settingsWith({ layoutDirection: "rtl", viewport: { width: 320 }, tabBar: { layout: "scrollable", alignment: "trailing" } });
    const state = stateOf(rtl, { n: 3, index: 0, frames: tabsOf([50, 50, 50], 170), contentWidth: 320 });
    const predicted = predictScroll(state, rtl, { progress: 0 });
    near(predicted.tabs.map((t) => t.x), [100, 50, 0]);
    near(predicted.indicator.x, 100);
  });
});

describe("where the selected tab scrolls to", () => {
  const tens = (patch) => settingsWith(merge({ viewport: { width: 500 }, tabBar: { layout: "scrollable" } }, patch));
  const at = (settings, index, progress = 0, inset = 0) => {
    const state = stateOf(settings, { n: 10, index, frames: tabsOf(Array(10).fill(100), inset), contentWidth: 1000 + 2 * inset });
    return predictScroll(state, settings, { progress }).tabBar.offset;
  };
  test("leading: the tab's leading edge at the bar's, clamped", () => {
    const leading = tens({ tabBar: { selectedScrollPosition: "leading" } });
    assert.deepEqual([at(leading, 0), at(leading, 1), at(leading, 2), at(leading, 9)], [0, 100, 200, 500]);
    assert.equal(at(tens({ tabBar: { selectedScrollPosition: "leading", inset: 20 } }), 3, 0, 20), 300);
  });
  test("trailing: the tab's trailing edge at the bar's, following the swipe", () => {
    const trailing = tens({ tabBar: { selectedScrollPosition: "trailing" } });
    assert.deepEqual([at(trailing, 4), at(trailing, 4, 0.5), at(trailing, 5), at(trailing, 6)], [0, 50, 100, 200]);
  });
  test("right to left, leading puts the tab at the right", () => {
    assert.equal(at(tens({ layoutDirection: "rtl", tabBar: { selectedScrollPosition: "leading" } }), 1), 400);
  });
});

describe("indicator inset", () => {
  const threes = (inset) => settingsWith({ tabBar: { layout: "scrollable", indicator: { inset } } });
  const rest = (settings, index, widths = [100, 100, 100]) =>
    predictScroll(stateOf(settings, { n: widths.length, index, frames: tabsOf(widths) }), settings, { progress: 0 }).indicator;
  test("leading and trailing on every tab; first and last only at the ends", () => {
    near(rest(threes({ leading: 20, trailing: 20 }), 0), { x: 20, width: 60, segments: seg([20, 60]) });
    const ends = threes({ firstLeading: 20, lastTrailing: 20 });
    near([0, 1, 2].map((i) => frame(rest(ends, i))), [{ x: 20, width: 80 }, { x: 100, width: 100 }, { x: 200, width: 80 }]);
  });
  test("the inset follows a continuous swipe", () => {
    const ends = threes({ firstLeading: 50, lastTrailing: 50 });
    const state = stateOf(ends, { n: 2, index: 0, frames: tabsOf([200, 100]) });
    near(frame(predictScroll(state, ends, { progress: 0 }).indicator), { x: 50, width: 150 });
    near(frame(predictScroll(state, ends, { progress: 0.5 }).indicator), { x: 125, width: 100 });
    near(frame(predictScroll(state, ends, { progress: 1 }).indicator), { x: 200, width: 50 });
  });
  test("fixed tabs, linear and elastic", () => {
    const media = settingsWith({ tabBar: { indicator: { inset: { leading: 16, trailing: 16 } } } });
    const state = stateOf(media, { n: 3, index: 0, frames: tabsOf([130, 130, 130]) });
    near(frame(predictScroll(state, media, { progress: 0 }).indicator), { x: 16, width: 98 });
    near(frame(predictScroll(state, media, { progress: 0.5 }).indicator), { x: 81, width: 98 });
    const elastic = merge(media, { tabBar: { indicator: { style: "elastic" } } });
    near(frame(predictScroll(state, elastic, { progress: 0.5 }).indicator), { x: 54.0761184, width: 151.8477631 });
  });
  test("past the end: bounce and compress, then the inset", () => {
    const pull = (overscroll) => {
      const settings = settingsWith({ rubberBand: { style: "linear" }, tabBar: { indicator: { overscroll, inset: { leading: 16, trailing: 16 } } } });
      const state = stateOf(settings, { n: 3, index: 2, frames: tabsOf([130, 130, 130]) });
      return predictScroll(state, settings, { windowOffset: 468 }).indicator;
    };
    near(pull("bounce"), { x: 302, width: 98, segments: seg([302, 88]) });
    near(frame(pull("compress")), { x: 302, width: 72 });
  });
  test("across the seam, mirrored right to left", () => {
    for (const [direction, x, segments] of [["ltr", 341, seg([341, 49], [0, 49])], ["rtl", -49, seg([0, 49], [341, 49])]]) {
      const mall = settingsWith({ mode: "loop", layoutDirection: direction, tabBar: { indicator: { inset: { leading: 16, trailing: 16 } } } });
      const state = stateOf(mall, { n: 3, index: 2, frames: tabsOf([130, 130, 130]), contentWidth: 390 });
      near(predictScroll(state, mall, { progress: 0.5 }).indicator, { x, width: 98, segments });
    }
  });
  test("progressive grows to the inset frame's trailing edge", () => {
    const four = settingsWith({ viewport: { width: 400 }, tabBar: { indicator: { progressive: true, inset: { leading: 10, trailing: 10 } } } });
    const state = stateOf(four, { n: 4, index: 1, frames: tabsOf([100, 100, 100, 100]) });
    near(predictScroll(state, four, { progress: 0.5 }).indicator, { x: 0, width: 240, segments: seg([0, 240]) });
  });
  test("the tab bar's offset follows the frame before the inset", () => {
    const tens = settingsWith({ viewport: { width: 500 }, tabBar: { layout: "scrollable", selectedScrollPosition: "leading", indicator: { inset: { leading: 30, trailing: 10 } } } });
    const state = stateOf(tens, { n: 10, index: 2, frames: tabsOf(Array(10).fill(100)) });
    const predicted = predictScroll(state, tens, { progress: 0 });
    near([frame(predicted.indicator), predicted.tabBar.offset], [{ x: 230, width: 60 }, 200]);
  });
});

describe("auto layout", () => {
  test("the layout the server chose decides the tab bar's offset", () => {
    const auto = settingsWith({ viewport: { width: 200 }, tabBar: { layout: "auto" } });
    const state = stateOf(auto, { n: 3, index: 2, frames: [[0, 80], [80, 80], [160, 72]], contentWidth: 232, effectiveLayout: "scrollable" });
    assert.equal(predictScroll(state, auto, { progress: 0 }).tabBar.offset, 32);
    const fixed = stateOf(auto, { n: 3, index: 2, frames: [[0, 66], [66, 66], [132, 68]], contentWidth: 200, effectiveLayout: "fixed" });
    assert.equal(predictScroll(fixed, auto, { progress: -0.5 }).tabBar.offset, 0);
  });
});

describe("a selected tab of its own width", () => {
  const wide = settingsWith({ tabBar: { layout: "scrollable", selectedTabWidth: 100 } });
  test("the tabs widen and narrow with the swipe", () => {
    const state = stateOf(wide, { n: 3, index: 0, frames: [[0, 100], [100, 50], [150, 50]], contentWidth: 200, baseWidths: [50, 50, 50] });
    const predicted = predictScroll(state, wide, { progress: 0.5 });
    near(predicted.tabs.map((t) => [t.x, t.width]), [[0, 75], [75, 75], [150, 50]]);
    near(frame(predicted.indicator), { x: 37.5, width: 75 });
    near(predicted.tabBar.contentWidth, 200);
  });
  test("right to left at rest", () => {
    const rtl = merge(wide, { layoutDirection: "rtl" });
    const state = stateOf(rtl, { n: 3, index: 0, frames: [[0, 100], [100, 50], [150, 50]], contentWidth: 200, baseWidths: [50, 50, 50] });
    near(predictScroll(state, rtl, { progress: 0 }).tabs.map((t) => t.x), [100, 50, 0]);
  });
  test("across a loop's seam", () => {
    const loop = merge(wide, { mode: "loop" });
    const state = stateOf(loop, { n: 3, index: 2, frames: [[0, 50], [50, 50], [100, 100]], contentWidth: 200, baseWidths: [50, 50, 50] });
    const predicted = predictScroll(state, loop, { progress: 0.5 });
    near(predicted.tabs.map((t) => [t.x, t.width]), [[0, 75], [75, 50], [125, 75]]);
    near(predicted.indicator, { x: 162.5, width: 75, segments: seg([162.5, 37.5], [0, 37.5]) });
  });
  test("the tab bar follows the widened frames", () => {
    const twenty = settingsWith({ viewport: { width: 400 }, tabBar: { layout: "scrollable", selectedTabWidth: 100 } });
    const widths = Array(20).fill(50).map((w, i) => (i === 3 ? 100 : w));
    const state = stateOf(twenty, { n: 20, index: 3, frames: tabsOf(widths), contentWidth: 1050, baseWidths: Array(20).fill(50) });
    assert.equal(predictScroll(state, twenty, { progress: 0 }).tabBar.offset, 0);
    assert.equal(predictScroll(state, twenty, { progress: 0.5 }).tabBar.offset, 25);
    const huge = settingsWith({ viewport: { width: 400 }, tabBar: { layout: "scrollable", selectedTabWidth: 500 } });
    const eleven = Array(11).fill(50).map((w, i) => (i === 6 ? 500 : w));
    const at6 = stateOf(huge, { n: 11, index: 6, frames: tabsOf(eleven), contentWidth: 1000, baseWidths: Array(11).fill(50) });
    assert.equal(predictScroll(at6, huge, { progress: 0 }).tabBar.offset, 350);
  });
});

describe("several pages per viewport", () => {
  const pagesOnly = (patch) => settingsWith(merge({ tabBar: { layout: "none" } }, patch));
  const visible = (list) => list.map(({ index, fraction }) => [index, fraction]);
  test("two pages a view with spacing (Swiper's slidesPerView)", () => {
    const two = pagesOnly({ viewport: { pagesPerView: 2, pageSpacing: 10 } });
    const state = stateOf(two, { n: 10, index: 0 });
    const rest = predictScroll(state, two, { progress: 0 });
    near([rest.pageOffset, visible(rest.visible)], [0, [[0, 1], [1, 1]]]);
    const half = predictScroll(state, two, { offset: 100 });
    near([half.transition.progress, half.pageOffset], [0.5, 100]);
    near(visible(half.visible), [[0, 0.4736842], [1, 1], [2, 0.4736842]]);
    const last = stateOf(two, { n: 10, index: 9 });
    const atLast = predictScroll(last, two, { progress: 0 });
    near([atLast.pageOffset, visible(atLast.visible)], [1600, [[9, 1], [8, 1]]]);
    for (const input of [{ progress: -0.5 }, { offset: 1500 }]) {
      const back = predictScroll(last, two, input);
      near([back.transition, back.pageOffset], [{ from: 9, to: 8, progress: 0.5, direction: "reverse" }, 1600]);
    }
  });
  test("fractional pages a view, where the last pages share one view", () => {
    const spread = pagesOnly({ viewport: { width: 400, pagesPerView: 2.5 } });
    const state = stateOf(spread, { n: 10, index: 7 });
    const predicted = predictScroll(state, spread, { offset: 1160 });
    near([predicted.transition.progress, predicted.pageOffset], [0.5, 1160]);
    near(visible(predicted.visible), [[7, 0.75], [8, 1], [9, 0.75]]);
  });
  test("beside pages resting at one offset, a point's drag is a point, however the stride rounds", () => {
    // k 3, g 10: D = 133.33…; positions 7, 8 and 9 rest at M = 7·D, which j·D − κ and M round apart.
    const three = pagesOnly({ viewport: { pagesPerView: 3, pageSpacing: 10 } });
    const D = (390 - 20) / 3 + 10;
    const forward = predictScroll(stateOf(three, { n: 10, index: 7 }), three, { offset: 7 * D + 1 });
    near([forward.transition.to, forward.transition.progress, forward.pageOffset], [8, 1 / D, 7 * D]);
    const back = predictScroll(stateOf(three, { n: 10, index: 8 }), three, { offset: 7 * D - 1 });
    near([back.transition.to, back.transition.progress], [7, 1 / D]);
  });
  test("centred with the neighbours peeking, also right to left", () => {
    const peek = pagesOnly({ viewport: { pagesPerView: 1.25, pageSpacing: 10, centered: true } });
    const first = predictScroll(stateOf(peek, { n: 3, index: 0 }), peek, { progress: 0 });
    near([first.pageOffset, visible(first.visible)], [-40, [[0, 1], [1, 0.0967742]]]);
    near(predictScroll(stateOf(peek, { n: 3, index: 1 }), peek, { progress: 0 }).pageOffset, 280);
    const rtl = merge(peek, { layoutDirection: "rtl" });
    near(predictScroll(stateOf(rtl, { n: 3, index: 0 }), rtl, { progress: 0 }).pageOffset, 600);
  });
  test("spacing only: a stride of a page and a gap", () => {
    const gap = pagesOnly({ viewport: { pageSpacing: 10 } });
    const half = predictScroll(stateOf(gap, { n: 3, index: 0 }), gap, { windowOffset: 600 });
    near([half.transition.progress, half.pageOffset], [0.5, 200]);
    near(visible(half.visible), [[0, 0.4871795], [1, 0.4871795]]);
    const rtl = merge(gap, { layoutDirection: "rtl" });
    const mirrored = stateOf(rtl, { n: 3, index: 0 });
    near(predictScroll(mirrored, rtl, { progress: 0 }).pageOffset, 800);
    const swiped = predictScroll(mirrored, rtl, { offset: 600 });
    near([swiped.transition.progress, swiped.pageOffset], [0.5, 600]);
  });
  test("past the end, the stride is the unit", () => {
    const pull = settingsWith({ viewport: { pageSpacing: 10 }, rubberBand: { style: "linear" }, tabBar: { indicator: { overscroll: "bounce" } } });
    const state = stateOf(pull, { n: 3, index: 2, frames: tabsOf([130, 130, 130]) });
    const predicted = predictScroll(state, pull, { progress: 0.2 });
    near([predicted.pageOffset, predicted.indicator.x], [880, 286]);
  });
  test("vertical, two pages a view", () => {
    const snap = pagesOnly({ orientation: "vertical", viewport: { pagesPerView: 2, pageSpacing: 4 } });
    const state = stateOf(snap, { n: 4, index: 1 });
    const rest = predictScroll(state, snap, { progress: 0 });
    near([rest.pageOffset, visible(rest.visible)], [424, [[1, 1], [2, 1]]]);
    const half = predictScroll(state, snap, { offset: 636 });
    near([half.transition.progress, half.pageOffset], [0.5, 636]);
    near(visible(half.visible), [[1, 0.4952381], [2, 1], [3, 0.4952381]]);
    const rtl = merge(snap, { layoutDirection: "rtl" });
    near(predictScroll(stateOf(rtl, { n: 4, index: 1 }), rtl, { offset: 636 }).pageOffset, 636);
  });
});
