import type { Transaction } from '../../core/domain/chain-types.js';

/**
 * Block height from the coinbase scriptSig's first push (BIP34: a minimal CScriptNum, or OP_0 /
 * OP_1..OP_16 for small heights). Blocks before BIP34 activation often start with other pushes
 * (genesis: nBits), so the caller decides from the height whether the value means anything.
 * Returns null when the script does not start with a non-negative number push.
 */
export function coinbaseHeight(tx: Transaction): number | null {
  if (!tx.isCoinbase) return null;
  const script = tx.inputs[0]!.scriptSig;
  const op = script[0];
  if (op === undefined) return null;
  if (op === 0x00) return 0;
  if (op >= 0x51 && op <= 0x60) return op - 0x50;
  if (op < 0x01 || op > 0x08 || script.length < 1 + op) return null;
  let value = 0;
  for (let i = op; i >= 1; i--) value = value * 256 + script[i]!;
  const top = script[op]!;
  if (top & 0x80) return null; // negative CScriptNum
  return value <= Number.MAX_SAFE_INTEGER ? value : null;
}

/** The runs of printable ASCII (0x20–0x7e) in a script, at least `minRun` long, in order. */
export function printableRuns(script: Uint8Array, minRun = 1): string[] {
  const runs: string[] = [];
  let run = '';
  for (const b of script) {
    if (b >= 0x20 && b <= 0x7e) {
      run += String.fromCharCode(b);
    } else {
      if (run.length >= minRun) runs.push(run);
      run = '';
    }
  }
  if (run.length >= minRun) runs.push(run);
  return runs;
}
