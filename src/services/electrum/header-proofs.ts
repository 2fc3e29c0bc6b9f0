/**
 * Proofs that a header is in the chain up to a checkpoint (cp_height): the branch of its block hash in the merkle tree
 * over the hashes of heights 0..cp_height, and that tree's root (protocol-basics.rst, "Block Headers"). Hashing the
 * whole chain per request would read and hash every block hash (850,000 on Bitcoin), so, as ElectrumX does, the roots
 * of complete aligned chunks of 2^bits heights are kept: a proof reads the 2^bits hashes of its own chunk and hashes
 * the list of chunk roots (on Bitcoin ~830 at 1,024 per chunk: 27 kB of memory). A complete chunk's root does not
 * depend on cp_height; the last, partial chunk's is made from its hashes each time. A reorg drops the roots from its
 * height up (`invalidateFrom`), and a proof computed while one happened does not store what it made.
 */
import { StoreError } from '../../core/domain/errors.js';
import { branchOf, merkleLevel, merkleLevels } from './merkle.js';

/** Block hashes (internal byte order) of heights from..to inclusive, main chain. */
export type BlockHashRange = (fromHeight: number, toHeight: number) => Promise<Uint8Array[]>;

/** Exactly `depth` levels above the leaves (a level of one hash is paired with itself like any odd one). */
function chunkLevels(leaves: readonly Uint8Array[], depth: number): Uint8Array[][] {
  const levels = [[...leaves]];
  for (let d = 0; d < depth; d++) levels.push(merkleLevel(levels[d]!));
  return levels;
}

/** Chunk roots read per statement: 64 × 1,024 hashes, 2 MB. */
const CHUNKS_PER_READ = 64;

export class HeaderProofs {
  private readonly roots = new Map<number, Uint8Array>();
  private generation = 0;
  private readonly size: number;

  constructor(private readonly hashes: BlockHashRange, private readonly bits = 10) {
    this.size = 2 ** bits;
  }

  /** The chain changed from `height` up (a reorg): chunk roots covering it are no longer known. */
  invalidateFrom(height: number): void {
    this.generation++;
    const first = Math.floor(Math.max(0, height) / this.size);
    for (const chunk of [...this.roots.keys()]) if (chunk >= first) this.roots.delete(chunk);
  }

  /** `height` <= `cpHeight` <= the tip; the caller checks. */
  async branchAndRoot(height: number, cpHeight: number): Promise<{ branch: Uint8Array[]; root: Uint8Array }> {
    const generation = this.generation;
    const count = cpHeight + 1;
    if (count <= this.size) {
      const levels = merkleLevels(await this.read(0, cpHeight));
      return { branch: branchOf(levels, height), root: levels.at(-1)![0]! };
    }
    const own = Math.floor(height / this.size);
    const last = Math.floor(cpHeight / this.size);
    const ownLevels = chunkLevels(await this.read(own * this.size, Math.min(cpHeight, (own + 1) * this.size - 1)), this.bits);
    const lastComplete = cpHeight === (last + 1) * this.size - 1 ? last : last - 1;
    const roots: Uint8Array[] = [];
    for (let chunk = 0; chunk <= last; chunk++) {
      if (chunk === own) roots.push(ownLevels[this.bits]![0]!);
      else if (chunk > lastComplete) roots.push(chunkLevels(await this.read(last * this.size, cpHeight), this.bits)[this.bits]![0]!);
      else roots.push(this.roots.get(chunk) ?? (await this.completeRoots(chunk, Math.min(lastComplete, chunk + CHUNKS_PER_READ - 1), generation)).get(chunk)!);
    }
    const upper = merkleLevels(roots);
    return { branch: [...branchOf(ownLevels, height - own * this.size).slice(0, this.bits), ...branchOf(upper, own)], root: upper.at(-1)![0]! };
  }

  /** The roots of complete chunks from..to (one read), kept unless the chain changed meanwhile. */
  private async completeRoots(from: number, to: number, generation: number): Promise<Map<number, Uint8Array>> {
    const hashes = await this.read(from * this.size, (to + 1) * this.size - 1);
    const out = new Map<number, Uint8Array>();
    for (let chunk = from; chunk <= to; chunk++) {
      const start = (chunk - from) * this.size;
      const root = chunkLevels(hashes.slice(start, start + this.size), this.bits)[this.bits]![0]!;
      out.set(chunk, root);
      if (generation === this.generation) this.roots.set(chunk, root);
    }
    return out;
  }

  private async read(from: number, to: number): Promise<Uint8Array[]> {
    const hashes = await this.hashes(from, to);
    if (hashes.length !== to - from + 1) throw new StoreError(`block hashes ${from}..${to}: ${hashes.length} found (the chain changed)`);
    return hashes;
  }
}
