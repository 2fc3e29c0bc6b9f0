/**
 * Websocket fuzz cases, as raw bytes: upgrade requests with mutated targets (escapes, absolute forms, junk), Host
 * headers and handshake headers; and, after a valid upgrade, sequences of frames: Pusher messages mutated as text,
 * and frames broken at the websocket level (opcodes, mask, RSV bits, lengths, fragments, control frames, close codes).
 * The server may refuse, close with a protocol code or a Pusher 4xxx; never 5xx, never 1011 (its own fault).
 */
import { clientFrame, upgradeRequest } from '../raw-http.js';
import type { FuzzRandom } from './fuzz-random.js';
import type { FuzzKnown } from './http-fuzz.js';

const KEY = 'outpoint';
const VALID_TARGET = `/app/${KEY}?protocol=7&client=js&version=8.4.0&flash=false`;

/** An upgrade request with its target, Host or handshake headers mutated. */
export function upgradeCase(random: FuzzRandom): Buffer {
  let target = random.pick([VALID_TARGET, `/app/${KEY}?protocol=7`, `http://127.0.0.1/app/${KEY}?protocol=7`, `http://[::1/app/${KEY}?protocol=7`, '*', '/app/', '/app']);
  const headers: Record<string, string> = {};
  for (let n = 1 + random.int(3); n > 0; n--) {
    switch (random.int(6)) {
      case 0:
      case 1:
        target = random.mutateText(target);
        break;
      case 2:
        headers['Host'] = random.pick(['', '[::1', '127.0.0.1:99999', 'a'.repeat(3000), 'exa mple', random.hostile()]);
        break;
      case 3:
        headers['Sec-WebSocket-Key'] = random.pick(['', 'short', 'A'.repeat(24), random.hostile()]);
        break;
      case 4:
        headers['Sec-WebSocket-Version'] = random.pick(['8', '', '13, 8', '99999999999', random.hostile()]);
        break;
      default:
        headers[random.pick(['Upgrade', 'Connection', 'Sec-WebSocket-Extensions', 'Sec-WebSocket-Protocol', 'Origin', 'X-Forwarded-For'])] =
          random.pick(['websocket', 'WebSocket', 'h2c', '', 'Upgrade, keep-alive', 'permessage-deflate; client_max_window_bits=99', random.hostile()]);
    }
  }
  const bytes = Buffer.from(upgradeRequest(target, headers), 'utf8');
  return random.chance(0.15) ? random.mutateBytes(bytes) : bytes;
}

/** The valid upgrade the frame cases start from. */
export function validUpgrade(): Buffer {
  return Buffer.from(upgradeRequest(VALID_TARGET));
}

function messages(k: FuzzKnown): string[] {
  const slug = k.network.toLowerCase();
  const subscribe = (channel: string): string => JSON.stringify({ event: 'pusher:subscribe', data: { auth: '', channel } });
  return [
    JSON.stringify({ event: 'pusher:ping', data: {} }), JSON.stringify({ event: 'pusher:pong', data: {} }),
    subscribe(`blockchain_update_${slug}`), subscribe(`address_${slug}_${k.address}`), subscribe('ticker_ltc_usd'), subscribe(`private-${slug}`),
    subscribe(`wallet_${slug}_qqqqqqqq`), subscribe(`wallet_${slug}_q`), subscribe('wallet_'),
    JSON.stringify({ event: 'pusher:unsubscribe', data: { channel: `blockchain_update_${slug}` } }),
    JSON.stringify({ event: 'pusher:subscribe', data: JSON.stringify({ channel: `address_${slug}_${k.address}` }) }),
    JSON.stringify({ event: 'pusher:signin', data: { auth: 'x', user_data: '{}' } }),
    JSON.stringify({ event: 'client-hello', channel: `blockchain_update_${slug}`, data: {} }),
  ];
}

/** After the valid upgrade: 1 to 6 frames, each a (possibly mutated) Pusher message or a broken frame. */
export function frameCase(random: FuzzRandom, known: FuzzKnown): Buffer {
  const frames: Buffer[] = [];
  for (let n = 1 + random.int(6); n > 0; n--) {
    const text = random.pick(messages(known));
    switch (random.int(5)) {
      case 0:
        frames.push(clientFrame(Buffer.from(text)));
        break;
      case 1:
        frames.push(clientFrame(Buffer.from(random.mutateText(text))));
        break;
      case 2:
        frames.push(clientFrame(random.mutateBytes(Buffer.from(text))));
        break;
      case 3:
        frames.push(brokenFrame(random, Buffer.from(text)));
        break;
      default:
        frames.push(random.mutateBytes(clientFrame(Buffer.from(text))));
    }
  }
  return Buffer.concat(frames);
}

function brokenFrame(random: FuzzRandom, payload: Buffer): Buffer {
  switch (random.int(8)) {
    case 0:
      return clientFrame(payload, random.pick([0x0, 0x3, 0x7, 0xb, 0xf]));
    case 1: {
      const frame = clientFrame(payload);
      frame[1]! &= 0x7f; // mask bit off: clients must mask
      return frame;
    }
    case 2: {
      const frame = clientFrame(payload);
      frame[0]! |= 0x70; // RSV bits without an extension
      return frame;
    }
    case 3: {
      const frame = clientFrame(payload);
      frame[0]! &= 0x7f; // FIN off: a fragment that may never be finished
      return frame;
    }
    case 4:
      return clientFrame(random.bytes(126 + random.int(200)), random.pick([0x8, 0x9, 0xa])); // control frame over 125 bytes
    case 5: {
      const body = Buffer.alloc(2 + random.int(20));
      body.writeUInt16BE(random.pick([0, 999, 1004, 1005, 1006, 1015, 2999, 4999, 5000, 65535]));
      random.bytes(body.length - 2).copy(body, 2);
      return clientFrame(body, 0x8);
    }
    case 6: {
      const head = Buffer.from([0x81, 0xff, 0, 0, 0, 0, 0, 0, 0, 0]);
      head.writeBigUInt64BE(BigInt(random.pick([2 ** 20, 2 ** 31, 2 ** 53 - 1])) * 1n, 2);
      return Buffer.concat([head, random.bytes(4), payload]);
    }
    default:
      return clientFrame(random.bytes(random.int(300)), random.pick([0x1, 0x2]));
  }
}
