import { relativeTime } from '../shared/relative-time.js';

const REFRESH_MS = 15_000;

/** Rewrites every `[data-rel]` (a UNIX time) as "… ago" now and every 15 s, also in regions replaced later. */
export function startRelativeTimes(root: Document): void {
  const update = (): void => {
    const now = Math.floor(Date.now() / 1000);
    for (const el of root.querySelectorAll<HTMLElement>('[data-rel]')) {
      const time = Number(el.dataset['rel']);
      if (Number.isFinite(time)) el.textContent = relativeTime(time, now);
    }
  };
  update();
  setInterval(update, REFRESH_MS);
}
