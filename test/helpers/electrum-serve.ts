/**
 * `outpoint serve` with an Electrum server: a regtest node indexed into a store of either engine, the network's
 * Electrum listeners on free loopback ports, ready once its Electrum server answers at the node's tip.
 */
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

export interface ElectrumServeOptions extends ServeOptions {
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
  const electrum = Object.entries(options.electrum ?? {}).map(([k, v]) => `${k} = ${v}`).join('\n');
  const body = `[store]\nurl = "${storeUrl}"\n[electrum]\n${electrum}\n[networks.${network}]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\n`
    + `${node.zmqUrl ? `zmq_url = "${node.zmqUrl}"\n` : 'poll_ms = 100\n'}p2p_target_peers = 0\nmempool_sample_seconds = 0\n${listeners}\n${options.extra ?? ''}`;
  const serve = await startServeWithBody(body, { readyNetwork: network, ...options });
  const tcp = ports.tcp;
  const result: ElectrumServe = {
    serve, network, ports,
    connect: () => {
      if (tcp === undefined) throw new Error('no TCP listener');
      return ElectrumTestClient.connect({ kind: 'tcp', port: tcp });
    },
    async caughtUp(n) {
      const client = await result.connect();
      try {
        await waitFor(async () => {
          const tip = await client.request<{ height: number; hex: string }>('blockchain.headers.subscribe').catch(() => null);
          const best = await n.rpc.call<number>('getblockcount');
          if (tip?.height !== best) return false;
          const ours = await fetch(`${serve.url}/api/v2/get_info/${network}`).then((r) => r.json() as Promise<{ data: { unconfirmed_txs?: number } }>).catch(() => null);
          const theirs = (await n.rpc.call<string[]>('getrawmempool')).length;
          return ours?.data.unconfirmed_txs === undefined || ours.data.unconfirmed_txs === theirs;
        }, 60_000, `${network} Electrum server at the node's tip and mempool`, 50);
      } finally {
        client.close();
      }
    },
    stop: () => serve.stop(),
  };
  return result;
}
