/**
 * Electrum fuzz cases (issue 49), as the bytes of a TCP session: lines of JSON-RPC built from the server's methods
 * with arguments of every wrong shape (types, sizes, negative and huge numbers, hostile text, nested structures), by
 * name or by position, in batches; mutated lines, garbage bytes, unterminated and overlong lines. Every answer must be
 * a JSON line, and none an internal error (-32603 is the server's own fault while the index is ready).
 */
import type { FuzzRandom } from './fuzz-random.js';
import type { FuzzKnown } from './http-fuzz.js';

const METHODS = [
  'server.version', 'server.ping', 'server.banner', 'server.donation_address', 'server.features', 'server.peers.subscribe', 'server.add_peer',
  'blockchain.block.header', 'blockchain.block.headers', 'blockchain.headers.subscribe', 'blockchain.estimatefee', 'blockchain.relayfee',
  'blockchain.scripthash.get_balance', 'blockchain.scripthash.get_history', 'blockchain.scripthash.get_mempool', 'blockchain.scripthash.listunspent',
  'blockchain.scripthash.subscribe', 'blockchain.scripthash.unsubscribe', 'blockchain.transaction.get', 'blockchain.transaction.get_merkle',
  'blockchain.transaction.id_from_pos', 'blockchain.transaction.broadcast', 'blockchain.transaction.broadcast_package', 'mempool.get_fee_histogram',
  'mempool.get_info', 'no.such.method', '',
];

export interface ElectrumFuzzKnown extends FuzzKnown {
  readonly scripthash: string;
}

function value(random: FuzzRandom, known: ElectrumFuzzKnown, depth = 0): unknown {
  switch (random.int(depth > 1 ? 9 : 11)) {
    case 0: return random.pick([known.scripthash, known.txid, known.blockHash, known.rawTx]);
    case 1: return random.mutateText(random.pick([known.scripthash, known.txid, known.rawTx]));
    case 2: return random.pick([0, 1, -1, known.height, 2 ** 31, 2 ** 53 + 1, 1e308, -0.5, 3.7, 10_000_000]);
    case 3: return random.pick(['1.4', '1.6', ['1.4', '1.6'], ['1.6', '1.4'], '1.4.2', 'v9', '']);
    case 4: return random.hostile();
    case 5: return random.pick([true, false, null, 'true', '0']);
    case 6: return 'f'.repeat(random.pick([63, 65, 128, 100_000]));
    case 7: return random.pick(['economical', 'CONSERVATIVE', 'unset', 'x'.repeat(40)]);
    case 8: return {};
    case 9: return Array.from({ length: random.int(4) }, () => value(random, known, depth + 1));
    default: return Object.fromEntries(Array.from({ length: random.int(3) }, () => [random.pick(['scripthash', 'height', 'cp_height', 'tx_hash', random.hostile()]), value(random, known, depth + 1)]));
  }
}

function call(random: FuzzRandom, known: ElectrumFuzzKnown, id: number): unknown {
  const method = random.chance(0.05) ? random.hostile() : random.pick(METHODS);
  const args = Array.from({ length: random.int(4) }, () => value(random, known));
  const params = random.chance(0.8) ? args : random.chance(0.5) ? value(random, known) : undefined;
  const request: Record<string, unknown> = { jsonrpc: '2.0', method, params };
  if (!random.chance(0.05)) request.id = random.chance(0.9) ? id : value(random, known);
  return request;
}

/** The bytes of one session: a few lines, maybe a batch, a mutation, or garbage. */
export function electrumCase(random: FuzzRandom, known: ElectrumFuzzKnown): Buffer {
  const lines: string[] = [];
  if (random.chance(0.5)) lines.push(JSON.stringify({ id: 0, method: 'server.version', params: ['fuzz', random.pick(['1.4', '1.6', ['1.4', '1.6']])] }));
  for (let n = 1 + random.int(4); n > 0; n--) {
    const line = random.chance(0.15)
      ? JSON.stringify(Array.from({ length: random.int(6) }, (_, i) => (random.chance(0.9) ? call(random, known, 100 + i) : value(random, known))))
      : JSON.stringify(call(random, known, n));
    lines.push(random.chance(0.15) ? random.mutateText(line) : line);
  }
  if (random.chance(0.05)) lines.push(random.bytes(1 + random.int(200)).toString('latin1'));
  let text = lines.join(random.chance(0.1) ? '\r\n' : '\n');
  // Unterminated (answered when more comes, or never), or ended.
  if (!random.chance(0.05)) text += '\n';
  if (random.chance(0.01)) text += 'x'.repeat(3 * 2 ** 20);
  return Buffer.from(text, 'latin1');
}

/** How many answers the session can bring (one per line, notifications aside): read until that many or a pause. */
export function electrumFault(text: string): string | null {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(line, 'latin1').toString('utf8'));
    } catch {
      return `an answer is not JSON: ${line.slice(0, 200)}`;
    }
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      const error = (m as { error?: { code?: number; message?: string } }).error;
      if (error?.code === -32603) return `an internal error: ${error.message}`;
    }
  }
  return null;
}
