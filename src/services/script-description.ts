import { pubkeyToP2pkhAddress, scriptToAddress } from '../chains/addressing.js';
import type { NetworkParams } from '../chains/network-params.js';
import { classifyScript, getP2pkPubkey, type ScriptType } from '../chains/addressing.js';

/** What an output script is and whom it pays, as users see it. */
export interface ScriptDescription {
  readonly type: ScriptType;
  /** null when the script has no address (multisig, OP_RETURN, non-standard). */
  readonly address: string | null;
}

/** P2PK outputs are shown with the P2PKH address of their key, as explorers do (Core gives them none). */
export function describeScript(params: NetworkParams, script: Uint8Array): ScriptDescription {
  const type = classifyScript(script, params.features);
  if (type === 'pubkey') {
    const pubkey = getP2pkPubkey(script);
    return { type, address: pubkey ? pubkeyToP2pkhAddress(params, pubkey) : null };
  }
  return { type, address: scriptToAddress(params, script) };
}
