/**
 * P2P fuzz: scripted peers that the fuzzed process's P2P listener connects to (they are its `p2p_peers`), which,
 * once the handshake is done, send it messages: well-formed ones (kept in the mix so a session lasts), payloads with
 * byte edits, and frames broken in magic, command, length or checksum. The listener drops a peer at its first
 * violation and retries a configured one a minute later; each message sent is a case.
 */
import { encodeFrame, magicBytes } from '../../../src/p2p/wire/frame.js';
import { encodeFeeFilter, encodeInventory, encodeNonce, InvType } from '../../../src/p2p/wire/messages.js';
import { FakePeer, type FakePeerConnection } from '../fake-peer.js';
import type { FuzzRandom } from './fuzz-random.js';

export class P2pFuzz {
  private constructor(
    private readonly peers: readonly FakePeer[],
    private readonly magic: Uint8Array,
    private readonly rawTx: Uint8Array,
  ) {}

  /** `count` peers on loopback; `rawTx` a transaction of the chain (served when asked for, and mutated). */
  static async start(magicHex: string, count: number, rawTx: Uint8Array): Promise<P2pFuzz> {
    const peers = await Promise.all(Array.from({ length: count }, () => FakePeer.listen({ magic: magicHex })));
    return new P2pFuzz(peers, magicBytes(magicHex), rawTx);
  }

  /** For `p2p_peers`. */
  get addresses(): string[] {
    return this.peers.map((p) => p.address);
  }

  /** Connections whose handshake is done (the listener sent verack) and that are still open. */
  private ready(): FakePeerConnection[] {
    return this.peers.flatMap((p) => p.connections).filter((c) => !c.closed && c.received.some((f) => f.command === 'verack'));
  }

  /** Sessions ever started (connections accepted), for the run's summary. */
  get sessions(): number {
    return this.peers.reduce((n, p) => n + p.connections.length, 0);
  }

  /** Sends one message of case `random` to an open session; false when none is open (all dropped, not yet retried). */
  send(random: FuzzRandom): boolean {
    const open = this.ready();
    if (open.length === 0) return false;
    const connection = random.pick(open);
    const [command, payload] = this.message(random);
    const frame = Buffer.from(encodeFrame(this.magic, command, payload));
    // Mostly messages a peer may send (a session that is not dropped at once carries more cases), a fifth with a
    // broken payload, a tenth broken in the frame itself: the first violation ends the session.
    const roll = random.float();
    if (roll < 0.1) {
      switch (random.int(5)) {
        case 0:
          frame.set(random.bytes(4), 20); // checksum
          break;
        case 1:
          frame.writeUInt32LE(random.pick([0, payload.length + 1 + random.int(64), 4_000_001, 0xffffffff]), 16); // length
          break;
        case 2:
          frame.set(random.bytes(4), 0); // magic
          break;
        case 3:
          frame.set(random.bytes(3), 4 + random.int(10)); // command bytes
          break;
        default:
          connection.write(random.bytes(1 + random.int(64)));
          return true;
      }
    } else if (roll < 0.3) {
      connection.write(encodeFrame(this.magic, command, random.mutateBytes(Buffer.from(payload))));
      return true;
    }
    connection.write(frame);
    return true;
  }

  private message(random: FuzzRandom): [string, Uint8Array] {
    const hashes = (): string => random.bytes(32).toString('hex');
    const inventory = (type: number): Uint8Array => encodeInventory(Array.from({ length: 1 + random.int(20) }, () => ({ type, hash: hashes() })));
    const [command, payload]: [string, Uint8Array] = random.pick<() => [string, Uint8Array]>([
      () => ['ping', encodeNonce(BigInt(random.int(2 ** 31)))],
      () => ['pong', encodeNonce(1n)],
      () => ['inv', inventory(InvType.TX)],
      () => ['inv', inventory(random.pick([InvType.BLOCK, InvType.WITNESS_TX, 7, 0x40000001]))],
      () => ['notfound', inventory(InvType.TX)],
      () => ['getdata', inventory(InvType.TX)],
      () => ['tx', this.rawTx],
      () => ['feefilter', encodeFeeFilter(BigInt(random.int(100_000)))],
      () => ['addr', Buffer.concat([Buffer.from([1]), random.bytes(30)])],
      () => ['headers', Buffer.from([0])],
      () => ['sendheaders', new Uint8Array(0)],
      () => ['sendcmpct', Buffer.from([0, 1, 0, 0, 0, 0, 0, 0, 0])],
      () => ['wtxidrelay', new Uint8Array(0)],
      () => ['mempool', new Uint8Array(0)],
      () => [random.pick(['version', 'verack', 'xyzzy', 'reject']), random.bytes(random.int(100))],
    ])();
    return [command, payload];
  }

  async close(): Promise<void> {
    await Promise.all(this.peers.map((p) => p.close()));
  }
}
