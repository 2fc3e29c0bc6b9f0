/**
 * `outpoint serve` with an Electrum server: a regtest node indexed into a store of either engine, the network's
 * Electrum listeners on free loopback ports, ready once its Electrum server answers at the node's tip.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { freePort } from './free-port.js';
import type { RegtestNode } from './regtest-node.js';
import { startServeWithBody, type ServeOptions, type ServeProcess } from './serve-process.js';
import { ElectrumTestClient } from './electrum-test-client.js';
import { waitFor } from './wait-for.js';

export interface ElectrumServe {
  readonly serve: ServeProcess;
  readonly network: 'BTCTEST' | 'LTCTEST';
  /** The bound ports of the listeners asked for. */
  readonly ports: Readonly<Partial<Record<'tcp' | 'tls' | 'ws' | 'wss', number>>>;
  connect(): Promise<ElectrumTestClient>;
  /** Until its tip is the node's and every tx of the node's mempool is indexed (get_mempool of `scripthashes` agrees). */
  caughtUp(node: RegtestNode): Promise<void>;
  stop(): Promise<void>;
}

/** A GET's JSON body (null on any failure), over HTTP or, with `ca`, HTTPS trusting it. */
export function getJson(url: string, ca?: string | Buffer): Promise<unknown> {
  return new Promise((resolve) => {
    const done = (res: import('node:http').IncomingMessage): void => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch {
          resolve(null);
        }
      });
    };
    const req = ca ? httpsRequest(url, { ca, agent: false }, done) : httpRequest(url, done);
    req.on('error', () => resolve(null)).end();
  });
}

export interface ElectrumServeOptions extends ServeOptions {
  /** `[http]` TLS: the certificate files and the CA that signed them (the HTTP port speaks HTTPS then). */
  readonly tls?: { readonly certFile: string; readonly keyFile: string; readonly ca: string | Buffer };
  /** `[electrum]` keys as TOML lines. */
  readonly electrum?: Readonly<Record<string, string>>;
  readonly transports?: readonly ('tcp' | 'tls' | 'ws' | 'wss')[];
  /** More TOML (after the network's table). */
  readonly extra?: string;
}

export async function startElectrumServe(node: RegtestNode, storeUrl: string, options: ElectrumServeOptions = {}): Promise<ElectrumServe> {
  const network = node.coin === 'BTC' ? 'BTCTEST' : 'LTCTEST';
  const ports: Partial<Record<'tcp' | 'tls' | 'ws' | 'wss', number>> = {};
  for (const t of options.transports ?? ['tcp']) ports[t] = await freePort();
  const listeners = Object.entries(ports).map(([t, port]) => `electrum_${t} = "127.0.0.1:${port}"`).join('\n');
  // One process unless a test asks for more (a worker process costs a second or two to start).
  const electrum = Object.entries({ processes: '1', ...options.electrum }).map(([k, v]) => `${k} = ${v}`).join('\n');
  const body = `[store]\nurl = "${storeUrl}"\n[electrum]\n${electrum}\n[networks.${network}]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\n`
    + `${node.zmqUrl ? `zmq_url = "${node.zmqUrl}"\n` : 'poll_ms = 100\n'}p2p_target_peers = 0\nmempool_sample_seconds = 0\n${listeners}\n${options.extra ?? ''}`;
  const http = options.tls ? { ...options.http, tls_cert_file: `"${options.tls.certFile}"`, tls_key_file: `"${options.tls.keyFile}"` } : options.http;
  const scheme = options.tls ? 'https' : 'http';
  const ca = options.tls?.ca;
  const serve = await startServeWithBody(body, {
    readyNetwork: network, ...options, ...(http ? { http } : {}),
    ...(options.tls ? { readyProbe: async (u: string) => (await getJson(`${u.replace(/^http:/, 'https:')}/api/v2/get_info/${network}`, ca)) !== null } : {}),
  });
  const url = serve.url.replace(/^http:/, `${scheme}:`);
  const tcp = ports.tcp;
  const result: ElectrumServe = {
    serve, network, ports,
    connect: () => {
      if (tcp === undefined) throw new Error('no TCP listener');
      return ElectrumTestClient.connect({ kind: 'tcp', port: tcp });
    },
    async caughtUp(n) {
      // The Electrum listeners open after HTTP (in worker processes, a second or two later).
      let client: ElectrumTestClient | null = null;
      await waitFor(async () => (client = await result.connect().catch(() => null)) !== null, 60_000, `the Electrum listener: ${serve.log.join('').slice(-1500)}`, 100);
      try {
        await waitFor(async () => {
          const tip = await client!.request<{ height: number; hex: string }>('blockchain.headers.subscribe').catch(() => null);
          const best = await n.rpc.call<number>('getblockcount');
          if (tip?.height !== best) return false;
          const ours = await getJson(`${url}/api/v2/get_info/${network}`, ca) as { data?: { unconfirmed_txs?: number } } | null;
          const theirs = (await n.rpc.call<string[]>('getrawmempool')).length;
          return ours?.data?.unconfirmed_txs === theirs;
        }, 60_000, `${network} Electrum server at the node's tip and mempool`, 50);
      } finally {
        client!.close();
      }
    },
    stop: () => serve.stop(),
  };
  return result;
}
