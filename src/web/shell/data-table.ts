import { html, trustedHtml, type SafeHtml } from './html.js';

/** Tables with more columns than this (a hash, a state and an amount already fill 375 px) become one card per row at phone widths (styles/tables.css, `.stack`). */
export const STACK_ABOVE_COLUMNS = 2;

export interface DataTableSpec {
  /** Names the scroll region (and the table, for screen readers). */
  readonly label: string;
  /** One `<tr>` of `<th>` cells. */
  readonly head: SafeHtml;
  readonly rows: readonly SafeHtml[];
  readonly id?: string;
  /** A visible caption (the dashboard's tables have one). */
  readonly caption?: string;
}

const HEADING = /<th\b[^>]*>([\s\S]*?)<\/th>/g;
const CELL = /<td\b/g;

/**
 * The column headings as plain text: the text of each `<th>` with its tags removed. It is already escaped (it came
 * out of `html`), so it can stand in a double-quoted attribute as it is.
 */
export function headingLabels(head: SafeHtml): string[] {
  return [...head.value.matchAll(HEADING)].map((m) => m[1]!.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim());
}

/** Writes `data-label="HEADING"` on each row's n-th `<td>`: at phone widths the card shows it before the value. */
export function labelCells(row: SafeHtml, labels: readonly string[]): SafeHtml {
  let column = 0;
  // Only escaped heading text goes into the attribute (see headingLabels): this is markup our code made.
  return trustedHtml(row.value.replace(CELL, () => `<td data-label="${labels[column++] ?? ''}"`));
}

/**
 * A table inside a focusable scroll region (keyboard users can scroll it at small widths); with three or more
 * columns, it is marked `stack`: below 40rem each row is a card of "heading: value" lines, so every value is on
 * screen at 375 px without sideways scrolling (as mempool.space and Esplora do).
 */
export function dataTable(spec: DataTableSpec): SafeHtml {
  const labels = headingLabels(spec.head);
  const stack = labels.length > STACK_ABOVE_COLUMNS;
  const rows = stack ? spec.rows.map((row) => labelCells(row, labels)) : spec.rows;
  return html`<div class="table-wrap${stack ? ' stack' : ''}" tabindex="0" role="region" aria-label="${spec.label}"><table${spec.id ? html` id="${spec.id}"` : ''}>
${spec.caption ? html`<caption>${spec.caption}</caption>` : ''}<thead>${spec.head}</thead>
<tbody>${rows}</tbody>
</table></div>`;
}
