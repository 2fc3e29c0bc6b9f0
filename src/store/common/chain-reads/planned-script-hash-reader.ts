/**
 * ScriptHashReader over the shared plans (script-hash-plans.ts), each answer one plan the engine runs (SQLite: in one
 * read transaction; PostgreSQL: on the read side of the current scope). A lookup first asks whether the index is
 * complete, until it once is: from then on this process does not ask again (the index only becomes incomplete again
 * with a chain reset, and the network answers nothing during the initial load that follows).
 */
import { ScriptHashIndexBuildingError } from '../../../core/domain/errors.js';
import type { ScriptHashBalance, ScriptHashHistory, ScriptHashIndexState, ScriptHashMempoolTx, ScriptHashReader, ScriptHashUnspent } from '../../../core/store/script-hash-reads.js';
import type { Plan } from '../sql/sql-plan.js';
import type { ScriptHashPlans } from './script-hash-plans.js';

export class PlannedScriptHashReader implements ScriptHashReader {
  private ready = false;

  constructor(private readonly read: <T>(plan: Plan<T>) => Promise<T>, private readonly plans: ScriptHashPlans) {}

  async indexState(): Promise<ScriptHashIndexState> {
    const state = await this.read(this.plans.indexState());
    if (state.ready) this.ready = true;
    return state;
  }

  scriptOf(sha256: Uint8Array): Promise<Uint8Array | null> {
    if (this.ready) return this.read(this.plans.scriptOf(sha256));
    const { plans } = this;
    return this.read((function* (): Plan<Uint8Array | null> {
      const state = yield* plans.indexState();
      if (!state.ready) throw new ScriptHashIndexBuildingError(state.progress);
      return yield* plans.scriptOf(sha256);
    })()).then((script) => {
      this.ready = true;
      return script;
    });
  }

  history(script: Uint8Array, max: number): Promise<ScriptHashHistory | null> {
    return this.read(this.plans.history(script, max));
  }

  balance(script: Uint8Array): Promise<ScriptHashBalance> {
    return this.read(this.plans.balance(script));
  }

  unspent(script: Uint8Array, max: number): Promise<ScriptHashUnspent | null> {
    return this.read(this.plans.unspent(script, max));
  }

  mempool(script: Uint8Array, max: number): Promise<ScriptHashMempoolTx[] | null> {
    return this.read(this.plans.mempool(script, max));
  }

  headers(fromHeight: number, count: number): Promise<Uint8Array[]> {
    return this.read(this.plans.headers(fromHeight, count));
  }

  blockHashes(fromHeight: number, toHeight: number): Promise<Uint8Array[]> {
    return this.read(this.plans.blockHashes(fromHeight, toHeight));
  }
}
