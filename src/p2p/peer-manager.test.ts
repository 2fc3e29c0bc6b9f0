import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { silentLogger, type PeerNetworkEvents, type PeerSummary, type Transaction } from '../core/index.js';
import { getNetworkParams } from '../chains/networks.js';
import { parseTransaction } from '../chains/parsing.js';
import { FakePeer, type FakePeerConnection } from '../../test/helpers/fake-peer.js';
import { waitFor } from '../../test/helpers/regtest-node.js';
import { encodeFrame, HEADER_SIZE, magicBytes } from './wire/frame.js';
import { encodeInventory, encodeNonce, InvType } from './wire/messages.js';
import { PeerManager, type PeerManagerOptions } from './peer-manager.js';

const params = getNetworkParams('LTCTEST', 'regtest');
/** A real regtest wallet payment, as litecoind sent it to our listener (the capture the wire tests use). */
const capture = JSON.parse(readFileSync(new URL('wire/fixtures/ltc-regtest.json', import.meta.url), 'utf8')) as { frames: { command: string; hex: string }[] };
const TX = Uint8Array.from(Buffer.from(capture.frames.find((f) => f.command === 'tx')!.hex, 'hex').subarray(HEADER_SIZE));

class Recorder implements PeerNetworkEvents {
  readonly connected: PeerSummary[] = [];
  readonly disconnected: { peer: PeerSummary; reason: string }[] = [];
  readonly announced: { peer: number; txids: readonly string[] }[] = [];
  readonly txs: { peer: number; tx: Transaction }[] = [];
  readonly notFound: string[] = [];
  peerConnected(peer: PeerSummary): void {
    this.connected.push(peer);
  }
  peerDisconnected(peer: PeerSummary, reason: string): void {
    this.disconnected.push({ peer, reason });
  }
  txAnnounced(peer: number, txids: readonly string[]): void {
    this.announced.push({ peer, txids });
  }
  txReceived(peer: number, tx: Transaction): void {
    this.txs.push({ peer, tx });
  }
  txNotFound(_peer: number, txids: readonly string[]): void {
    this.notFound.push(...txids);
  }
}

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function manager(options: Partial<PeerManagerOptions> & { configured: readonly string[] }): Promise<{ m: PeerManager; events: Recorder }> {
  const events = new Recorder();
  const m = new PeerManager({
    magic: params.p2pMagic, protocolVersion: params.p2pProtocolVersion, defaultPort: params.defaultP2pPort, witness: true, mweb: true,
    discovery: null, targetPeers: 8, userAgent: '/Outpoint:test/', events, logger: silentLogger, fillIntervalMs: 100, ...options,
  });
  m.start();
  cleanups.push(() => m.stop());
  return { m, events };
}

async function fake(options: Partial<ConstructorParameters<typeof FakePeer>[0]> = {}): Promise<FakePeer> {
  const peer = await FakePeer.listen({ magic: params.p2pMagic, ...options });
  cleanups.push(() => peer.close());
  return peer;
}

describe('P2P peer manager over loopback', () => {
  it('handshakes, reports announcements, fetches announced txs with witnesses, and hears notfound', async () => {
    const peer = await fake();
    const { m, events } = await manager({ configured: [peer.address] });
    const conn = await peer.nextConnection();
    await waitFor(() => events.connected.length === 1, 5_000, 'handshake');
    assert.equal(events.connected[0]!.userAgent, '/FakePeer:1.0/');
    assert.equal(events.connected[0]!.configured, true);
    const version = conn.received.find((f) => f.command === 'version')!;
    assert.ok(version, 'we sent version');
    assert.ok(!conn.received.some((f) => f.command === 'wtxidrelay'), 'never wtxidrelay: peers announce by txid');
    const txid = parseTransaction(TX, { mweb: true }).txid;
    peer.offer(txid, TX);
    conn.announce([txid, 'cd'.repeat(32)]);
    await waitFor(() => events.announced.length === 1, 5_000, 'announcement');
    const peerId = events.connected[0]!.id;
    assert.deepEqual(events.announced[0], { peer: peerId, txids: [txid, 'cd'.repeat(32)] });
    assert.equal(m.requestTxs(peerId, [txid, 'cd'.repeat(32)]), true);
    await waitFor(() => events.txs.length === 1 && events.notFound.length === 1, 5_000, 'tx and notfound');
    assert.equal(events.txs[0]!.tx.txid, txid);
    assert.deepEqual(events.notFound, ['cd'.repeat(32)]);
    assert.deepEqual(conn.requested().map((e) => e.type), [InvType.WITNESS_TX, InvType.WITNESS_TX]);
    conn.send('ping', encodeNonce(77n));
    await waitFor(() => conn.received.some((f) => f.command === 'pong'), 5_000, 'pong');
    conn.send('feefilter', Buffer.from('e803000000000000', 'hex'));
    await waitFor(() => m.peers()[0]?.feeFilter === 1000n, 5_000, 'feefilter recorded');
    // Messages a listener does not need are read and ignored, not treated as misbehaviour.
    for (const command of ['sendheaders', 'sendcmpct', 'wtxidrelay', 'addr', 'getheaders', 'reject']) conn.send(command, Uint8Array.of(0));
    await delay(200);
    assert.equal(m.peers().length, 1);
  });

  for (const [name, misbehave, reason] of [
    ['garbage bytes', (c: FakePeerConnection) => c.write(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')), /wrong magic/],
    ['another network\'s magic', (c: FakePeerConnection) => c.write(encodeFrame(magicBytes(getNetworkParams('DOGE').p2pMagic), 'ping', encodeNonce(1n))), /wrong magic/],
    ['an oversized message header', (c: FakePeerConnection) => {
      const header = Buffer.from(encodeFrame(magicBytes(params.p2pMagic), 'tx', new Uint8Array(0)).subarray(0, HEADER_SIZE));
      header.writeUInt32LE(32 * 1024 * 1024, 16);
      return c.write(header);
    }, /oversized/],
    ['a bad checksum', (c: FakePeerConnection) => {
      const frame = Buffer.from(encodeFrame(magicBytes(params.p2pMagic), 'ping', encodeNonce(1n)));
      frame[21] = frame[21]! ^ 1;
      return c.write(frame);
    }, /bad checksum/],
    ['a malformed inv', (c: FakePeerConnection) => c.send('inv', Uint8Array.of(5, 1, 2)), /malformed inv/],
    ['an inv flood', (c: FakePeerConnection) => {
      const inv = encodeInventory(Array.from({ length: 50_000 }, (_, i) => ({ type: InvType.TX, hash: i.toString(16).padStart(64, '0') })));
      for (let i = 0; i < 4; i++) c.send('inv', inv);
      return true;
    }, /inv flood/],
  ] as const) {
    it(`drops a peer that sends ${name}, keeps no more than a header of it, and reconnects after a backoff`, async () => {
      const peer = await fake();
      const { m, events } = await manager({ configured: [peer.address] });
      const conn = await peer.nextConnection();
      await waitFor(() => events.connected.length === 1, 5_000, 'handshake');
      const again = peer.nextConnection(5_000);
      misbehave(conn);
      await waitFor(() => events.disconnected.length === 1, 5_000, 'dropped');
      assert.match(events.disconnected[0]!.reason, reason);
      assert.equal(m.bufferedBytes, 0);
      // A misbehaving peer is not retried at once (a configured one after a minute: address-book.test.ts).
      await assert.rejects(again, /no connection/);
      assert.equal(m.peers().length, 0);
    });
  }

  it('reconnects to a configured peer that hung up, within seconds', async () => {
    const peer = await fake();
    const { events } = await manager({ configured: [peer.address] });
    const conn = await peer.nextConnection();
    await waitFor(() => events.connected.length === 1, 5_000, 'handshake');
    const again = peer.nextConnection(5_000);
    conn.socket.destroy();
    await waitFor(() => events.disconnected.length === 1, 5_000, 'disconnect seen');
    await again;
    await waitFor(() => events.connected.length === 2, 5_000, 'second handshake');
  });

  it('gives up a handshake the peer never answers', async () => {
    const peer = await fake({ handshake: false });
    const { m } = await manager({ configured: [peer.address], limits: { handshakeTimeoutMs: 300 } });
    const conn = await peer.nextConnection();
    await waitFor(() => conn.closed, 5_000, 'handshake timeout');
    assert.equal(m.peers().length, 0);
  });

  it('connects every configured peer even beyond the target, and discovered ones up to it, one per /16', async () => {
    const configured = [await fake(), await fake(), await fake()];
    const sameRange = [await fake({ host: '127.0.0.2' }), await fake({ host: '127.0.0.3' })];
    const otherRange = await fake({ host: '127.1.0.1' });
    const discovery = { candidates: async () => [...sameRange, otherRange].map((p) => p.address) };
    const { m } = await manager({ configured: configured.map((p) => p.address), targetPeers: 2, discovery });
    await waitFor(() => m.peers().length === 3, 5_000, 'configured peers');
    await delay(500);
    assert.equal(m.peers().length, 3, 'the target (2) is met by configured peers: nothing discovered');
    const { m: wide } = await manager({ configured: [], targetPeers: 8, discovery });
    await waitFor(() => wide.peers().length === 2, 5_000, 'discovered peers');
    await delay(500);
    const addresses = wide.peers().map((p) => p.address.split(':')[0]);
    assert.equal(addresses.length, 2, `one per /16: ${addresses.join(', ')}`);
    assert.ok(addresses.includes('127.1.0.1'));
  });
});
