/**
 * What the browser tests browse: a real litecoind -regtest with MWEB active (432 blocks, a peg-in in the
 * activation block), payments to legacy, p2sh-segwit and bech32 addresses, one tx left unconfirmed, and
 * `outpoint serve` (the real process, SQLite) indexing it, with headless Chromium.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { mwebActivate } from '../helpers/mweb-activate.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

export const NET = 'LTCTEST';
export const SLUG = 'ltctest';

export interface ExplorerChain {
  readonly node: RegtestNode;
  readonly serve: ServeProcess;
  readonly browser: Browser;
  /** The MWEB activation block and its peg-in. */
  readonly activation: { readonly hash: string; readonly height: number; readonly pegInTxid: string };
  /** A confirmed payment to a bech32 address, in block `paymentHeight`. */
  readonly paymentTxid: string;
  readonly paymentHeight: number;
  readonly addresses: { readonly legacy: string; readonly p2sh: string; readonly bech32: string };
  /** Left in the mempool (pays `addresses.legacy`). */
  readonly unconfirmedTxid: string;
  /** The served configuration file (for `outpoint` commands on the same store, e.g. an API key). */
  readonly config: string;
  /** Waits until the service has indexed the node's tip and mempool. */
  synced(): Promise<void>;
  close(): Promise<void>;
}

async function json<T>(url: string): Promise<T> {
  return ((await (await fetch(url)).json()) as { data: T }).data;
}

/** No limits on pages (most browser tests hurry through many pages); `defaultLimits`: the shipped defaults. */
const NO_LIMITS = `[http]
rate_limit_per_second = 0
public_url = "http://explorer.test"
[web]
rate_limit_per_second = 0`;

/** `networkKeys`: more lines for the network's table (e.g. `mempool_sample_seconds = 1`); `tables`: more tables before it. */
export async function startExplorerChain(options: { readonly defaultLimits?: boolean; readonly networkKeys?: string; readonly tables?: string } = {}): Promise<ExplorerChain> {
  const node = await startLitecoind({ funded: true });
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-explorer-'));
  let serve: ServeProcess | null = null;
  let browser: Browser | null = null;
  try {
    const { pegInTxid, activationHash } = await mwebActivate(node);
    const addresses = { legacy: await node.newAddress('legacy'), p2sh: await node.newAddress('p2sh-segwit'), bech32: await node.newAddress('bech32') };
    await node.send(addresses.legacy, '1.5');
    await node.send(addresses.p2sh, '0.75');
    await node.mine(1);
    const paymentTxid = await node.send(addresses.bech32, '0.31415926');
    await node.mine(1);
    const paymentHeight = await node.rpc.call<number>('getblockcount');
    const unconfirmedTxid = await node.send(addresses.legacy, '0.12345678');
    const config = join(dir, 'outpoint.toml');
    writeFileSync(
      config,
      `data_dir = "${dir}"
${options.defaultLimits ? '[http]\npublic_url = "http://explorer.test"' : NO_LIMITS}
${options.tables ?? ''}
[networks.${NET}]
chain = "regtest"
rpc_url = "${node.rpcUrl}"
poll_ms = 100
${options.networkKeys ?? ''}
`,
    );
    serve = await startServe(config);
    const started = serve;
    const synced = async (): Promise<void> => {
      const [height, mempool] = await Promise.all([node.rpc.call<number>('getblockcount'), node.rpc.call<string[]>('getrawmempool')]);
      await waitFor(async () => {
        const info = await json<{ blocks: number; unconfirmed_txs: number }>(`${started.url}/api/v2/get_info/${NET}`);
        return info.blocks === height && info.unconfirmed_txs === mempool.length;
      }, 30_000, 'the service indexed the node', options.defaultLimits ? 250 : 100);
    };
    await synced();
    browser = await launchChromium();
    const opened = browser;
    return {
      node,
      serve,
      browser,
      activation: { hash: activationHash, height: 432, pegInTxid },
      paymentTxid,
      paymentHeight,
      addresses,
      unconfirmedTxid,
      config,
      synced,
      async close() {
        await opened.close();
        await started.stop();
        await node.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    await serve?.stop();
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
