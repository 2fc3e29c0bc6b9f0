/**
 * The JSON objects 1.14 builds (rpc/blockchain.cpp blockheaderToJSON, blockToJSON, AuxpowToJSON, entryToJSON;
 * rpc/rawtransaction.cpp TxToJSON, ScriptPubKeyToJSON), field for field and in Core's order. No `nTx`, no
 * `vsize`/`weight`/`fees{}`/`spentby`/`bip125-replaceable` in mempool entries: 1.14 has none of them.
 */
import type { AuxPow, Transaction } from '../../../src/core/domain/chain-types.js';
import type { NetworkParams } from '../../../src/chains/network-params.js';
import { classifyScript, getP2pkPubkey, pubkeyToP2pkhAddress, scriptToAddress, scriptToAsm } from '../../../src/chains/addressing.js';
import { difficultyFromBits } from '../../../src/chains/parsing.js';
import { toHex } from '../../../src/chains/hash.js';
import type { BlockEntry, ChainState } from './chain-state.js';
import type { Mempool, PoolEntry } from './mempool.js';
import { Amount } from './rpc-values.js';

const hex8 = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
const hex64 = (n: bigint): string => n.toString(16).padStart(64, '0');

export function scriptPubKeyJson(params: NetworkParams, script: Uint8Array): Record<string, unknown> {
  const out: Record<string, unknown> = { asm: scriptToAsm(script), hex: toHex(script) };
  const type = classifyScript(script);
  const p2pk = type === 'pubkey' ? getP2pkPubkey(script) : null;
  const address = p2pk ? pubkeyToP2pkhAddress(params, p2pk) : type === 'pubkeyhash' || type === 'scripthash' ? scriptToAddress(params, script) : null;
  if (address === null) return { ...out, type: type.startsWith('witness') ? 'nonstandard' : type };
  return { ...out, reqSigs: 1, type, addresses: [address] };
}

/** TxToJSON; `block` adds blockhash (and, on the main chain, confirmations/time/blocktime). */
export function txJson(params: NetworkParams, chain: ChainState, tx: Transaction, block: { hash: string } | null): Record<string, unknown> {
  const json: Record<string, unknown> = {
    txid: tx.txid,
    hash: tx.wtxid,
    size: tx.size,
    vsize: tx.vsize,
    version: tx.version,
    locktime: tx.locktime,
    vin: tx.inputs.map((input) =>
      tx.isCoinbase
        ? { coinbase: toHex(input.scriptSig), sequence: input.sequence }
        : {
            txid: input.prevTxid,
            vout: input.prevVout,
            scriptSig: { asm: scriptToAsm(input.scriptSig, { sighashDecode: true }), hex: toHex(input.scriptSig) },
            sequence: input.sequence,
          },
    ),
    vout: tx.outputs.map((o, n) => ({ value: new Amount(o.value), n, scriptPubKey: scriptPubKeyJson(params, o.script) })),
  };
  if (block) {
    json.blockhash = block.hash;
    const entry = chain.blocks.get(block.hash);
    if (entry && chain.isActive(entry)) {
      json.confirmations = chain.tip.height - entry.height + 1;
      json.time = entry.block.header.time;
      json.blocktime = entry.block.header.time;
    } else if (entry) {
      json.confirmations = 0;
    }
  }
  return json;
}

function confirmations(chain: ChainState, entry: BlockEntry): number {
  return chain.isActive(entry) ? chain.tip.height - entry.height + 1 : -1;
}

function links(chain: ChainState, entry: BlockEntry): Record<string, string> {
  const out: Record<string, string> = {};
  if (entry.parent) out.previousblockhash = entry.parent.hash;
  const next = chain.isActive(entry) ? chain.active[entry.height + 1] : undefined;
  if (next) out.nextblockhash = next.hash;
  return out;
}

export function headerJson(chain: ChainState, entry: BlockEntry): Record<string, unknown> {
  const h = entry.block.header;
  return {
    hash: entry.hash,
    confirmations: confirmations(chain, entry),
    height: entry.height,
    version: h.version,
    versionHex: hex8(h.version),
    merkleroot: h.merkleRoot,
    time: h.time,
    mediantime: entry.medianTimePast,
    nonce: h.nonce,
    bits: hex8(h.bits),
    difficulty: difficultyFromBits(h.bits),
    chainwork: hex64(entry.chainwork),
    ...links(chain, entry),
  };
}

function auxpowJson(params: NetworkParams, chain: ChainState, aux: AuxPow): Record<string, unknown> {
  return {
    tx: { hex: toHex(aux.parentCoinbase.raw), ...txJson(params, chain, aux.parentCoinbase, { hash: aux.parentHeader.hash }) },
    index: aux.coinbaseIndex,
    chainindex: aux.chainIndex,
    merklebranch: aux.coinbaseBranch,
    chainmerklebranch: aux.chainBranch,
    parentblock: toHex(aux.parentHeader.raw),
  };
}

/** blockToJSON (verbosity 1: txids; 2: TxToJSON objects without hex or block fields). */
export function blockJson(params: NetworkParams, chain: ChainState, entry: BlockEntry, txDetails: boolean): Record<string, unknown> {
  const { block } = entry;
  const h = block.header;
  return {
    hash: entry.hash,
    confirmations: confirmations(chain, entry),
    strippedsize: block.strippedSize,
    size: block.size,
    weight: block.weight,
    height: entry.height,
    version: h.version,
    versionHex: hex8(h.version),
    merkleroot: h.merkleRoot,
    tx: block.txs.map((tx) => (txDetails ? txJson(params, chain, tx, null) : tx.txid)),
    time: h.time,
    mediantime: entry.medianTimePast,
    nonce: h.nonce,
    bits: hex8(h.bits),
    difficulty: difficultyFromBits(h.bits),
    chainwork: hex64(entry.chainwork),
    ...(block.auxpow ? { auxpow: auxpowJson(params, chain, block.auxpow) } : {}),
    ...links(chain, entry),
  };
}

/** entryToJSON: DOGE amounts for fee/modifiedfee, integer koinu for the ancestor/descendant sums. */
export function mempoolEntryJson(mempool: Mempool, chain: ChainState, e: PoolEntry): Record<string, unknown> {
  const txid = e.tx.txid;
  const sum = (set: Set<string>, pick: (x: PoolEntry) => bigint | number): bigint =>
    [...set].reduce((acc, id) => acc + BigInt(pick(mempool.entries.get(id)!)), 0n);
  const descendants = mempool.descendants(txid);
  const ancestors = mempool.ancestors(txid);
  const currentPriority = e.startingPriority + ((chain.tip.height - e.height) * Number(e.inChainValue)) / e.modifiedSize;
  return {
    size: e.size,
    fee: new Amount(e.fee),
    modifiedfee: new Amount(e.fee),
    time: e.time,
    height: e.height,
    startingpriority: e.startingPriority,
    currentpriority: currentPriority,
    descendantcount: descendants.size,
    descendantsize: Number(sum(descendants, (x) => x.size)),
    descendantfees: sum(descendants, (x) => x.fee),
    ancestorcount: ancestors.size,
    ancestorsize: Number(sum(ancestors, (x) => x.size)),
    ancestorfees: sum(ancestors, (x) => x.fee),
    depends: mempool.parents(txid),
  };
}
