import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { getNetworkParams } from '../../chains/networks.js';
import { parseTransaction, serializeTransaction } from '../../chains/parsing.js';
import { encodeFrame, FrameDecoder, HEADER_SIZE, magicBytes, MAX_PAYLOAD, ProtocolViolation, type Frame } from './frame.js';
import {
  decodeFeeFilter, decodeInventory, decodeNonce, decodeVersion, encodeFeeFilter, encodeInventory, encodeNonce, encodeVersion, InvType, ipBytes,
} from './messages.js';

interface Capture {
  readonly node: string;
  readonly frames: readonly { command: string; sent: boolean; hex: string }[];
}

const load = (coin: string): Capture => JSON.parse(readFileSync(new URL(`fixtures/${coin}-regtest.json`, import.meta.url), 'utf8')) as Capture;
const captures = { ltc: load('ltc'), btc: load('btc') };
const REGTEST_MAGIC = magicBytes(getNetworkParams('LTCTEST', 'regtest').p2pMagic);
const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Re-encodes a payload with our encoder for its command (throws for commands the listener never decodes). */
function roundTrip(command: string, payload: Uint8Array, mweb: boolean): Uint8Array {
  switch (command) {
    case 'version':
      return encodeVersion(decodeVersion(payload));
    case 'inv':
    case 'getdata':
    case 'notfound':
      return encodeInventory(decodeInventory(payload));
    case 'ping':
    case 'pong':
      return encodeNonce(decodeNonce(payload));
    case 'feefilter':
      return encodeFeeFilter(decodeFeeFilter(payload));
    case 'tx':
      return serializeTransaction(parseTransaction(payload, { mweb }));
    default:
      return payload;
  }
}

describe('P2P wire format against frames captured from real nodes', () => {
  for (const [coin, capture] of Object.entries(captures)) {
    it(`${coin}: ${capture.node}: every frame decodes from one stream, and every payload we read re-encodes byte for byte`, () => {
      const stream = Buffer.concat(capture.frames.map((f) => bytes(f.hex)));
      const frames = new FrameDecoder(REGTEST_MAGIC).push(stream);
      assert.deepEqual(frames.map((f) => f.command), capture.frames.map((f) => f.command));
      const read = new Set(['version', 'inv', 'getdata', 'notfound', 'ping', 'pong', 'feefilter', 'tx']);
      let checked = 0;
      frames.forEach((frame, i) => {
        assert.equal(hex(encodeFrame(REGTEST_MAGIC, frame.command, frame.payload)), capture.frames[i]!.hex, `frame ${i} (${frame.command})`);
        if (!read.has(frame.command)) return;
        assert.equal(hex(roundTrip(frame.command, frame.payload, coin === 'ltc')), hex(frame.payload), `payload ${i} (${frame.command})`);
        checked++;
      });
      assert.ok(checked >= 9, `${checked} payloads checked`);
    });

    it(`${coin}: the node's version, its tx announcement, the tx and the notfound say what they should`, () => {
      const frames = new FrameDecoder(REGTEST_MAGIC).push(Buffer.concat(capture.frames.map((f) => bytes(f.hex))));
      const received = (command: string): Frame[] => frames.filter((f, i) => f.command === command && !capture.frames[i]!.sent);
      const version = decodeVersion(received('version')[0]!.payload);
      assert.equal(version.version, 70016);
      assert.equal(`/${version.userAgent.slice(1)}`, capture.node);
      assert.equal(version.relay, true);
      const txInv = received('inv').flatMap((f) => decodeInventory(f.payload)).filter((e) => e.type === InvType.TX);
      assert.equal(txInv.length, 1);
      const tx = parseTransaction(received('tx')[0]!.payload, { mweb: coin === 'ltc' });
      assert.equal(tx.txid, txInv[0]!.hash, 'the tx sent for getdata is the one announced');
      assert.equal(tx.hasWitness, true, 'asked with MSG_WITNESS_TX, the peer sends the witness');
      assert.deepEqual(decodeInventory(received('notfound')[0]!.payload), [{ type: InvType.WITNESS_TX, hash: 'ab'.repeat(32) }]);
      assert.ok(decodeFeeFilter(received('feefilter')[0]!.payload) > 0n);
      assert.equal(decodeNonce(received('pong')[0]!.payload), 42n);
    });
  }

  it('decodes a stream delivered one byte at a time, and in random-sized chunks', () => {
    const stream = Buffer.concat(captures.ltc.frames.map((f) => bytes(f.hex)));
    const one = new FrameDecoder(REGTEST_MAGIC);
    const byByte = [...stream].flatMap((b) => one.push(Uint8Array.of(b)));
    assert.deepEqual(byByte.map((f) => f.command), captures.ltc.frames.map((f) => f.command));
    assert.equal(one.buffered, 0);
    const chunked = new FrameDecoder(REGTEST_MAGIC);
    const out: Frame[] = [];
    for (let at = 0, n = 1; at < stream.length; at += n, n = (n * 7 + 3) % 97 + 1) out.push(...chunked.push(stream.subarray(at, at + n)));
    assert.deepEqual(out.map((f) => hex(f.payload)), byByte.map((f) => hex(f.payload)));
  });

  it('frames the same payloads with each network\'s magic, and a decoder refuses another network\'s', () => {
    const payload = new FrameDecoder(REGTEST_MAGIC).push(bytes(captures.ltc.frames.find((f) => f.command === 'version' && !f.sent)!.hex))[0]!.payload;
    for (const id of ['BTC', 'LTC', 'DOGE', 'DOGETEST', 'LTCTEST', 'BTCTEST'] as const) {
      const magic = magicBytes(getNetworkParams(id).p2pMagic);
      const [frame] = new FrameDecoder(magic).push(encodeFrame(magic, 'version', payload));
      assert.equal(hex(frame!.payload), hex(payload), id);
    }
    const doge = magicBytes(getNetworkParams('DOGE').p2pMagic);
    assert.equal(hex(doge), 'c0c0c0c0');
    assert.throws(() => new FrameDecoder(magicBytes(getNetworkParams('LTC').p2pMagic)).push(encodeFrame(doge, 'ping', encodeNonce(1n))), (e: ProtocolViolation) => e.reason === 'wrong magic');
  });

  it('refuses bad checksums, oversized lengths (before the payload arrives), and malformed command names', () => {
    const good = encodeFrame(REGTEST_MAGIC, 'ping', encodeNonce(7n));
    const badSum = Uint8Array.from(good);
    badSum[20] = badSum[20]! ^ 0xff;
    assert.throws(() => new FrameDecoder(REGTEST_MAGIC).push(badSum), (e: ProtocolViolation) => e.reason === 'bad checksum (ping)');
    const header = Buffer.from(good.subarray(0, HEADER_SIZE));
    header.writeUInt32LE(MAX_PAYLOAD + 1, 16);
    assert.throws(() => new FrameDecoder(REGTEST_MAGIC).push(header), (e: ProtocolViolation) => /^oversized message/.test(e.reason));
    const smaller = new FrameDecoder(REGTEST_MAGIC, 1000);
    header.writeUInt32LE(1001, 16);
    assert.throws(() => smaller.push(header), ProtocolViolation);
    const unpadded = Buffer.from(good);
    unpadded[4 + 5] = 0x41; // "ping\0A…"
    assert.throws(() => new FrameDecoder(REGTEST_MAGIC).push(unpadded), (e: ProtocolViolation) => e.reason === 'command not NUL-padded');
    const control = Buffer.from(good);
    control[4] = 0x07;
    assert.throws(() => new FrameDecoder(REGTEST_MAGIC).push(control), (e: ProtocolViolation) => e.reason === 'command is not printable ASCII');
  });

  it('inventories: more than 50,000 entries, a count the bytes cannot hold, and trailing bytes are refused', () => {
    const entries = Array.from({ length: 3 }, (_, i) => ({ type: InvType.TX, hash: String(i).repeat(64) }));
    assert.deepEqual(decodeInventory(encodeInventory(entries)), entries);
    assert.throws(() => encodeInventory(new Array(50_001).fill(entries[0])), RangeError);
    const big = Buffer.alloc(3 + 50_001 * 36);
    big[0] = 0xfd;
    big.writeUInt16LE(50_001, 1);
    assert.throws(() => decodeInventory(big), /50001 entries/);
    assert.throws(() => decodeInventory(Uint8Array.of(0xfd, 0xff, 0xff)), /cannot fit/);
    assert.throws(() => decodeInventory(Uint8Array.of(0x00, 0x00)), /trailing/);
  });

  it('writes IPv4 and IPv6 literals as 16-byte net addresses', () => {
    assert.equal(hex(ipBytes('127.0.0.1')), '00000000000000000000ffff7f000001');
    assert.equal(hex(ipBytes('2001:db8::1')), '20010db8000000000000000000000001');
    assert.equal(hex(ipBytes('node.example.org')), '0'.repeat(32));
  });
});
