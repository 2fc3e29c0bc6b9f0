/**
 * Records the P2P messages a real node sends to a listener, for src/p2p/wire's round-trip tests:
 *   node --import tsx test/helpers/p2p-capture.ts
 * starts litecoind and bitcoind on regtest, connects to each as Outpoint's listener does (version, verack), makes
 * the node announce a wallet payment, asks for it (getdata) and for an unknown tx (notfound), pings, and writes every
 * frame received, byte for byte, to src/p2p/wire/fixtures/<coin>-regtest.json. Our own version and getdata frames are
 * recorded too (sent: true), with the node's answers proving it accepted them.
 */
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { getNetworkParams } from '../../src/chains/networks.js';
import { encodeFrame, FrameDecoder, HEADER_SIZE, magicBytes } from '../../src/p2p/wire/frame.js';
import { decodeInventory, encodeInventory, encodeNonce, encodeVersion, InvType, ipBytes } from '../../src/p2p/wire/messages.js';
import { startBitcoind, startLitecoind, type RegtestNode } from './regtest-node.js';

interface Captured {
  readonly command: string;
  readonly sent: boolean;
  readonly hex: string;
}

async function capture(node: RegtestNode, magicHex: string, protocolVersion: number): Promise<Captured[]> {
  const magic = magicBytes(magicHex);
  const decoder = new FrameDecoder(magic);
  const frames: Captured[] = [];
  const socket = net.connect({ host: '127.0.0.1', port: node.p2pPort });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const send = (command: string, payload: Uint8Array): void => {
    const frame = encodeFrame(magic, command, payload);
    frames.push({ command, sent: true, hex: Buffer.from(frame).toString('hex') });
    socket.write(frame);
  };
  const received: string[] = [];
  socket.on('data', (chunk: Buffer) => {
    for (const f of decoder.push(chunk)) {
      received.push(f.command);
      frames.push({ command: f.command, sent: false, hex: Buffer.from(encodeFrame(magic, f.command, f.payload)).toString('hex') });
      if (f.command === 'inv') {
        const txs = decodeInventory(f.payload).filter((e) => e.type === InvType.TX);
        if (txs.length > 0) send('getdata', encodeInventory(txs.map((e) => ({ type: InvType.WITNESS_TX, hash: e.hash }))));
      }
    }
  });
  send('version', encodeVersion({
    version: protocolVersion, services: 0n, timestamp: 1_767_225_600n, receiver: { services: 0n, ip: ipBytes('127.0.0.1'), port: node.p2pPort },
    sender: { services: 0n, ip: new Uint8Array(16), port: 0 }, nonce: 0x0123456789abcdefn, userAgent: '/Outpoint:0.1.0/', startHeight: 0, relay: true,
  }));
  const until = async (command: string): Promise<void> => {
    for (let i = 0; i < 200 && !received.includes(command); i++) await delay(50);
    if (!received.includes(command)) throw new Error(`no ${command} from ${node.coin}`);
  };
  await until('verack');
  send('verack', new Uint8Array(0));
  await delay(500);
  await node.send(await node.newAddress('bech32'), '1.5');
  await until('tx');
  send('getdata', encodeInventory([{ type: InvType.WITNESS_TX, hash: 'ab'.repeat(32) }]));
  await until('notfound');
  send('ping', encodeNonce(42n));
  await until('pong');
  socket.destroy();
  return frames;
}

async function main(): Promise<void> {
  for (const [coin, start] of [['ltc', startLitecoind], ['btc', startBitcoind]] as const) {
    const node = await start({ funded: true });
    try {
      const params = getNetworkParams(coin === 'ltc' ? 'LTCTEST' : 'BTCTEST', 'regtest');
      const frames = await capture(node, params.p2pMagic, params.p2pProtocolVersion);
      const agent = (await node.rpc.call<{ subversion: string }>('getnetworkinfo')).subversion;
      const file = new URL(`../../src/p2p/wire/fixtures/${coin}-regtest.json`, import.meta.url);
      writeFileSync(file, `${JSON.stringify({ node: agent, note: `frames between ${agent} (regtest) and our listener, header included (${HEADER_SIZE} bytes)`, frames }, null, 1)}\n`);
      console.log(coin, agent, frames.map((f) => `${f.sent ? '>' : '<'}${f.command}`).join(' '));
    } finally {
      await node.stop();
    }
  }
}

await main();
