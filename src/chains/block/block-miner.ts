/**
 * Who mined a block, as far as its coinbase says: the one rule behind v3 `latest_blocks_summary` (`miner`,
 * `miner_tag`) and realtime `block_update` (`mined_by`), so the two never disagree about a block.
 */
import type { Transaction } from '../../core/domain/chain-types.js';
import { displayAddress } from '../address/address.js';
import type { NetworkParams } from '../network-params.js';
import { printableRuns } from './coinbase.js';

export interface BlockMiner {
  /** The address of the coinbase's first output that pays one (a P2PK key shows as its P2PKH address); null if none does. */
  readonly address: string | null;
  /** The pool's tag in the coinbase script ("/ViaBTC/", "Mined by AntPool…", "/LP/"); null when it carries none. */
  readonly tag: string | null;
}

/** A run of printable bytes this long is deliberate text, not chance bytes of an extranonce (~1 % of blocks at 6). */
const MIN_TEXT = 6;
/** Pools write short names between slashes ("/LP/" is litecoinpool.org); random bytes rarely start and end with '/'. */
const SLASHED = /^\/[^/]+\/$/;
/** Flags nodes put in every coinbase they template (BIP16 support): protocol, not a miner's name. */
const PROTOCOL_FLAGS = new Set(['/P2SH/']);
/** Longest tag kept; pools' tags are short. */
const MAX_TAG = 64;

export function blockMiner(params: NetworkParams, coinbase: Transaction): BlockMiner {
  return { address: coinbaseAddress(params, coinbase), tag: coinbaseTag(coinbase) };
}

function coinbaseAddress(params: NetworkParams, coinbase: Transaction): string | null {
  for (const output of coinbase.outputs) {
    if (output.value === 0n) continue;
    const address = displayAddress(params, output.script);
    if (address !== null) return address;
  }
  return null;
}

/** The pool's tag in a coinbase (also a merge-mined block's parent coinbase); null when it carries none. */
export function coinbaseTag(coinbase: Transaction): string | null {
  if (!coinbase.isCoinbase) return null;
  const runs = printableRuns(coinbase.inputs[0]!.scriptSig, 3)
    .map((run) => run.trim())
    .filter((run) => (run.length >= MIN_TEXT || SLASHED.test(run)) && !PROTOCOL_FLAGS.has(run));
  const tag = runs.join(' ').slice(0, MAX_TAG).trim();
  return tag === '' ? null : tag;
}
