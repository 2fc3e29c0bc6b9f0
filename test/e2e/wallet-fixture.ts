/**
 * Wallet e2e tests' chain: bitcoind (Knots 29) regtest indexed on SQLite and PostgreSQL with a v3 app per engine, and
 * HD accounts from a fixed seed whose private descriptors a node descriptor wallet holds: the node's own view
 * (balances, transactions, unspent outputs with their derivation paths) is what the API must equal.
 */
import { HDKey } from '@scure/bip32';
import { getNetworkParams, scriptToAddress } from '../../src/chains/addressing.js';
import { descriptorChecksum } from '../../src/chains/wallet/descriptor-checksum.js';
import { ChainDerivation } from '../../src/chains/wallet/wallet-derivation.js';
import { parseWalletDescriptor } from '../../src/chains/wallet/wallet-descriptor.js';
import { parseCoins, type Sats } from '../../src/core/domain/money.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { syncAll } from '../helpers/indexer-harness.js';
import { startBitcoind } from '../helpers/regtest-node.js';
import { callBoth, v3ChainOn, type V3Chain } from './v3-fixture.js';
import type { Reply } from './v2-fixture.js';

export const BTC_REGTEST = getNetworkParams('BTCTEST', 'regtest');
const TEST_VERSIONS = { public: 0x043587cf, private: 0x04358394 };
/** BIP32 test vector 1's seed: any fixed seed would do; this one is public on purpose. */
const SEED = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
/** How far the node wallet looks on each chain: past every index the tests pay. */
const NODE_RANGE = 80;

export type AccountKind = 'pkh' | 'sh-wpkh' | 'wpkh' | 'tr';
const PURPOSE: Record<AccountKind, number> = { pkh: 44, 'sh-wpkh': 49, wpkh: 84, tr: 86 };

export function wrap(kind: AccountKind, key: string): string {
  return kind === 'sh-wpkh' ? `sh(wpkh(${key}))` : `${kind}(${key})`;
}

export function withChecksum(descriptor: string): string {
  return `${descriptor}#${descriptorChecksum(descriptor)!}`;
}

/** An account m/purpose'/1'/0' of the seed, held (with its private keys) by a node wallet of its own. */
export class Account {
  readonly tpub: string;
  /** `[fingerprint/purpose'/1'/0']` */
  readonly origin: string;
  private readonly derivations: ChainDerivation[];

  constructor(readonly kind: AccountKind, readonly wallet: RpcClient, private readonly tprv: string, master: HDKey) {
    const account = HDKey.fromExtendedKey(tprv, TEST_VERSIONS);
    this.tpub = account.publicExtendedKey;
    this.origin = `[${master.fingerprint.toString(16).padStart(8, '0')}/${PURPOSE[kind]}h/1h/0h]`;
    const parsed = parseWalletDescriptor(BTC_REGTEST, this.descriptor('<0;1>/*'));
    this.derivations = [0, 1].map((chain) => new ChainDerivation(parsed, chain));
  }

  /** The public descriptor of `path` (e.g. `0/*`, `<0;1>/*`), with origin, without checksum. */
  descriptor(path: string): string {
    return wrap(this.kind, `${this.origin}${this.tpub}/${path}`);
  }

  /** The address at chain/index, derived by our code (the test checks it against the node's deriveaddresses). */
  address(chain: number, index: number): string {
    return scriptToAddress(BTC_REGTEST, this.derivations[chain]!.script(index))!;
  }

  /** Makes the node wallet and imports both chains' private descriptors (active: change goes to chain 1). */
  async import(): Promise<void> {
    const requests = [0, 1].map((chain) => ({
      desc: withChecksum(wrap(this.kind, `${this.origin}${this.tprv}/${chain}/*`)),
      timestamp: 0,
      range: [0, NODE_RANGE],
      active: true,
      internal: chain === 1,
    }));
    const results = await this.wallet.call<{ success: boolean; error?: { message: string } }[]>('importdescriptors', [requests]);
    for (const r of results) if (!r.success) throw new Error(`importdescriptors: ${r.error?.message}`);
  }
}

export interface WalletChain extends V3Chain {
  readonly accounts: Record<AccountKind, Account>;
  sync(): Promise<void>;
  /** GET on both engines' apps, which must answer alike. */
  get(url: string): Promise<Reply>;
}

export async function startWalletChain(): Promise<WalletChain> {
  const accounts = {} as Record<AccountKind, Account>;
  const chain = await v3ChainOn(await startBitcoind({ funded: true }), BTC_REGTEST, async ({ node }) => {
    const master = HDKey.fromMasterSeed(SEED, TEST_VERSIONS);
    for (const kind of Object.keys(PURPOSE) as AccountKind[]) {
      await node.rpc.call('createwallet', [kind, false, true, '', false, true, true]);
      const wallet = node.client({ url: `${node.rpcUrl}wallet/${kind}` });
      accounts[kind] = new Account(kind, wallet, master.derive(`m/${PURPOSE[kind]}'/1'/0'`).privateExtendedKey, master);
      await accounts[kind].import();
    }
  });
  return { ...chain, accounts, sync: () => syncAll(chain.indexed), get: (url) => callBoth(chain.apps, url, chain.key) };
}

/** Node amounts (exactDecimals: decimal text, integers as numbers) in base units. */
export const sats = (value: unknown): Sats => parseCoins(String(value));

/** The wallet-relative path of a listunspent entry: `chain/index` from its descriptor's origin. */
export function nodePath(desc: string): string {
  const origin = /\[[0-9a-f]{8}((?:\/\d+[h'])*)\/(\d+)\/(\d+)\]/.exec(desc);
  if (!origin) throw new Error(`no derivation path in ${desc}`);
  return `${origin[2]}/${origin[3]}`;
}
