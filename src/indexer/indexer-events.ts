import type { Block, ConnectedBlock, DomainEvent, NetworkId, PrevoutInfo, ScriptDelta, Transaction } from '../core/index.js';
import type { NetworkParams } from '../chains/network-params.js';

export type PrevoutLookup = (txid: string) => readonly (PrevoutInfo | null)[] | null;
import { blockMiner } from '../chains/parsing.js';

/** The domain events of one connected block; address events only for txs not already announced from the mempool. */
export function blockEvents(
  params: NetworkParams,
  block: Block,
  connected: ConnectedBlock,
  receivedAt: number,
  /** Prevouts of the block's txs for address events; null: no address events (initial sync). */
  prevoutsOf: PrevoutLookup | null,
): DomainEvent[] {
  const network = params.id;
  const coinbase = block.txs[0];
  const miner = coinbase ? blockMiner(params, coinbase) : null;
  const events: DomainEvent[] = [
    {
      kind: 'block_connected',
      network,
      height: connected.height,
      hash: connected.hash,
      prevHash: connected.prevHash,
      merkleRoot: block.header.merkleRoot,
      time: block.header.time,
      bits: block.header.bits,
      size: connected.size,
      txCount: connected.txCount,
      minerAddress: miner?.address ?? null,
      minerTag: miner?.tag ?? null,
      receivedAt,
    },
  ];
  for (const txid of connected.confirmedFromMempool) events.push({ kind: 'tx_removed', network, txid, reason: 'confirmed' });
  for (const txid of connected.conflicted) events.push({ kind: 'tx_removed', network, txid, reason: 'conflicted' });
  if (prevoutsOf) {
    const alreadyAnnounced = new Set(connected.confirmedFromMempool);
    const byTxid = new Map(block.txs.map((tx) => [tx.txid, tx]));
    for (const delta of connected.deltas) {
      if (alreadyAnnounced.has(delta.txid)) continue;
      const tx = byTxid.get(delta.txid);
      if (tx) events.push({ kind: 'address_touched', network, txid: delta.txid, tx, delta, confirmed: true, prevouts: prevoutsOf(delta.txid) });
    }
  }
  return events;
}

export function mempoolTxEvents(
  network: NetworkId,
  tx: Transaction,
  seenAt: number,
  fee: bigint | null,
  deltas: readonly ScriptDelta[],
  mempoolSize: number,
  prevouts: readonly (PrevoutInfo | null)[] | null,
): DomainEvent[] {
  const outputSum = tx.outputs.reduce((sum, o) => sum + o.value, 0n);
  const events: DomainEvent[] = [
    { kind: 'tx_accepted', network, tx, seenAt, inputValue: fee === null ? null : fee + outputSum, deltas, mempoolSize, prevouts },
  ];
  for (const delta of deltas) events.push({ kind: 'address_touched', network, txid: tx.txid, tx, delta, confirmed: false, prevouts });
  return events;
}
