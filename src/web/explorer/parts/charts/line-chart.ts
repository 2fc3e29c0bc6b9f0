/**
 * Time series as server-drawn SVG lines, one panel per series stacked on a shared time axis (the mempool's last 24 h,
 * an address's balance): no chart library and no script; colours come from the stylesheet's classes, so both themes
 * apply. Geometry only: the figures are in a table beside the chart (`chartFigures`), which screen readers read.
 */
import { utcTime } from '../../../shared/relative-time.js';
import { html, type SafeHtml } from '../../../shell/html.js';

const WIDTH = 600;
const PANEL = 70;
const LEFT = 4;
const GAP = 36;

export interface LinePanel {
  /** Written above the panel ("Transactions, up to 1,234"). */
  readonly label: string;
  /** One value per time, drawn from 0 (bottom) to the panel's largest value (top). */
  readonly values: readonly number[];
  /** A CSS class of the line ("line-a" or "line-b"). */
  readonly kind: string;
}

export interface LineChart {
  /** Unique per page: the SVG's accessible name hangs on `${id}-title`. */
  readonly id: string;
  readonly title: string;
  /** UNIX seconds, ascending, one per value. */
  readonly times: readonly number[];
  /** The axis' span (defaults to the first and last time). */
  readonly from?: number;
  readonly to?: number;
  /** Each value holds until the next (a balance), instead of a straight line between samples. */
  readonly stepped?: boolean;
  readonly panels: readonly LinePanel[];
}

export function lineChart(chart: LineChart): SafeHtml {
  const { times, panels } = chart;
  const from = chart.from ?? times[0] ?? 0;
  const to = Math.max(chart.to ?? times[times.length - 1] ?? 0, from + 1);
  const x = (t: number): number => LEFT + ((t - from) / (to - from)) * (WIDTH - LEFT * 2);
  const height = panels.length * (PANEL + GAP) + 16;
  const drawn = panels.map((p, i) => {
    const top = i * (PANEL + GAP) + GAP - 16;
    const max = Math.max(1, ...p.values);
    const y = (v: number): number => top + PANEL - (v / max) * PANEL;
    const points: string[] = [];
    p.values.forEach((v, j) => {
      const px = x(times[j]!).toFixed(1);
      if (chart.stepped && j > 0) points.push(`${px},${y(p.values[j - 1]!).toFixed(1)}`);
      points.push(`${px},${y(v).toFixed(1)}`);
    });
    // A balance holds until now: its last value runs to the right edge.
    if (chart.stepped && p.values.length > 0) points.push(`${x(to).toFixed(1)},${y(p.values[p.values.length - 1]!).toFixed(1)}`);
    return html`<text class="tick" x="${LEFT}" y="${top - 6}">${p.label}</text>
<line class="axis" x1="${LEFT}" y1="${top + PANEL}" x2="${WIDTH - LEFT}" y2="${top + PANEL}"/>
${points.length === 1 ? html`<circle class="dot ${p.kind}" cx="${points[0]!.split(',')[0]!}" cy="${points[0]!.split(',')[1]!}" r="3"/>` : html`<polyline class="line ${p.kind}" points="${points.join(' ')}"/>`}`;
  });
  return html`<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${chart.id}-title" focusable="false">
<title id="${chart.id}-title">${chart.title}</title>
${drawn}
<text class="tick" x="${LEFT}" y="${height - 2}">${utcTime(from)}</text>
<text class="tick" x="${WIDTH - LEFT}" y="${height - 2}" text-anchor="end">${utcTime(to)}</text>
</svg>`;
}

/** The chart's figures as a table inside a closed `<details>`: copyable numbers, and the chart's text for screen readers. */
export function chartFigures(summary: string, body: SafeHtml, open = false): SafeHtml {
  return html`<details class="chart-figures"${open ? html` open` : ''}><summary>${summary}</summary>${body}</details>`;
}
