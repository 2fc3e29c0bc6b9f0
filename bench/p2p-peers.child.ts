/**
 * The synthetic peers of bench/p2p-listener.bench.ts, in their own process so their CPU is not the listener's:
 * `PEERS` scripted peers on loopback (test/helpers/fake-peer.ts) that complete the handshake, then, on `go` from
 * stdin, each announce the same `RATE` new txids per second (in 100 ms batches) for `SECONDS`, as peers of one network
 * relay the same transactions. With `SERVE=1` they answer getdata with the transactions themselves.
 *
 * stdout, one JSON line each: {"addresses":[…]} when listening, {"connected":n} once every peer completed the
 * handshake, {"done":announced} after the last batch.
 */
import { createInterface } from 'node:readline';
import { FakePeer } from '../test/helpers/fake-peer.js';
import { syntheticTxs } from './p2p-synthetic-txs.js';

const [peersArg, rateArg, secondsArg, magic = '', serveArg] = process.argv.slice(2);
const PEERS = Number(peersArg);
const RATE = Number(rateArg);
const SECONDS = Number(secondsArg);
const TICK_MS = 100;

const txs = syntheticTxs(RATE * SECONDS);
const peers = await Promise.all(Array.from({ length: PEERS }, () => FakePeer.listen({ magic })));
if (serveArg === '1') for (const peer of peers) for (const tx of txs) peer.offer(tx.txid, tx.raw);
const say = (message: object): void => void process.stdout.write(`${JSON.stringify(message)}\n`);
say({ addresses: peers.map((p) => p.address) });

// Every peer connected and past the handshake (it answered our version; the listener sends verack back at once).
const ready = (): boolean => peers.every((p) => p.connections.some((c) => !c.closed && c.received.some((f) => f.command === 'verack')));
while (!ready()) await new Promise((resolve) => setTimeout(resolve, 20));
say({ connected: PEERS });

async function announce(): Promise<number> {
  const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
  const started = Date.now();
  let sent = 0;
  for (let tick = 0; sent < txs.length; tick++) {
    const batch = txs.slice(sent, sent + perTick).map((t) => t.txid);
    for (const peer of peers) peer.connections.find((c) => !c.closed)?.announce(batch);
    sent += batch.length;
    const wait = started + (tick + 1) * TICK_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return sent;
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'go') say({ done: await announce() });
  if (line.trim() === 'stop') break;
}
await Promise.all(peers.map((p) => p.close()));
// stdin, still open towards the parent, would keep this process alive.
process.exit(0);
