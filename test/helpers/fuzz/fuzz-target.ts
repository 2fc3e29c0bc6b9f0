/**
 * The fuzzed process: `outpoint serve` (bin/outpoint.js, SQLite) indexing a litecoind regtest chain with a payment
 * on it, v3 served (an account with an API key on a plan without a practical quota), the explorer and the dashboard
 * (open registration), realtime, and the P2P listener connected to fuzzing peers only. Per-address limits are off
 * (one client sends everything) and loopback is its trusted proxy, so X-Forwarded-For junk goes through the proxy
 * rules too (the wallet derivation budget counts per client network as everywhere: fuzzed wallets are mostly malformed
 * or the one known key, cached after its first read). The values the corpus needs (address, txid, block, raw tx, key, a CSRF pair, an asset) are read back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { getNetworkParams } from '../../../src/chains/networks.js';
import { descriptorChecksum } from '../../../src/chains/wallet/descriptor-checksum.js';
import { generateApiKey } from '../../../src/services/accounts/api-keys.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { startLitecoind, type RegtestNode } from '../regtest-node.js';
import { startServeWithBody, type ServeProcess } from '../serve-process.js';
import { waitFor } from '../wait-for.js';
import { createHash } from 'node:crypto';
import { freePort } from '../free-port.js';
import type { ElectrumFuzzKnown } from './electrum-fuzz.js';
import { P2pFuzz } from './p2p-fuzz.js';

const NETWORK = 'LTCTEST';

export interface FuzzTarget {
  readonly serve: ServeProcess;
  readonly known: ElectrumFuzzKnown;
  /** The network's Electrum TCP listener. */
  readonly electrumPort: number;
  readonly p2p: P2pFuzz;
  close(): Promise<void>;
}

export async function startFuzzTarget(options: { p2pPeers?: number } = {}): Promise<FuzzTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-fuzz-'));
  let node: RegtestNode | undefined;
  let p2p: P2pFuzz | undefined;
  let serve: ServeProcess | undefined;
  try {
    node = await startLitecoind({ funded: true });
    const address = await node.newAddress('bech32');
    const txid = await node.send(address, '1.25');
    const [blockHash] = await node.mine(1);
    const height = await node.rpc.call<number>('getblockcount');
    const rawTx = await node.rpc.call<string>('getrawtransaction', [txid]);
    p2p = await P2pFuzz.start(getNetworkParams(NETWORK, 'regtest').p2pMagic, options.p2pPeers ?? 32, Buffer.from(rawTx, 'hex'));

    const storeUrl = `sqlite:${join(dir, 'fuzz.db')}`;
    const apiKey = await accountWithKey(join(dir, 'fuzz.db'));
    const electrumPort = await freePort();
    serve = await startServeWithBody(`[store]
url = "${storeUrl}"
[market]
sources = []
[web]
rate_limit_per_second = 0
[realtime]
max_connections_per_ip = 0
[electrum]
max_connections_per_ip = 0
[accounts]
registration = "open"
signin_failures_per_ip = 100000
signin_failures_per_account = 10000
[networks.${NETWORK}]
chain = "regtest"
rpc_url = "${node.rpcUrl}"
poll_ms = 200
p2p_peers = [${p2p.addresses.map((a) => `"${a}"`).join(', ')}]
p2p_target_peers = ${p2p.addresses.length}
electrum_tcp = "127.0.0.1:${electrumPort}"`, { http: { trust_proxy: '["127.0.0.1"]', request_timeout_s: '3' } });
    const url = serve.url;
    await waitFor(async () => (await fetch(`${url}/api/v2/get_tx/${NETWORK}/${txid}`)).status === 200, 60_000, 'the payment indexed');
    // Readiness is a background check (every 5 s): until it has seen the index caught up, /ready answers 503.
    await waitFor(async () => (await fetch(`${url}/ready`)).status === 200, 30_000, 'ready');
    const signIn = await fetch(`${url}/dashboard/sign-in`);
    const csrfCookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const csrfToken = /name="csrf" value="([^"]+)"/.exec(await signIn.text())?.[1] ?? '';
    const asset = /"(\/assets\/[^"]+)"/.exec(await (await fetch(`${url}/`)).text())?.[1] ?? '/assets/missing.css';
    const script = Buffer.from((await node.wallet.call<{ scriptPubKey: string }>('getaddressinfo', [address])).scriptPubKey, 'hex');
    const scripthash = createHash('sha256').update(script).digest().reverse().toString('hex');
    const tpub = HDKey.fromMasterSeed(Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex'), { public: 0x043587cf, private: 0x04358394 }).derive("m/84'/1'/0'").publicExtendedKey;
    const body = `wpkh([d34db33f/84h/1h/0h]${tpub}/<0;1>/*)`;
    const descriptor = `${body}#${descriptorChecksum(body)!}`;
    const known: ElectrumFuzzKnown = { network: NETWORK, address, txid, blockHash: blockHash!, height, rawTx, apiKey, csrfCookie, csrfToken, asset, tpub, descriptor, scripthash };
    const [started, fakes, chain] = [serve, p2p, node];
    return {
      serve: started, known, p2p: fakes, electrumPort,
      async close() {
        await started.stop();
        await fakes.close();
        await chain.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await serve?.stop();
    await p2p?.close();
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** An account on a plan whose daily quota the fuzz cannot use up, with one API key. */
async function accountWithKey(path: string): Promise<string> {
  const store = new SqliteStore({ path });
  try {
    await store.migrate();
    const accounts = store.accounts();
    await accounts.setPlan('fuzz', 1_000_000_000, 0);
    const account = await accounts.createAccount({ email: 'fuzz@example.com', plan: 'fuzz', createdAt: 1, periodEndsAt: 4_000_000_000, willRenew: true });
    const key = generateApiKey();
    await accounts.addKey({ accountId: account.id, prefix: key.prefix, hash: key.hash, createdAt: 1 });
    return key.key;
  } finally {
    await store.close();
  }
}
