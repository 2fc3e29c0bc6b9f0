/**
 * Which database a read goes to. Inside a ReadScope (an API request: http/ enters one per request; the health checks
 * one per check) the first read picks a replica in use, or the primary when none is, and every later read of the scope
 * goes to the same one: a request never mixes two replicas' tips. Outside any scope (the indexer, whose reads must
 * see its own writes; the dashboard; realtime) reads go to the primary.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { ReadScope } from '../../../core/store/read-replicas.js';
import type { PgNet } from '../chain/postgres-net.js';
import { PgReadSide, type ReadSides } from '../chain/postgres-read-side.js';
import type { ReplicaSet } from './replica-set.js';

/** The primary, as a read target. */
export const PRIMARY = -1;

export class ReadRouter implements ReadScope {
  private readonly scopes = new AsyncLocalStorage<{ target: number | null }>();

  constructor(private readonly replicas: ReplicaSet) {}

  run<T>(fn: () => T): T {
    return this.scopes.run({ target: null }, fn);
  }

  /** PRIMARY, or the index of the replica this scope reads from. */
  target(): number {
    const scope = this.scopes.getStore();
    if (!scope) return PRIMARY;
    scope.target ??= this.replicas.pick() ?? PRIMARY;
    return scope.target;
  }
}

/** A network store's read sides: the primary's and one per replica pool; `current()` is the one the router picked. */
export function routedReadSides(router: ReadRouter, pools: readonly pg.Pool[]): (primary: PgReadSide, n: PgNet) => ReadSides {
  return (primary, n) => {
    const replicas = pools.map((pool) => new PgReadSide(pool, n));
    return {
      current: () => {
        const target = router.target();
        return target === PRIMARY ? primary : replicas[target]!;
      },
    };
  };
}
