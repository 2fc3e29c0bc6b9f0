import type { ScriptType } from '../../../../chains/addressing.js';

/** Output types as people read them (the API's `type` strings stay visible beside them on the tx page). */
const LABELS: Readonly<Record<ScriptType, string>> = {
  pubkey: 'P2PK',
  pubkeyhash: 'P2PKH',
  scripthash: 'P2SH',
  multisig: 'bare multisig',
  nulldata: 'OP_RETURN data',
  witness_v0_keyhash: 'P2WPKH',
  witness_v0_scripthash: 'P2WSH',
  witness_v1_taproot: 'P2TR',
  witness_unknown: 'witness (unknown version)',
  witness_mweb_pegin: 'MWEB peg-in',
  witness_mweb_hogaddr: 'MWEB HogEx (extension block state)',
  nonstandard: 'non-standard',
};

export function scriptLabel(type: ScriptType): string {
  return LABELS[type];
}
