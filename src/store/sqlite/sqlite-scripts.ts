/** Script ids and exact totals. Totals are TEXT decimals: SQLite integers overflow into REAL past 2^63. */
import { StoreError } from '../../core/errors.js';
import type { TotalsDelta } from '../common/tx-effects.js';
import { big, num, type Row, type Statements } from './sqlite-statements.js';

export function resolveScriptIds(st: Statements, net: number, scripts: ReadonlyMap<string, Uint8Array>): Map<string, number> {
  const select = st.get('SELECT id FROM scripts WHERE net = ? AND script = ?');
  const insert = st.get('INSERT INTO scripts (net, script) VALUES (?, ?) RETURNING id');
  const ids = new Map<string, number>();
  for (const [key, script] of scripts) {
    const row = (select.get(net, script) ?? insert.get(net, script)) as Row;
    ids.set(key, num(row.id));
  }
  return ids;
}

export function scriptsById(st: Statements, ids: Iterable<number>): Map<number, Uint8Array> {
  const select = st.get('SELECT script FROM scripts WHERE id = ?');
  const out = new Map<number, Uint8Array>();
  for (const id of ids) {
    if (out.has(id)) continue;
    const row = select.get(id) as Row | undefined;
    if (!row) throw new StoreError(`script id ${id} not found`);
    out.set(id, row.script as Buffer);
  }
  return out;
}

export function applyTotals(st: Statements, totals: readonly TotalsDelta[]): void {
  const select = st.get('SELECT received, sent, tx_count, received_count, sent_count FROM scripts WHERE id = ?');
  const update = st.get(
    'UPDATE scripts SET received = ?, sent = ?, tx_count = ?, received_count = ?, sent_count = ? WHERE id = ?',
  );
  for (const t of totals) {
    const row = select.get(t.scriptId) as Row | undefined;
    if (!row) throw new StoreError(`script id ${t.scriptId} not found`);
    update.run(
      (BigInt(row.received as string) + t.received).toString(),
      (BigInt(row.sent as string) + t.sent).toString(),
      big(row.tx_count) + BigInt(t.txCount),
      big(row.received_count) + BigInt(t.receivedCount),
      big(row.sent_count) + BigInt(t.sentCount),
      t.scriptId,
    );
  }
}
