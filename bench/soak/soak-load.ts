/**
 * The soak's steady request load: v2 and v3 reads at a fixed rate (a timer, not as fast as possible), over the
 * addresses and txs the churn creates. Every answer that is not 200 is a failure, kept with its status and body.
 */
import { performance } from 'node:perf_hooks';

export interface LoadTargets {
  readonly addresses: string[];
  readonly txids: string[];
}

export interface LoadStats {
  requests: number;
  failures: { path: string; status: number; body: string }[];
  latenciesMs: number[];
}

const N = 'LTCTEST';

function pick<T>(items: readonly T[], i: number): T | undefined {
  return items.length === 0 ? undefined : items[i % items.length];
}

/** The i-th request's path and whether it needs the API key: a mix of the endpoints wallets call most. */
function request(i: number, targets: LoadTargets): { path: string; v3: boolean } {
  const address = pick(targets.addresses, i);
  const txid = pick(targets.txids, i);
  const cases: ({ path: string; v3: boolean } | null)[] = [
    { path: `/api/v2/get_info/${N}`, v3: false },
    address ? { path: `/api/v2/get_address_balance/${N}/${address}`, v3: false } : null,
    address ? { path: `/api/v2/get_tx_unspent/${N}/${address}`, v3: false } : null,
    txid ? { path: `/api/v2/get_tx/${N}/${txid}`, v3: false } : null,
    txid ? { path: `/api/v2/get_confidence/${N}/${txid}`, v3: false } : null,
    address ? { path: `/api/v3/balance/${N}/${address}`, v3: true } : null,
    address ? { path: `/api/v3/transactions/${N}/${address}/1`, v3: true } : null,
    txid ? { path: `/api/v3/transaction/${N}/${txid}`, v3: true } : null,
    { path: `/api/v3/network_info/${N}`, v3: true },
  ];
  const usable = cases.filter((c): c is { path: string; v3: boolean } => c !== null);
  return usable[i % usable.length]!;
}

/** Sends `perSecond` requests a second until `stop()`; at most `perSecond` in flight (a slow server is not piled on). */
export function startLoad(baseUrl: string, apiKey: string, perSecond: number, targets: LoadTargets): { stats: LoadStats; stop: () => Promise<void> } {
  const stats: LoadStats = { requests: 0, failures: [], latenciesMs: [] };
  const inFlight = new Set<Promise<void>>();
  let i = 0;
  const one = async (): Promise<void> => {
    const { path, v3 } = request(i++, targets);
    const started = performance.now();
    try {
      const response = await fetch(baseUrl + path, v3 ? { headers: { 'API-KEY': apiKey } } : {});
      const body = await response.text();
      if (response.status !== 200) stats.failures.push({ path, status: response.status, body: body.slice(0, 300) });
    } catch (error) {
      stats.failures.push({ path, status: 0, body: (error as Error).message });
    }
    stats.requests++;
    stats.latenciesMs.push(performance.now() - started);
  };
  const timer = setInterval(() => {
    if (inFlight.size >= perSecond) return;
    const p = one().finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, 1000 / perSecond);
  return {
    stats,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
