/**
 * Live regions, declared by the server's markup (docs/explorer.md, "Live updates"):
 *   <meta name="outpoint-realtime" content="APP_KEY">               realtime is wanted on this page
 *   <div id="X" data-live-on="CHANNEL:EVENT …" data-live-src="URL">  on any of those events, fetch URL (an HTML
 *                                                                     fragment rendered by the server, same id)
 *                                                                     and put it in place of the element
 *        data-live-min-ms="N"                                        (optional) refresh at most every N ms
 *        data-live-delay-ms="N"                                      (optional) refresh N ms after the event
 *   <span data-live-field="CHANNEL:EVENT:FIELD">                     set to the event's value[FIELD]
 * Rows with a data-key not seen before a replacement are highlighted. The server renders (and escapes) every
 * fragment, so the page looks the same as after a reload. Events only trigger reads: nothing is polled.
 * After a lost connection the missed events are read from the catch-up feed (/api/v2/events, docs/realtime.md) and
 * handled as if they had arrived live, so only the regions they concern refresh; a channel the feed cannot answer
 * for (no event seen yet, a ticker, a cursor too old) refreshes its regions once instead.
 */
import Pusher from 'pusher-js';
import { retryDelay } from './retry-delay.js';

/** Events arriving within this window cause one fetch per region. */
const COALESCE_MS = 150;

interface RegionState {
  running: boolean;
  again: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  lastRun: number;
  /** Refused refreshes in a row (429, 503): each waits longer before trying again. */
  failures: number;
}

export function startLive(root: Document): void {
  const key = root.querySelector<HTMLMetaElement>('meta[name="outpoint-realtime"]')?.content;
  if (!key) return;
  const wanted = new Set<string>();
  for (const el of root.querySelectorAll<HTMLElement>('[data-live-on]')) for (const t of words(el.dataset['liveOn'])) wanted.add(t);
  for (const el of root.querySelectorAll<HTMLElement>('[data-live-field]')) wanted.add(el.dataset['liveField']!.split(':').slice(0, 2).join(':'));
  if (wanted.size === 0) return;

  const pusher = new Pusher(key, {
    cluster: 'outpoint',
    wsHost: location.hostname,
    wsPort: Number(location.port || 80),
    wssPort: Number(location.port || 443),
    forceTLS: location.protocol === 'https:',
    enabledTransports: ['ws', 'wss'],
    disableStats: true,
  });
  const states = new Map<string, RegionState>();
  const channels = new Map<string, Set<string>>();
  for (const topic of wanted) {
    const [channel = '', event = ''] = topic.split(':');
    channels.set(channel, (channels.get(channel) ?? new Set()).add(event));
  }
  // <html data-live="ready"> once every channel is subscribed: from then on no event is missed (tests wait for it).
  let pending = channels.size;
  for (const [name, events] of channels) {
    const channel = pusher.subscribe(name);
    channel.bind('pusher:subscription_succeeded', () => {
      if (--pending === 0) root.documentElement.dataset['live'] = 'ready';
    });
    for (const event of events) {
      channel.bind(event, (data: unknown) => {
        const id = eventId(data);
        if (id !== null) {
          // A live event the catch-up already handled (pusher-js resubscribes while the feed is read).
          if (id <= (cursors.get(name) ?? 0)) return;
          cursors.set(name, id);
        }
        onEvent(root, states, `${name}:${event}`, data);
      });
    }
  }
  let connectedBefore = false;
  pusher.connection.bind('connected', () => {
    if (connectedBefore) for (const [name, events] of channels) void catchUp(root, states, name, events);
    connectedBefore = true;
  });
}

/** The last event_id seen per channel: where the catch-up feed starts after a reconnect. */
const cursors = new Map<string, number>();

function eventId(data: unknown): number | null {
  const id = (data as { event_id?: unknown } | null)?.event_id;
  return typeof id === 'number' ? id : null;
}

/** Most feed pages read after one reconnect; past that, refreshing the regions is cheaper. */
const MAX_CATCH_UP_PAGES = 5;

async function catchUp(root: Document, states: Map<string, RegionState>, name: string, events: ReadonlySet<string>): Promise<void> {
  const network = /^(?:blockchain_update_([a-z]+)$|address_([a-z]+)_)/.exec(name);
  let after = cursors.get(name);
  if (network && after !== undefined) {
    try {
      for (let page = 0; page < MAX_CATCH_UP_PAGES; page++) {
        const query = new URLSearchParams({ channel: name, after: String(after) });
        const response = await fetch(`/api/v2/events/${(network[1] ?? network[2])!.toUpperCase()}?${query.toString()}`);
        if (!response.ok) break;
        const { data } = (await response.json()) as { data: { events: { event: string; event_id: number; data: unknown }[]; cursor: number; has_more: boolean } };
        for (const e of data.events) {
          if (e.event_id <= (cursors.get(name) ?? 0)) continue;
          cursors.set(name, e.event_id);
          if (events.has(e.event)) onEvent(root, states, `${name}:${e.event}`, e.data);
        }
        after = data.cursor;
        if (!data.has_more) return;
      }
    } catch {
      // Unreachable feed: refresh below.
    }
  }
  for (const el of root.querySelectorAll<HTMLElement>('[data-live-on][data-live-src]')) {
    if (el.id && words(el.dataset['liveOn']).some((t) => t.startsWith(`${name}:`))) schedule(root, states, el.id);
  }
}

function words(text: string | undefined): string[] {
  return (text ?? '').split(/\s+/).filter(Boolean);
}

function onEvent(root: Document, states: Map<string, RegionState>, topic: string, data: unknown): void {
  const value = (data as { value?: Record<string, unknown> } | null)?.value ?? {};
  for (const el of root.querySelectorAll<HTMLElement>('[data-live-field]')) {
    const field = el.dataset['liveField']!;
    if (!field.startsWith(`${topic}:`)) continue;
    const text = value[field.slice(topic.length + 1)];
    if (typeof text === 'string' || typeof text === 'number') el.textContent = String(text);
  }
  for (const el of root.querySelectorAll<HTMLElement>('[data-live-on][data-live-src]')) {
    if (el.id && words(el.dataset['liveOn']).includes(topic)) schedule(root, states, el.id);
  }
}

function schedule(root: Document, states: Map<string, RegionState>, id: string): void {
  let state = states.get(id);
  if (!state) states.set(id, (state = { running: false, again: false, timer: null, lastRun: 0, failures: 0 }));
  if (state.running) {
    state.again = true;
    return;
  }
  if (state.timer) return;
  const current = state;
  const region = root.getElementById(id);
  const minInterval = Number(region?.dataset['liveMinMs'] ?? 0) || 0;
  const delay = Number(region?.dataset['liveDelayMs'] ?? 0) || 0;
  const wait = Math.max(COALESCE_MS, delay, current.lastRun + minInterval - Date.now());
  current.timer = setTimeout(() => {
    current.timer = null;
    current.lastRun = Date.now();
    void refresh(root, states, id, current);
  }, wait);
}

async function refresh(root: Document, states: Map<string, RegionState>, id: string, state: RegionState): Promise<void> {
  const el = root.getElementById(id);
  const src = el?.dataset['liveSrc'];
  if (!el || !src) return;
  state.running = true;
  let retryIn: number | null = null;
  try {
    const response = await fetch(src, { headers: { accept: 'text/html' }, credentials: 'same-origin' });
    if (response.ok) {
      state.failures = 0;
      replace(root, el, await response.text());
    } else if (response.status === 429 || response.status === 503) {
      // Refused for now: the region must not stay stale, so try again later, never giving up.
      retryIn = retryDelay(++state.failures, response.headers.get('retry-after'));
    }
  } catch {
    // The network failed: a lost connection refreshes every region when it is back (startLive).
  } finally {
    state.running = false;
    if (retryIn !== null) {
      state.again = false;
      state.timer = setTimeout(() => {
        state.timer = null;
        state.lastRun = Date.now();
        void refresh(root, states, id, state);
      }, retryIn);
    } else if (state.again) {
      state.again = false;
      schedule(root, states, id);
    }
  }
}

function replace(root: Document, el: HTMLElement, markup: string): void {
  const template = root.createElement('template');
  template.innerHTML = markup;
  const next = template.content.firstElementChild;
  if (!(next instanceof HTMLElement) || next.id !== el.id) return;
  const known = new Set([...el.querySelectorAll<HTMLElement>('[data-key]')].map((row) => row.dataset['key']));
  const focused = el.contains(root.activeElement) ? root.activeElement?.id : undefined;
  el.replaceWith(next);
  for (const row of next.querySelectorAll<HTMLElement>('[data-key]')) if (!known.has(row.dataset['key'])) row.classList.add('flash');
  for (const button of next.querySelectorAll<HTMLButtonElement>('button[data-copy]')) button.hidden = false;
  if (focused) root.getElementById(focused)?.focus();
}
