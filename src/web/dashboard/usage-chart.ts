/**
 * The overview's 30-day usage chart, drawn on the server as inline SVG (no script, no inline style: colours come
 * from the stylesheet's classes, so both themes apply). One bar per UTC day, today marked; the plan's daily limit
 * is a dashed line when it is within the chart's scale. Screen readers get a summary and the table beside it.
 */
import type { DayCount } from '../../services/accounts/usage-service.js';
import { html, type SafeHtml } from '../shell/html.js';

const WIDTH = 600;
const HEIGHT = 180;
const LEFT = 52;
const BOTTOM = 22;
const TOP = 8;

/** Round numbers for the axis: 1, 2, 5, 10, 20, 50, … at or above n. */
function niceCeiling(n: number): number {
  if (n <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * power >= n) return step * power;
  return 10 * power;
}

const short = (day: string) => day.slice(5);

export function usageChart(days: readonly DayCount[], limit: number): SafeHtml {
  const max = Math.max(...days.map((d) => d.count), 0);
  // The limit line shows when it is near the bars; a far-away limit would flatten them.
  const showLimit = limit > 0 && limit <= Math.max(max, 1) * 2;
  const scale = niceCeiling(Math.max(max, showLimit ? limit : 0, 1));
  const plotW = WIDTH - LEFT - 4;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = plotW / days.length;
  const y = (n: number) => TOP + plotH - (n / scale) * plotH;
  const total = days.reduce((a, d) => a + d.count, 0);
  const summary = `Requests per UTC day over the last ${days.length} days: ${total.toLocaleString('en-US')} in total, at most ${max.toLocaleString('en-US')} in one day; the daily limit is ${limit.toLocaleString('en-US')}.`;
  return html`<figure class="usage-chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="usage-chart-title" preserveAspectRatio="xMidYMid meet" focusable="false">
<title id="usage-chart-title">${summary}</title>
<line class="axis" x1="${LEFT}" y1="${TOP + plotH}" x2="${WIDTH - 4}" y2="${TOP + plotH}"/>
<line class="grid-line" x1="${LEFT}" y1="${TOP}" x2="${WIDTH - 4}" y2="${TOP}"/>
<text class="tick" x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${scale.toLocaleString('en-US')}</text>
<text class="tick" x="${LEFT - 6}" y="${TOP + plotH}" text-anchor="end">0</text>
${days.map((d, i) => {
  const h = (d.count / scale) * plotH;
  const x = LEFT + i * slot + slot * 0.15;
  return html`<rect class="bar${i === days.length - 1 ? ' today' : ''}" x="${x.toFixed(1)}" y="${(TOP + plotH - h).toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${Math.max(h, d.count > 0 ? 1 : 0).toFixed(1)}"><title>${d.day}: ${d.count.toLocaleString('en-US')} requests</title></rect>`;
})}
${showLimit && html`<line class="limit" x1="${LEFT}" y1="${y(limit).toFixed(1)}" x2="${WIDTH - 4}" y2="${y(limit).toFixed(1)}"/><text class="tick limit-label" x="${WIDTH - 6}" y="${(y(limit) - 4).toFixed(1)}" text-anchor="end">limit ${limit.toLocaleString('en-US')}</text>`}
${([[0, 'start'], [Math.floor(days.length / 2), 'middle'], [days.length - 1, 'end']] as const).map(([i, anchor]) => {
  const x = anchor === 'start' ? LEFT + i * slot : anchor === 'end' ? LEFT + (i + 1) * slot : LEFT + i * slot + slot / 2;
  return html`<text class="tick" x="${x.toFixed(1)}" y="${HEIGHT - 6}" text-anchor="${anchor}">${short(days[i]!.day)}</text>`;
})}
</svg>
<figcaption>${summary}</figcaption>
</figure>`;
}
