/**
 * What users do meanwhile: `clients` loops of v2 balance reads (each one request at a time, over the watched
 * addresses, which every payment touches), timed per request; and the index's mempool count from v2 `get_info`, as
 * a user sees it, with the node's own count (`getmempoolinfo`) read just before each.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { RegtestNode } from '../../test/helpers/regtest-node.js';

const nowMs = (): number => performance.timeOrigin + performance.now();

export class BalanceReaders {
  /** [when it ended (ms since the epoch), how long it took (ms), HTTP status]. */
  readonly samples: [number, number, number][] = [];
  /** The first answer of each status other than 200, what it said (a 503's reason: syncing, store down…). */
  readonly firstFailure = new Map<number, string>();
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(baseUrl: string, network: string, addresses: readonly string[], clients = 4) {
    this.loops = Array.from({ length: clients }, async (_, c) => {
      for (let i = c; this.running; i += clients) {
        const started = performance.now();
        const res = await fetch(`${baseUrl}/api/v2/get_address_balance/${network}/${addresses[i % addresses.length]}`);
        const body = await res.text();
        if (res.status !== 200 && !this.firstFailure.has(res.status)) this.firstFailure.set(res.status, body.slice(0, 200));
        this.samples.push([nowMs(), performance.now() - started, res.status]);
      }
    });
  }

  /** Durations (ms) of the reads that ended within [from, to]; non-200 answers are counted apart. */
  between(from: number, to: number): { ms: number[]; failed: number; statuses: string } {
    const inside = this.samples.filter(([at]) => at >= from && at <= to);
    const failed = inside.filter(([, , status]) => status !== 200).map(([, , status]) => status);
    const statuses = [...new Set(failed)]
      .map((status) => `${failed.filter((x) => x === status).length} × ${status} (the first: ${this.firstFailure.get(status) ?? '?'})`).join(', ');
    return { ms: inside.map(([, ms]) => ms), failed: failed.length, statuses };
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

export interface CountSample {
  readonly at: number;
  readonly node: number;
  readonly index: number;
}

export class CountSampler {
  readonly samples: CountSample[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(node: RegtestNode, baseUrl: string, network: string, everyMs: number) {
    this.loop = (async () => {
      while (this.running) {
        const started = performance.now();
        const nodeCount = (await node.rpc.call<{ size: number }>('getmempoolinfo')).size;
        const info = (await (await fetch(`${baseUrl}/api/v2/get_info/${network}`)).json()) as { data?: { unconfirmed_txs?: number } };
        this.samples.push({ at: nowMs(), node: nodeCount, index: info.data?.unconfirmed_txs ?? -1 });
        await delay(Math.max(0, everyMs - (performance.now() - started)));
      }
    })();
  }

  get latest(): CountSample | undefined {
    return this.samples[this.samples.length - 1];
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}
