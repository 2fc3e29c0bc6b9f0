import { describe } from 'node:test';
import { accountChangeTests } from './accounts/conformance-account-changes.js';
import { accountTests } from './accounts/conformance-accounts.js';
import { addressTests } from './chain/conformance-address.js';
import { authTests } from './accounts/conformance-auth.js';
import { chainTests } from './conformance-chain.js';
import { eventLogTests } from './chain/conformance-event-log.js';
import { webhookTests } from './accounts/conformance-webhooks.js';
import type { StoreHarness } from './harness.js';
import { mempoolSampleTests, mempoolTests } from './chain/conformance-mempool.js';
import { priceTests } from './conformance-prices.js';
import { reorgTests } from './chain/conformance-reorg.js';
import { shortAddressTests } from './conformance-short-addresses.js';
import { bulkTests } from './chain/conformance-bulk.js';
import { rawTxTests } from './chain/conformance-raw-txs.js';
import { scriptKeyTests } from './chain/conformance-script-keys.js';
import { scriptSetTests } from './chain/conformance-script-sets.js';
import { upgradeTests } from './chain/conformance-upgrade.js';
import { syncStatusTests } from './chain/conformance-sync-status.js';
import { scriptHashTests } from './chain/conformance-script-hashes.js';

/** The one suite every ChainStore driver must pass. */
export function runStoreConformance(name: string, harness: StoreHarness): void {
  void describe(`${name} store conformance`, () => {
    void describe('chain', () => chainTests(harness));
    void describe('reorgs', () => reorgTests(harness));
    void describe('mempool', () => mempoolTests(harness));
    void describe('addresses', () => addressTests(harness));
    void describe('short addresses', () => shortAddressTests(harness));
    void describe('prices', () => priceTests(harness));
    void describe('accounts', () => accountTests(harness));
    void describe('upgrade', () => upgradeTests(harness));
    void describe('script keys', () => scriptKeyTests(harness));
    void describe('script sets (wallets)', () => scriptSetTests(harness));
    void describe('scripthash index (Electrum)', () => scriptHashTests(harness));
    void describe('bulk load', () => bulkTests(harness));
    void describe('raw txs kept by the node', () => rawTxTests(harness));
    void describe('sync status', () => syncStatusTests(harness));
    void describe('account changes', () => accountChangeTests(harness));
    void describe('sign-in data', () => authTests(harness));
    void describe('realtime event log', () => eventLogTests(harness));
    void describe('webhooks', () => webhookTests(harness));
    void describe('mempool samples', () => mempoolSampleTests(harness));
  });
}
