import type { NetworkId } from './network.js';
import type { Sats } from './money.js';
import type { Transaction } from './chain-types.js';
import type { PrevoutInfo, ScriptDelta } from './store.js';

export interface BlockConnectedEvent {
  readonly kind: 'block_connected';
  readonly network: NetworkId;
  readonly height: number;
  readonly hash: string;
  readonly prevHash: string;
  readonly merkleRoot: string;
  readonly time: number;
  readonly bits: number;
  readonly size: number;
  readonly txCount: number;
  /** chains' blockMiner: the address the coinbase's first paying output pays, and the pool's coinbase tag. */
  readonly minerAddress: string | null;
  readonly minerTag: string | null;
  /** Local time the indexer connected the block (UNIX seconds). */
  readonly receivedAt: number;
}

export interface BlockDisconnectedEvent {
  readonly kind: 'block_disconnected';
  readonly network: NetworkId;
  readonly height: number;
  readonly hash: string;
}

export interface TxAcceptedEvent {
  readonly kind: 'tx_accepted';
  readonly network: NetworkId;
  readonly tx: Transaction;
  readonly seenAt: number;
  /** Sum of the tx's input values (prevouts), when known. */
  readonly inputValue: Sats | null;
  readonly deltas: readonly ScriptDelta[];
  readonly mempoolSize: number;
  /** The outputs the tx spends, one per input (null for a coinbase input); null when not looked up. */
  readonly prevouts: readonly (PrevoutInfo | null)[] | null;
}

export interface TxRemovedEvent {
  readonly kind: 'tx_removed';
  readonly network: NetworkId;
  readonly txid: string;
  readonly reason: 'confirmed' | 'evicted' | 'replaced' | 'conflicted';
}

/** A transaction touched an address: emitted for mempool entry and for txs first seen in a block. */
export interface AddressTouchedEvent {
  readonly kind: 'address_touched';
  readonly network: NetworkId;
  readonly txid: string;
  readonly tx: Transaction;
  readonly delta: ScriptDelta;
  readonly confirmed: boolean;
  /** The outputs the tx spends, one per input (null for a coinbase input); null when not looked up. */
  readonly prevouts: readonly (PrevoutInfo | null)[] | null;
}

export interface PriceEvent {
  readonly kind: 'price';
  readonly coin: string;
  readonly base: string;
  readonly exchange: string;
  readonly price: string;
  readonly time: number;
}

export type DomainEvent =
  | BlockConnectedEvent
  | BlockDisconnectedEvent
  | TxAcceptedEvent
  | TxRemovedEvent
  | AddressTouchedEvent
  | PriceEvent;

/** In-process by default; a Redis implementation carries the same events between processes. */
export interface EventBus {
  publish(event: DomainEvent): void;
  subscribe(handler: (event: DomainEvent) => void): () => void;
}
