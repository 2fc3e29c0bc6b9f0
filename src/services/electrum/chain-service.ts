/**
 * Headers as the Electrum protocol serves them (protocol-methods.rst: blockchain.block.header(s),
 * blockchain.headers.subscribe): 80-byte headers of the main chain from the index (a Dogecoin header is served
 * without its AuxPoW, as ElectrumX does), at most `maxHeaders` per request, and checkpoint proofs (header-proofs.ts).
 */
import type { NetworkId } from '../../core/domain/network.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { ScriptHashReader } from '../../core/store/script-hash-reads.js';
import type { SyncGate } from '../shared/sync-gate.js';
import { ElectrumRequestError } from './electrum-request-error.js';
import { HeaderProofs } from './header-proofs.js';
import { displayHex } from './merkle.js';

export interface HeaderProof {
  readonly branch: string[];
  readonly root: string;
}

export class ElectrumChainService {
  readonly proofs: HeaderProofs;

  constructor(
    readonly network: NetworkId,
    private readonly index: ScriptHashReader,
    /** Gated. */
    private readonly reader: NetworkReader,
    private readonly gate: SyncGate,
  ) {
    this.proofs = new HeaderProofs((from, to) => this.index.blockHashes(from, to));
  }

  /** The tip's height and header; null before the first block. */
  async tip(): Promise<{ height: number; hex: string } | null> {
    // A reorg between the two reads can shorten the chain under the tip read first: then the tip is read again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const tip = await this.reader.getTip();
      if (!tip) return null;
      const [header] = await this.index.headers(tip.height, 1);
      if (header) return { height: tip.height, hex: Buffer.from(header).toString('hex') };
    }
    throw new ElectrumRequestError('the chain is changing; ask again');
  }

  async tipHeight(): Promise<number> {
    return (await this.reader.getTip())?.height ?? -1;
  }

  /** Main-chain headers from `start`, at most `count` (fewer at the tip). */
  async headers(start: number, count: number): Promise<Uint8Array[]> {
    await this.gate.check(this.network);
    return this.index.headers(start, count);
  }

  async header(height: number): Promise<string> {
    const [header] = await this.headers(height, 1);
    if (!header) throw new ElectrumRequestError(`height ${height} is out of range`);
    return Buffer.from(header).toString('hex');
  }

  /** Checks height <= cpHeight <= tip, as Fulcrum words it. */
  async checkCheckpoint(height: number, cpHeight: number, what = 'header height'): Promise<void> {
    const tip = await this.tipHeight();
    if (!(height <= cpHeight && cpHeight <= tip)) throw new ElectrumRequestError(`${what} ${height} must be <= cp_height ${cpHeight} which must be <= chain height ${tip}`);
  }

  async proof(height: number, cpHeight: number): Promise<HeaderProof> {
    await this.gate.check(this.network);
    const { branch, root } = await this.proofs.branchAndRoot(height, cpHeight);
    return { branch: branch.map(displayHex), root: displayHex(root) };
  }
}
