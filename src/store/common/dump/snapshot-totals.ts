/**
 * The last check of a loaded snapshot (snapshot-verify.ts): every script row's totals and counts recomputed from the
 * outputs and the history, and its bytes against its key. A balance is a script's received minus sent: edited totals
 * (an address credited with 84M LTC) are refused here even when the file's digests were recomputed.
 *
 * One streamed query per engine: the scripts in key order joined with the outputs and history aggregated per script.
 * Sums are taken as two 32-bit halves, which cannot overflow 64 bits in SQL (Dogecoin's totals exceed 2^63), and
 * put together as bigints here.
 */
import type { NetworkId } from '../../../core/domain/network.js';
import type { ScriptKeys } from '../chain-writes/script-keys.js';
import { chainTables } from '../schema/chain-tables.js';
import type { DumpSource } from './dump-engine.js';
import type { DumpError } from './dump-format.js';
import { columns, type DumpTable } from './dump-rows.js';

const HALF = 4294967296n;

/**
 * Checks every script row; resolves how many there are. `verifiedKeys`: keys other than their script's base key that
 * the chain walk matched byte for byte with an output's script (collisions); any other such row must be unused.
 */
export async function recomputeTotals(
  source: DumpSource,
  network: NetworkId,
  keys: ScriptKeys,
  verifiedKeys: ReadonlySet<number>,
  refuse: (why: string) => DumpError,
): Promise<number> {
  const t = chainTables(network);
  const totals: DumpTable = {
    name: `${t.scripts} s
LEFT JOIN (SELECT script, SUM(value / 4294967296) AS rhi, SUM(value % 4294967296) AS rlo,
  SUM(CASE WHEN spent_by IS NULL THEN 0 ELSE value / 4294967296 END) AS shi, SUM(CASE WHEN spent_by IS NULL THEN 0 ELSE value % 4294967296 END) AS slo,
  COUNT(DISTINCT id) AS rtx, COUNT(DISTINCT spent_by) AS stx FROM ${t.outputs} GROUP BY script) o ON o.script = s.key
LEFT JOIN (SELECT script, COUNT(*) AS n, SUM(flags & 1) AS r, SUM((flags & 2) / 2) AS x FROM ${t.history} GROUP BY script) h ON h.script = s.key`,
    orderBy: 's.key',
    columns: columns('s.key int, s.script blob, s.received total, s.sent total, s.tx_count int, s.received_count int, s.sent_count int, ' +
      'o.rhi int, o.rlo int, o.shi int, o.slo int, o.rtx int, o.stx int, h.n int, h.r int, h.x int'),
  };
  let scripts = 0;
  for await (const page of source.rows(totals)) {
    for (const row of page) {
      const [key, script, received, sent, txCount, receivedCount, sentCount, rhi, rlo, shi, slo, rtx, stx, n, r, x] = row as [bigint, Buffer, ...(bigint | null)[]];
      const at = `script key ${key}`;
      const sum = (hi: bigint | null, lo: bigint | null) => (hi ?? 0n) * HALF + (lo ?? 0n);
      if (received !== sum(rhi!, rlo!) || sent !== sum(shi!, slo!)) {
        throw refuse(`${at}: received ${received} and sent ${sent} are stored, its outputs add up to ${sum(rhi!, rlo!)} and ${sum(shi!, slo!)}`);
      }
      if (receivedCount !== (rtx ?? 0n) || sentCount !== (stx ?? 0n)) throw refuse(`${at}: its tx counts are not its outputs'`);
      if (txCount !== (n ?? 0n) || receivedCount !== (r ?? 0n) || sentCount !== (x ?? 0n)) throw refuse(`${at}: its tx counts are not its history's`);
      const used = txCount !== 0n;
      if (used && keys.base(script) !== Number(key) && !verifiedKeys.has(Number(key))) throw refuse(`${at}: its bytes do not hash to it`);
      scripts++;
    }
  }
  // Outputs and history rows must name script rows that exist (the joins above start from the scripts).
  const orphans = await source.all(`SELECT 1 AS x FROM ${t.outputs} o LEFT JOIN ${t.scripts} s ON s.key = o.script WHERE s.key IS NULL LIMIT 1`);
  const lost = await source.all(`SELECT 1 AS x FROM ${t.history} h LEFT JOIN ${t.scripts} s ON s.key = h.script WHERE s.key IS NULL LIMIT 1`);
  if (orphans.length > 0 || lost.length > 0) throw refuse('outputs or history rows name a script the snapshot does not hold');
  return scripts;
}
