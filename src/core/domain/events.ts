import type { NetworkId } from './network.js';
import type { Sats } from './money.js';
import type { Transaction, Outpoint, PrevoutInfo, ScriptDelta } from './chain-types.js';

/**
 * What the publishing process's event log adds to an event that has realtime channel events (docs/realtime.md,
 * Catch-up): its `event_id`, increasing per network. Absent when no log is kept (tests, a failed log write).
 */
export interface LoggedEvent {
  readonly eventId?: number;
}

export interface BlockConnectedEvent extends LoggedEvent {
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

export interface TxAcceptedEvent extends LoggedEvent {
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
export interface AddressTouchedEvent extends LoggedEvent {
  readonly kind: 'address_touched';
  readonly network: NetworkId;
  readonly txid: string;
  readonly tx: Transaction;
  readonly delta: ScriptDelta;
  readonly confirmed: boolean;
  /** The outputs the tx spends, one per input (null for a coinbase input); null when not looked up. */
  readonly prevouts: readonly (PrevoutInfo | null)[] | null;
}

/**
 * Another transaction spends coins this one spends (an extension of the interface: realtime `double_spend`, docs/realtime.md). One event
 * per transaction that lost or may lose its coins; both sides of a plain double spend get one each.
 */
export interface DoubleSpendEvent extends LoggedEvent {
  readonly kind: 'double_spend';
  readonly network: NetworkId;
  /** The transaction whose payment may not (or will not) happen. */
  readonly txid: string;
  /** The competing spenders known at detection. */
  readonly conflictingTxids: readonly string[];
  /**
   * double_spend: competing unconfirmed spends (no replacement rule decides between them); replaced: a BIP125
   * replacement took its place; conflicted: a block confirmed another spend.
   */
  readonly reason: 'double_spend' | 'replaced' | 'conflicted';
  /** Where the competing spend was seen: relayed by P2P peers, in our node's mempool, or in a block. */
  readonly seenIn: 'peers' | 'mempool' | 'block';
  /** The outpoints both spend. */
  readonly outpoints: readonly Outpoint[];
  /** Scripts of every address involved (what this tx spends and pays, what its competitors pay), for address channels. */
  readonly scripts: readonly Uint8Array[];
  /** UNIX seconds of detection. */
  readonly time: number;
}

/** One of a watched wallet's addresses, as a tx touched it (WalletTouchedEvent). */
export interface WalletAddressTouch {
  readonly script: Uint8Array;
  /** Its address (canonical spelling), null for a script without one (P2PK, bare multisig, some raw()). */
  readonly address: string | null;
  /** Its path from the wallet's keys (`0/5`), null where nothing is derived (plain keys, addr(), raw()). */
  readonly path: string | null;
  readonly received: Sats;
  readonly sent: Sats;
}

/**
 * A tx touched a wallet the writer watches (issue 50: a wallet webhook's wallet; docs/webhooks.md): one event per tx
 * and wallet, on first sight (mempool, or a block for a tx never seen unconfirmed), whatever number of the wallet's
 * addresses it touched. Published by the writer's wallet watcher from the tx's address_touched events.
 */
export interface WalletTouchedEvent extends LoggedEvent {
  readonly kind: 'wallet_touched';
  readonly network: NetworkId;
  /** The wallet's id: its normalised descriptor's checksum (the channel `wallet_{network}_{id}`). */
  readonly wallet: string;
  readonly txid: string;
  readonly confirmed: boolean;
  /** What the tx paid to the wallet's addresses and what it spent from them (the net is received - sent). */
  readonly received: Sats;
  readonly sent: Sats;
  /** The wallet's addresses the tx touched, in the tx's order (outputs' addresses first seen, then inputs'). */
  readonly addresses: readonly WalletAddressTouch[];
  /** UNIX seconds when the watcher saw it. */
  readonly time: number;
  /**
   * Set when the event reports that the tx is double-spent or replaced (a double_spend event involving the wallet's
   * addresses): the amounts are then 0 and `addresses` the wallet's addresses involved.
   */
  readonly doubleSpend?: Pick<DoubleSpendEvent, 'conflictingTxids' | 'reason' | 'seenIn'>;
}

export interface PriceEvent {
  readonly kind: 'price';
  readonly coin: string;
  readonly base: string;
  readonly exchange: string;
  readonly price: string;
  readonly time: number;
}

/**
 * What happened, as the indexer, the P2P watcher and the market publish it. What each kind is to the outside (its channel
 * events live and logged, its webhook deliveries) is its entry in the event catalogue, services/events/catalogue/.
 */
export type DomainEvent =
  | BlockConnectedEvent
  | BlockDisconnectedEvent
  | TxAcceptedEvent
  | TxRemovedEvent
  | AddressTouchedEvent
  | DoubleSpendEvent
  | WalletTouchedEvent
  | PriceEvent;

/** In-process by default; a Redis implementation carries the same events between processes. */
export interface EventBus {
  publish(event: DomainEvent): void;
  subscribe(handler: (event: DomainEvent) => void): () => void;
  /**
   * Back-pressure for a publisher that can outrun what takes its events on (the event log's writes, webhook matching):
   * resolves once their queues are back within their bounds. The indexer awaits it between batches, so a catch-up of
   * hundreds of blocks waits for its events to be logged instead of holding them all in memory (docs/benchmarks.md,
   * "The backlog behind a catch-up"). Absent: nothing queues. `maxQueued`: a tighter bound than the queues' own
   * (a mempool taken in one pass waits for its events to go out, so what comes after it, a block, does not queue
   * behind tens of thousands of them).
   */
  absorbed?(maxQueued?: number): Promise<void>;
}
