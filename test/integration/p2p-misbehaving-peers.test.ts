/**
 * Peers that are not Bitcoin-protocol nodes, or abuse it, against `outpoint serve` (in-process) indexing a real
 * litecoind: garbage bytes, an oversized message, another network's magic, an inv flood. Each connection is dropped,
 * memory stays bounded, the honest peer (the node) keeps working and the API keeps answering throughout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { encodeFrame, HEADER_SIZE, magicBytes } from '../../src/p2p/wire/frame.js';
import { encodeInventory, encodeNonce, InvType } from '../../src/p2p/wire/messages.js';
import { FakePeer, type FakePeerConnection } from '../helpers/fake-peer.js';
import { serveOutpoint, signedSpend, walletUtxo, type ServedOutpoint } from '../helpers/p2p-network.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';

const N = 'LTCTEST';
const params = getNetworkParams(N, 'regtest');
const magic = magicBytes(params.p2pMagic);
let node: RegtestNode;
let outpoint: ServedOutpoint;
const fakes: Record<'garbage' | 'oversized' | 'magic' | 'flood', FakePeer> = {} as never;
const connections: Partial<Record<keyof typeof fakes, FakePeerConnection>> = {};

before(async () => {
  node = await startLitecoind({ funded: true });
  for (const name of ['garbage', 'oversized', 'magic', 'flood'] as const) fakes[name] = await FakePeer.listen({ magic: params.p2pMagic });
  const accepted = Object.entries(fakes).map(async ([name, fake]) => {
    connections[name as keyof typeof fakes] = await fake.nextConnection(20_000);
  });
  outpoint = await serveOutpoint(N, node, [node], { OUTPOINT_NETWORKS_LTCTEST_P2P_PEERS: [`127.0.0.1:${node.p2pPort}`, ...Object.values(fakes).map((f) => f.address)].join(',') });
  await Promise.all(accepted);
  await waitFor(() => outpoint.runtime.networks[0]!.p2p.listener?.peers().length === 5, 20_000, 'five peers');
});

after(async () => {
  await outpoint?.stop();
  for (const fake of Object.values(fakes)) await fake.close();
  await node?.stop();
});

/** The API answers, quickly, while peers misbehave. */
async function answering(): Promise<void> {
  const started = Date.now();
  const info = await outpoint.get<{ data: { blocks: number } }>(`/api/v2/get_info/${N}`);
  assert.equal(info.status, 200);
  assert.ok(Date.now() - started < 5_000, `get_info took ${Date.now() - started} ms`);
}

describe('misbehaving P2P peers', () => {
  it('garbage bytes, an oversized message header and another network\'s magic each get the connection dropped', async () => {
    connections.garbage!.write(Buffer.from('\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not a bitcoin peer at all'.repeat(10)));
    const header = Buffer.from(encodeFrame(magic, 'tx', new Uint8Array(0)).subarray(0, HEADER_SIZE));
    header.writeUInt32LE(64 * 1024 * 1024, 16);
    connections.oversized!.write(header);
    connections.oversized!.write(Buffer.alloc(256 * 1024, 0x42));
    connections.magic!.write(encodeFrame(magicBytes(getNetworkParams('LTC').p2pMagic), 'ping', encodeNonce(1n)));
    for (const name of ['garbage', 'oversized', 'magic'] as const) await waitFor(() => connections[name]!.closed, 5_000, `${name} dropped`);
    await answering();
    assert.equal(outpoint.runtime.networks[0]!.p2p.listener!.bufferedBytes, 0, 'nothing of theirs is held');
  });

  it('an inv flood is dropped with bounded memory; the service answers throughout and the honest peer keeps working', async () => {
    const runtime = outpoint.runtime.networks[0]!.p2p;
    const heapBefore = process.memoryUsage().heapUsed;
    const flood = connections.flood!;
    let sent = 0;
    const random = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
    // 50,000 fresh txids per message (the protocol's maximum), as fast as the socket takes them.
    const flooding = (async () => {
      while (!flood.closed && sent < 40) {
        flood.send('inv', encodeInventory(Array.from({ length: 50_000 }, () => ({ type: InvType.TX, hash: random() }))));
        sent++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const answers = (async () => {
      while (!flood.closed) await answering();
    })();
    await flooding;
    await waitFor(() => flood.closed, 10_000, 'flooding peer dropped');
    await answers;
    await waitFor(() => runtime.watcher.stats.fetching === 0, 5_000, 'its announcements no longer fetched');
    const stats = runtime.watcher.stats;
    console.log(`# flood: ${sent} invs of 50,000 sent before the drop; book ${stats.announced} txids, fetch queue ${stats.fetching}; heap +${Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e6)} MB`);
    assert.ok(sent < 10, `dropped after ${sent} messages`);
    assert.ok(stats.fetching <= 50_000, JSON.stringify(stats));
    assert.equal(stats.announced, 0, 'what a dropped peer announced is withdrawn');
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 200e6, 'heap growth bounded');
    // The node (an honest peer) still announces, and its txs are still sighted.
    const payment = await signedSpend(node, await walletUtxo(node), await node.newAddress('bech32'), 100_000n);
    await node.rpc.call('sendrawtransaction', [payment.hex]);
    await waitFor(() => (runtime.watcher.sighting(payment.txid)?.announcedBy ?? 0) === 1, 10_000, 'honest announcement');
    await answering();
    assert.equal(runtime.listener!.peers().length, 1, 'only the node is left');
  });
});
