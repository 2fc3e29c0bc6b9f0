import { auxPowChainId, ByteReader, coinbaseTag, hasAuxPow, readAuxPow, readBlockHeader } from '../../chains/parsing.js';
import type { ChainSource } from '../../core/sources/chain-source.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { BlockRecord } from '../../core/store/chain-reads.js';
import type { NetworkContext } from '../shared/network-registry.js';

/** Raw blocks as the node serves them (the index keeps header fields, not the AuxPoW proof). */
export type RawBlockSource = Pick<ChainSource, 'getRawBlocks'>;

/** The parent chain's block whose proof of work a merge-mined block (Dogecoin) reuses. */
export interface AuxPowParent {
  /** The parent block's hash (sha256d of its 80-byte header, display order). */
  readonly hash: string;
  readonly time: number;
  /** The chain id from the child's version (0x62 for Dogecoin). */
  readonly chainId: number;
  /** The pool's tag in the parent's coinbase (chains' one miner-tag rule), "" when none. */
  readonly coinbaseTag: string;
}

const CACHE_LIMIT = 1_000;

/**
 * Reads the AuxPoW parent of a merge-mined block from the node (one getblock, only for blocks whose version has
 * the AuxPoW bit) and remembers it: a block's proof never changes.
 */
export class AuxPowParentService {
  private readonly cache = new Map<string, AuxPowParent>();

  constructor(private readonly sources: ReadonlyMap<NetworkId, RawBlockSource>) {}

  /** null when the block is not merge-mined or no node is configured to read it from. */
  async parentOf(network: NetworkContext, block: BlockRecord): Promise<AuxPowParent | null> {
    if (!network.params.features.auxpow || !hasAuxPow(block.version)) return null;
    const key = `${network.id}:${block.hash}`;
    const known = this.cache.get(key);
    if (known) return known;
    const source = this.sources.get(network.id);
    if (!source) return null;
    const [raw] = await source.getRawBlocks([block.hash]);
    if (!raw) return null;
    const reader = new ByteReader(raw);
    const header = readBlockHeader(reader);
    if (header.hash !== block.hash || !hasAuxPow(header.version)) return null;
    const auxpow = readAuxPow(reader);
    const parent: AuxPowParent = {
      hash: auxpow.parentHeader.hash,
      time: auxpow.parentHeader.time,
      chainId: auxPowChainId(header.version),
      coinbaseTag: coinbaseTag(auxpow.parentCoinbase) ?? '',
    };
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, parent);
    return parent;
  }
}
