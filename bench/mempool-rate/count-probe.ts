/**
 * The index's side of "has it": the store's mempool count, read from the store itself (SQLite: a read-only connection
 * to the file; PostgreSQL: one client) every `everyMs`, so measuring costs the service nothing (get_info, which also
 * has the count, reads the tip block too: polled 20 times a second it was a fifth of the service's busy time). The
 * mempool only grows during a run, so the n-th tx the node had is in the index once the count reaches n; the time
 * taken is the read's end, so a lag read here is late by up to one probe interval.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';

/** Counts the live mempool txs of the network's table; `close` releases the connection. */
export interface StoreCounter {
  count(): Promise<number>;
  close(): Promise<void>;
}

const countSql = (network: string, no: string): string => `SELECT COUNT(*) AS c FROM mempool_txs_${network.toLowerCase()} WHERE removed = ${no}`;

export async function storeCounter(storeUrl: string, network: string): Promise<StoreCounter> {
  if (storeUrl.startsWith('sqlite:')) {
    const db = openSqliteDatabase(storeUrl.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    const statement = db.prepare(countSql(network, '0'));
    return { count: () => Promise.resolve(Number((statement.get() as { c: number }).c)), close: () => Promise.resolve(void db.close()) };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: storeUrl });
  await client.connect();
  const sql = countSql(network, 'FALSE');
  return { count: async () => Number((await client.query<{ c: string }>(sql)).rows[0]!.c), close: () => client.end() };
}

const nowMs = (): number => performance.timeOrigin + performance.now();

export class CountProbe {
  /** Reads in order: the highest count seen so far, and when (ms since the epoch). */
  readonly samples: { at: number; count: number }[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly counter: StoreCounter,
    everyMs: number,
  ) {
    this.loop = (async () => {
      while (this.running) {
        const started = performance.now();
        const count = await counter.count();
        this.samples.push({ at: nowMs(), count: Math.max(count, this.latest) });
        await delay(Math.max(0, everyMs - (performance.now() - started)));
      }
    })();
  }

  get latest(): number {
    return this.samples.at(-1)?.count ?? 0;
  }

  /** When the count first reached `n` (ms since the epoch), or null if it never did. */
  reachedAt(n: number): number | null {
    let lo = 0;
    let hi = this.samples.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.samples[mid]!.count >= n) hi = mid;
      else lo = mid + 1;
    }
    return this.samples[lo]?.at ?? null;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.counter.close();
  }
}
