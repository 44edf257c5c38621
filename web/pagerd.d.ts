// Types of pagerd.js: the documents pagerd sends and takes, and the module's API. Written by
// hand from the server's documents; web/test/types.mjs checks that every member of real state
// and settings documents is declared here (and every member declared required is sent).
// Style kept for that check: one `export interface` per object shape, one member per line.

// MARK: - Documents

/** An RFC 9457 problem document: every refusal of pagerd. */
export interface Problem {
  type: string;
  /** The HTTP status phrase. */
  title: string;
  status: number;
  detail: string;
  /** Stable: `invalid_request`, `version_mismatch`, `session_not_found`, … */
  code: string;
  /** The request member at fault, such as `pages[3].id`. */
  field?: string;
}

export type Mode = "bounded" | "loop";
export type LayoutDirection = "ltr" | "rtl";
export type Orientation = "horizontal" | "vertical";
export type SwipeLock = "both" | "forward" | "reverse" | "none";
export type Direction = "forward" | "reverse";
export type Edge = "start" | "end";
export type TabLayout = "fixed" | "scrollable" | "none" | "auto";
export type IndicatorStyle = "linear" | "elastic" | "fade";
export type IndicatorTracking = "continuous" | "halfway" | "settled";
export type IndicatorOverscroll = "none" | "bounce" | "compress";
export type RubberBandStyle = "none" | "linear" | "resistance";
export type Alignment = "leading" | "center" | "trailing";
/** A colour: `#RRGGBB` or `#RRGGBBAA` in requests; pagerd always answers `#RRGGBBAA`, upper case. */
export type Colour = string;
/** A tab's badge: a text of 1–32 characters or an integer 0…1e9, echoed as given. */
export type Badge = string | number;
/** Any JSON object a client keeps with a page; pagerd never reads it. */
export type Content = Record<string, unknown>;

/** A screen pushed on a page's navigation stack. */
export interface Screen {
  id: string;
  title?: string;
  content?: Content;
}

/** A page's tab decoration. */
export interface TabDecoration {
  icon?: string;
  badge?: Badge;
}

/** A page as the server holds it (`page`, `GET …/pages`). */
export interface Page {
  id: string;
  title: string;
  tabWidth?: number;
  tab?: TabDecoration;
  accessibilityLabel?: string;
  accessibilityHint?: string;
  content: Content;
  stack: Screen[];
}

/** A page as a client sends it (create, insert, replace). */
export interface PageInput {
  id: string;
  title: string;
  tabWidth?: number;
  tab?: TabDecoration;
  accessibilityLabel?: string;
  accessibilityHint?: string;
  content?: Content;
  stack?: Screen[];
}

/** A page named by index, id and title (`previous`, `next`). */
export interface PageSummary {
  index: number;
  id: string;
  title: string;
}

/** A neighbour returned with the state, with its content. */
export interface PreloadedPage {
  index: number;
  id: string;
  title: string;
  content: Content;
}

/** An action a client offers: the trailing action, or an empty state's button. */
export interface Action {
  id: string;
  title: string;
}

/** What to show when there are no pages. */
export interface EmptyState {
  title: string;
  action: Action | null;
}

/** The viewport: W and H, and, only when pages share the viewport, how. */
export interface Viewport {
  width: number;
  height: number;
  /** Pages per viewport (1…100); only when a page setting is not at its default. */
  pagesPerView?: number;
  pageSpacing?: number;
  centered?: boolean;
  /** P, a page's extent; only when a page setting is not at its default. */
  pageSize?: number;
}

/** A page on screen and how much of it shows. */
export interface VisiblePage {
  index: number;
  id: string;
  fraction: number;
}

/** A horizontal frame in points. */
export interface Frame {
  x: number;
  width: number;
}

/** A tab's accessibility descriptor. */
export interface TabAccessibility {
  label: string;
  hint: string | null;
  /** For example "Tab 2 of 3". */
  value: string;
  selected: boolean;
  traits: ("button" | "selected")[];
  actions: "activate"[];
}

/** One tab of the strip. */
export interface Tab {
  index: number;
  id: string;
  title: string;
  x: number;
  width: number;
  /** The width the tab has when not selected; only while `selectedTabWidth` applies. */
  baseWidth?: number;
  /** How strongly the tab is highlighted, 0…1. */
  selection: number;
  selected: boolean;
  /** `#RRGGBBAA`; only when `tabBar.title` is set. */
  color?: Colour;
  /** Only when `tabBar.title` is set. */
  scale?: number;
  icon: string | null;
  badge: Badge | null;
  accessibility: TabAccessibility;
}

/** The indicator: its unwrapped frame and the pieces of it inside the bar. */
export interface Indicator {
  x: number;
  width: number;
  height: number;
  /** 1, except while a fade indicator crosses between tabs. */
  alpha: number;
  /** The visible pieces: one, or two while it wraps across a loop's seam; none when nothing shows. */
  segments: Frame[];
}

/** The tab bar. */
export interface TabBar {
  layout: TabLayout;
  /** `fixed` or `scrollable`; only while `layout` is `auto`. */
  effectiveLayout?: "fixed" | "scrollable";
  contentWidth: number;
  offset: number;
}

/** A swipe in flight: from the current page toward a neighbour. */
export interface Transition {
  from: number;
  to: number;
  /** |p|, 0…1. */
  progress: number;
  direction: Direction;
}

/** A swipe past an end with a rubber band. */
export interface Overscroll {
  edge: Edge;
  /** |p|, (0, 1]. */
  progress: number;
}

/** One step of a jump's animation, at rest on its page. */
export interface Keyframe {
  index: number;
  pageOffset: number;
  indicator: Indicator | null;
  tabBarOffset: number;
  /** True only on the first keyframe of a capped jump: reach it without animation. */
  jump: boolean;
}

/** How a release by velocity ended, in the answer and the event of `transition end {velocity}`. */
export interface Settle {
  completed: boolean;
  /** The signed progress the decision was made at. */
  progress: number;
  velocity: number;
}

/** The pager's accessibility descriptor. */
export interface PagerAccessibility {
  value: string | null;
  traits: "adjustable"[];
  actions: ("increment" | "decrement")[];
  platformActions: ("pageLeft" | "pageRight" | "pageUp" | "pageDown")[];
}

/** The accessibility members of the state. */
export interface Accessibility {
  pager: PagerAccessibility;
  /** "off" while auto-advance runs unpaused, else "polite". */
  liveRegion: "off" | "polite";
}

/** The auto-advance setting and where its timer stands. */
export interface AutoAdvanceState {
  enabled: boolean;
  /** Milliseconds between ticks. */
  interval: number;
  direction: Direction;
  atEnd: "rewind" | "stop";
  onInteraction: "pause" | "stop";
  /** `enabled` and at least two pages. */
  running: boolean;
  paused: boolean;
  pausedBy: "interaction" | "control" | null;
  /** Server Unix time (ms) of the next tick; only while running unpaused. */
  dueAt: number | null;
  /** Milliseconds left when the pause ends; only while paused. */
  remaining: number | null;
}

/** An access token minted by pagerd. */
export interface MintedToken {
  token: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** A token minted with `POST /v1/sessions/{id}/tokens`. */
export interface MintedSessionToken {
  token: string;
  scope: "watch" | "drive" | "control";
  sessionId: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** The tokens pagerd mints for a session it creates, when it has a signing key. */
export interface SessionAccess {
  control: MintedToken;
  watch: MintedToken;
}

export type EventKind =
  | "state"
  | "pageChanged"
  | "transition"
  | "pagesChanged"
  | "stackChanged"
  | "settingsChanged"
  | "actionRequested"
  | "autoAdvanceChanged";

/** What made a change: a request, an auto-advance tick, an idle session's eviction, an abandoned swipe. */
export type Cause = "request" | "autoAdvance" | "idle" | "timeout";

/**
 * The state document of a session: every answer of a command (plus what the command reported)
 * and every event's data (plus its `cause`).
 */
export interface State {
  id: string;
  version: number;
  /** The version of the change that last set the settings. */
  settingsVersion: number;
  mode: Mode;
  layoutDirection: LayoutDirection;
  orientation: Orientation;
  swipe: SwipeLock;
  pageCount: number;
  /** null when there are no pages. */
  index: number | null;
  empty: boolean;
  page: Page | null;
  canGoPrevious: boolean;
  canGoNext: boolean;
  previous: PageSummary | null;
  next: PageSummary | null;
  /** The pages within `preload` steps on each side, nearest first. */
  preload: PreloadedPage[];
  /** Only while the current page of a bounded pager is its last. */
  trailingAction: Action | null;
  /** Only while there are no pages. */
  emptyState: EmptyState | null;
  viewport: Viewport;
  /** The scroll offset along the page axis (mirrored right to left when horizontal). */
  pageOffset: number;
  visible: VisiblePage[];
  tabs: Tab[];
  accessibility: Accessibility;
  autoAdvance: AutoAdvanceState;
  indicator: Indicator | null;
  tabBar: TabBar;
  overscroll: Overscroll | null;
  transition: Transition | null;
  /** next, previous, select and transition end (and a tick's event): whether the index changed. */
  moved?: boolean;
  /** The end of a bounded pager a move or a scroll met. */
  edge?: Edge;
  /** select (and a tick's event): which way the page went. */
  direction?: Direction;
  /** A scroll toward a locked way: that way; nothing changed. */
  blocked?: Direction;
  /** The trailing action asked for: next at the end, or the completed release of a pull past it. */
  actionRequested?: Action;
  /** next, previous and select: what a screen reader says. */
  announcement?: string;
  /** select: one per step kept by `animation`. */
  keyframes?: Keyframe[];
  /** transition end with `velocity`: how it ended. */
  settle?: Settle;
  /** On events after the first: what made the change. */
  cause?: Cause;
  /** A create by pagerd with a signing key: tokens for the new session. */
  access?: SessionAccess;
}

/** The settings of a session (`GET …/settings`): every setting, defaults filled in. */
export interface Settings {
  mode: Mode;
  viewport: ViewportSettings;
  layoutDirection: LayoutDirection;
  orientation: Orientation;
  swipe: SwipeLock;
  rubberBand: RubberBandSettings;
  autoAdvance: AutoAdvanceSettings;
  accessibilityText: AccessibilityText;
  tabBar: TabBarSettings;
  preload: number;
  trailingAction: Action | null;
  emptyState: EmptyState | null;
  /** How a release by velocity decides. */
  release: ReleaseSettings;
  /** Milliseconds a swipe may stay unchanged before pagerd cancels it; 0 = never. */
  dragTimeout: number;
}

export interface ViewportSettings {
  width: number;
  height: number;
  pagesPerView: number;
  pageSpacing: number;
  centered: boolean;
}

export interface RubberBandSettings {
  style: RubberBandStyle;
  /** The exponent of `resistance`, (0, 1]. */
  ratio: number;
}

export interface AutoAdvanceSettings {
  enabled: boolean;
  interval: number;
  direction: Direction;
  atEnd: "rewind" | "stop";
  onInteraction: "pause" | "stop";
}

export interface AccessibilityText {
  tabValueFormat: string;
  pageValueFormat: string;
  firstPageMessage: string;
  lastPageMessage: string;
}

export interface TabBarSettings {
  layout: TabLayout;
  spacing: number;
  inset: number;
  minTabWidth: number;
  tabPadding: number;
  charWidth: number;
  indicator: IndicatorSettings;
  title: TitleSettings | null;
  alignment: Alignment;
  selectedScrollPosition: Alignment;
  maxTabWidth: number | null;
  selectedTabWidth: number | null;
}

export interface IndicatorSettings {
  style: IndicatorStyle;
  height: number;
  overscroll: IndicatorOverscroll;
  tracking: IndicatorTracking;
  progressive: boolean;
  inset: IndicatorInset;
}

export interface IndicatorInset {
  leading: number;
  trailing: number;
  firstLeading: number;
  lastTrailing: number;
}

export interface TitleSettings {
  color: Colour;
  selectedColor: Colour;
  scale: number;
  selectedScale: number;
}

export interface ReleaseSettings {
  /** Pages per second, (0, 100]. */
  flickVelocity: number;
}

/** Any part of the settings, as a create or a PATCH (RFC 7396 merge patch) sends them. */
export type SettingsPatch = {
  [K in keyof Settings]?: Settings[K] extends object | null ? DeepPartial<Settings[K]> | null : Settings[K];
};
type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;

/** A create: a template and/or pages, with any settings. */
export type SessionDefinition = SettingsPatch & {
  template?: string;
  pages?: PageInput[];
  initialPage?: number | string;
};

/** A template as `GET /v1/templates` lists it. */
export interface TemplateSummary {
  name: string;
  description: string;
  pageCount: number;
  mode: Mode;
  layout: TabLayout;
  catalog: string[];
}

// MARK: - Prediction

/** A scroll input: exactly one of the three. */
export type ScrollInput = { progress: number } | { offset: number } | { windowOffset: number };

/** A tab's members that a scroll changes. */
export interface ScrollTab {
  x: number;
  width: number;
  selection: number;
  selected: boolean;
  color?: Colour;
  scale?: number;
}

/** The members of the tab bar that a scroll changes. */
export interface ScrollTabBar {
  contentWidth: number;
  offset: number;
}

/** The scroll members of pagerd's answer to a scroll, as predictScroll returns them. */
export interface ScrollMembers {
  transition: Transition | null;
  overscroll: Overscroll | null;
  pageOffset: number;
  visible: VisiblePage[];
  indicator: Indicator | null;
  tabBar: ScrollTabBar;
  /** Every tab, in order. */
  tabs: ScrollTab[];
  edge?: Edge;
  blocked?: Direction;
}

/** What pagerd will answer to a scroll with `input` from `state`; throws PagerdError as pagerd refuses. */
export function predictScroll(state: State, settings: Settings, input: ScrollInput): ScrollMembers;
/** The signed progress pagerd derives from `input` (before clamping to [−1, 1]). */
export function scrollProgress(state: State, settings: Settings, input: ScrollInput): number;
/** Whether a release at `velocity` (pages per second) completes the swipe in flight; null with none. */
export function predictRelease(state: State, settings: Settings, velocity: number): boolean | null;
/** `state` with the scroll members in place of its own (a new object). */
export function withScroll(state: State, members: ScrollMembers): State;
/** Whether the server releases swipes by velocity (its settings document has `release`). */
export function releasesByVelocity(settings: Settings | null): boolean;

// MARK: - The client

/** An answer of pagerd. */
export interface Answer<T> {
  status: number;
  etag: string | null;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  /** Cancels the request: it then fails with a PagerdError whose code is "aborted". */
  signal?: AbortSignal;
}

export interface CommandOptions extends RequestOptions {
  /** Send If-Match with the version held (default true): a change made meanwhile is refused. */
  ifMatch?: boolean;
}

export interface SelectOptions {
  path?: "direct" | "shortest";
  animation?: "stepped" | "direct" | "capped";
}

export type AutoAdvanceAction = "start" | "stop" | "pause" | "resume";

/**
 * Every failure: a problem document (`code` is its code), no answer ("network_error", the
 * TypeError as `cause`; or an event stream silent past `silenceTimeout`), an answer that is not
 * pagerd's ("unexpected_response", with its `status`), a cancelled call ("aborted"), a refusal
 * predicted by predictScroll; an event stream whose token expired with no new one to be had
 * ("token_expired", status 401), and an offset given to Drag.move() before the settings were
 * read ("settings_not_loaded").
 */
export class PagerdError extends Error {
  constructor(init: {
    status?: number;
    code: string;
    detail: string;
    field?: string;
    problem?: Problem;
    cause?: unknown;
    state?: State;
    retryAfter?: number;
  });
  name: "PagerdError";
  /** The HTTP status; 0 when there was no answer. */
  status: number;
  code: string;
  detail: string;
  field: string | undefined;
  problem: Problem | undefined;
  cause?: unknown;
  /** On version_mismatch: the session's current state. */
  state: State | undefined;
  /** Seconds to wait before asking again, from the answer's Retry-After (503s send it). */
  retryAfter: number | undefined;
}

export interface ClientOptions {
  /** The server's origin, such as "https://pager.example.com"; "" for the page's own. */
  baseURL?: string;
  /** The bearer token, when the server requires one: its authToken or an access token. */
  token?: string;
  /**
   * Answers a new token when an event stream's access token expired (an `expired` event, or a
   * reconnection refused 401), once until the stream opens again; the stream resumes from the
   * version reached. One that got no answer (a fetch's TypeError, or a network_error) is an
   * "error" event and is asked again after a wait (250 ms doubling to 5 s); one that fails
   * otherwise, or a new token refused too, stops the stream.
   */
  refreshToken?: () => Promise<string> | string;
  /** The fetch to use (the global one by default). */
  fetch?: typeof fetch;
  /**
   * Milliseconds an event stream's connection may stay silent (no event, no heartbeat) before
   * it is given up, reported as a network_error "error" event, and opened again from the version
   * reached. Default 45,000: three of pagerd's 15 s heartbeats (raise it with `eventHeartbeat`).
   * At most 2,147,483,647; Infinity never gives up.
   */
  silenceTimeout?: number;
}

export class PagerdClient {
  constructor(options?: ClientOptions);
  baseURL: string;
  token: string | undefined;
  refreshToken: (() => Promise<string> | string) | undefined;
  fetch: typeof fetch;
  silenceTimeout: number;
  headers(extra?: Record<string, string>): Record<string, string>;
  /** One request; an answer without a body is a failure unless `empty` is set. */
  request(method: string, path: string, options?: RequestOptions & { body?: unknown; headers?: Record<string, string>; empty?: boolean }): Promise<Answer<any>>;
  create(definition: SessionDefinition, options?: RequestOptions): Promise<Session>;
  open(id: string, options?: RequestOptions): Promise<Session>;
  templates(options?: RequestOptions): Promise<TemplateSummary[]>;
  mintToken(id: string, scope: "watch" | "drive" | "control", options?: { ttl?: number } & RequestOptions): Promise<MintedSessionToken>;
}

/** An event of a Session; `detail` depends on its type (SessionEventMap). */
export class SessionEvent<T = unknown> extends Event {
  constructor(type: string, detail: T);
  detail: T;
}

export interface ChangeDetail {
  state: State;
  /** The event's kind, or "response" for a command's answer. */
  kind: EventKind | "response";
  cause: Cause;
}

export interface SessionEventMap {
  change: SessionEvent<ChangeDetail>;
  settings: SessionEvent<{ settings: Settings }>;
  /** The event stream is connected (again): changes from now on arrive. */
  open: SessionEvent<{}>;
  deleted: SessionEvent<{ cause: Cause }>;
  /** The event stream gave up (400, 401, 403, 404, 405, 410, or an expired token); `following` is false. */
  stopped: SessionEvent<{ error: PagerdError }>;
  /** The stream failed and will be opened again; or a swipe's report or a settings read failed. */
  error: SessionEvent<{ error: PagerdError }>;
}

export class Session extends EventTarget {
  constructor(client: PagerdClient, state: State);
  client: PagerdClient;
  id: string;
  /** The newest state seen, from an answer or an event. */
  state: State;
  /** The settings, once loaded; kept current afterwards. */
  settings: Settings | null;
  following: boolean;
  /** Tokens pagerd minted when it created the session (null otherwise). */
  access: SessionAccess | null;
  readonly version: number;
  readonly settingsCurrent: boolean;
  addEventListener<K extends keyof SessionEventMap>(type: K, listener: (event: SessionEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof SessionEventMap>(type: K, listener: (event: SessionEventMap[K]) => void, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
  accept(next: State, kind?: EventKind | "response", cause?: Cause): boolean;
  path(suffix?: string): string;
  command(method: string, suffix: string, body?: unknown, options?: CommandOptions): Promise<State>;
  refresh(options?: RequestOptions): Promise<State>;
  loadSettings(options?: RequestOptions): Promise<Settings>;
  currentSettings(options?: RequestOptions): Promise<Settings>;
  /**
   * Reads the settings again in the background (one read at a time; a failure is an "error"
   * event). `signal` cancels the read this call starts, or only this call's wait for one under
   * way: the promise then rejects with a PagerdError whose code is "aborted".
   */
  refreshSettings(options?: RequestOptions): Promise<void>;
  predict(input: ScrollInput): ScrollMembers;
  next(options?: CommandOptions): Promise<State>;
  previous(options?: CommandOptions): Promise<State>;
  select(target: number | string, options?: SelectOptions & CommandOptions): Promise<State>;
  scroll(input: ScrollInput, options?: CommandOptions): Promise<State>;
  begin(to: number, options?: CommandOptions): Promise<State>;
  end(how: boolean | { velocity: number }, options?: CommandOptions): Promise<State>;
  insert(page: PageInput, options?: { at?: number; then?: "stay" | "select" } & CommandOptions): Promise<State>;
  patch(settings: SettingsPatch, options?: CommandOptions): Promise<State>;
  autoAdvance(action: AutoAdvanceAction, options?: CommandOptions): Promise<State>;
  push(pageId: string, screen: Screen, options?: CommandOptions): Promise<State>;
  pop(pageId: string, options?: { toRoot?: boolean } & CommandOptions): Promise<State>;
  pages(options?: RequestOptions): Promise<Page[]>;
  delete(options?: CommandOptions): Promise<void>;
  mintToken(scope: "watch" | "drive" | "control", options?: { ttl?: number } & RequestOptions): Promise<MintedSessionToken>;
  /** The event stream's URL for EventSource: the token in ?access_token=, the version in ?lastEventId=. */
  eventSourceURL(options?: { token?: string; lastEventId?: number }): string;
  follow(options?: RequestOptions): void;
  unfollow(): void;
  drag(options: DragOptions): Drag;
}

export interface DragOptions {
  /** Draws one frame: the state as pagerd will answer it for this progress. */
  draw: (view: State, members: ScrollMembers, progress: number) => void;
  /** Reports per second, at most (default 10). */
  mirrorRate?: number;
  /** The clock, in milliseconds (default performance.now). */
  now?: () => number;
  /** Schedules a frame (default requestAnimationFrame, or a 16 ms timer without one). */
  requestFrame?: (callback: (time: number) => void) => unknown;
  cancelFrame?: (handle: any) => void;
  /**
   * A failed report (default: an "error" event of the session), and the conflict of a swipe
   * another client ended or turned; not called for an aborted report, nor for a conflict the
   * drag resolves itself (a report or an end sent again at the server's version while its swipe
   * is still in flight). A failed end rejects release() or cancel() instead.
   */
  onError?: (error: PagerdError) => void;
  /**
   * Goes with every request of the drag (the settings read, the reports, the end). Aborting it
   * abandons the drag where it is: no more frames or reports, and release() and cancel() reject
   * with a PagerdError whose code is "aborted".
   */
  signal?: AbortSignal;
}

export class Drag {
  constructor(session: Session, options: DragOptions);
  session: Session;
  /** The latest progress. */
  progress: number;
  /** Requests sent: reports and the end. */
  requests: number;
  /** What the last frame drew. */
  drawn: ScrollMembers | null;
  /**
   * How the release ends, as predicted; set by release() and cancel() (again when the release
   * had to wait for the settings, the drag having begun before they were read).
   */
  settle: Settle | null;
  /** The drag's signal (DragOptions.signal), or null. */
  signal: AbortSignal | null;
  move(input: number | ScrollInput): void;
  velocity(): number;
  /**
   * Ends the swipe by its velocity (`transition end {velocity}`). After a conflict (412) the end
   * is sent again (up to three times) while the server's state still has this swipe in flight; a
   * swipe another client ended or turned is reported to `onError`, and the promise resolves with
   * the server's state. Rejects with the PagerdError of an end that failed otherwise (no answer,
   * the session gone, a token refused, a 5xx): the swipe then stays in flight on the server
   * until an end or `dragTimeout`. `signal` (with the drag's) cancels its requests and its waits
   * for a report in flight: it then rejects at once with a PagerdError whose code is "aborted".
   */
  release(options?: RequestOptions): Promise<State>;
  /** Abandons the swipe: the page goes back. `signal` as for release(). */
  cancel(options?: RequestOptions): Promise<State>;
}
