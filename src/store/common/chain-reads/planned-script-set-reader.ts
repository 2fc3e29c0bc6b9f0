/** The script-set reads (core/script-set-reads.ts) over the shared plans; each driver says only how a plan is run. */
import type { AddressHistoryEntry, AddressTotals, UnspentOutput } from '../../../core/store/chain-reads.js';
import type { ScriptSetFlows, ScriptSetPage, ScriptSetReader, ScriptSetSummary, ScriptSetTxCount } from '../../../core/store/script-set-reads.js';
import { ConfirmedIdsMemo } from './confirmed-ids-memo.js';
import { flowsPlan, historyPlan, summaryPlan, totalsPlan, txCountPlan, unspentPlan, type Plan, type SetContext } from './script-set-plans.js';

export abstract class PlannedScriptSetReader implements ScriptSetReader {
  /** Per network store: its sets' confirmed tx ids while the tip stays. */
  protected readonly memo = new ConfirmedIdsMemo();

  /** Runs the plan against this engine's statements and context. */
  protected abstract run<T>(plan: (c: SetContext) => Plan<T>): Promise<T>;

  getScriptTotals(scripts: readonly Uint8Array[]): Promise<AddressTotals[]> {
    return this.run((c) => totalsPlan(c, scripts));
  }

  getScriptSetTxCount(scripts: readonly Uint8Array[]): Promise<ScriptSetTxCount> {
    return this.run((c) => txCountPlan(c, scripts));
  }

  getScriptSetSummary(scripts: readonly Uint8Array[]): Promise<ScriptSetSummary> {
    return this.run((c) => summaryPlan(c, scripts));
  }

  getScriptSetFlows(scripts: readonly Uint8Array[]): Promise<ScriptSetFlows> {
    return this.run((c) => flowsPlan(c, scripts));
  }

  getScriptSetHistory(scripts: readonly Uint8Array[], page: ScriptSetPage): Promise<AddressHistoryEntry[]> {
    return this.run((c) => historyPlan(c, scripts, page));
  }

  getScriptSetUnspent(scripts: readonly Uint8Array[], page: ScriptSetPage): Promise<UnspentOutput[]> {
    return this.run((c) => unspentPlan(c, scripts, page));
  }
}
