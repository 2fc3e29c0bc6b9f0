/**
 * The tables of a chain snapshot (one network's chain index) and of a backup (everything a node cannot give back),
 * each with its columns' meaning and its canonical order (its key). docs/snapshots.md explains the choice.
 * A new column in chain-tables.ts or a migration must be added here too: the snapshot conformance test compares
 * these lists with the live schema of both engines.
 */
import type { NetworkId } from '../../../core/domain/network.js';
import { chainTables } from '../schema/chain-tables.js';
import { columns, type DumpTable } from './dump-rows.js';

/** The chain index of one network in load order. The mempool is left out: the node's mempool is read again on start. */
export function snapshotTables(id: NetworkId): DumpTable[] {
  const t = chainTables(id);
  return [
    { name: t.blocks, orderBy: 'hash', columns: columns(
      'hash blob, height int, is_orphan bool, prev_hash blob, merkle_root blob, version int, time int, bits int, nonce int, ' +
      'size int, stripped_size int, weight int, tx_count int, first_tx int, fees sum, reward sum, value_out sum') },
    { name: t.txs, orderBy: 'id', columns: columns('id int, txid blob, size int, weight int, first_seen int, orphan_prevouts blob, orphan_fee int') },
    { name: t.txRaws, orderBy: 'id', columns: columns('id int, raw blob') },
    { name: t.outputs, orderBy: 'id, vout', columns: columns('id int, vout int, value int, script int, spent_by int, spent_vin int') },
    { name: t.history, orderBy: 'script, id', columns: columns('script int, id int, flags int') },
    { name: t.scripts, orderBy: 'key', columns: columns('key int, script blob, received total, sent total, tx_count int, received_count int, sent_count int') },
  ];
}

/**
 * Every table that cannot be rebuilt from a node, parents before children (foreign keys). Not included: meta (the
 * store's own schema version and script-key salt), the chain tables and tips/sync_status/bulk_loads (the node gives
 * them back, or a snapshot does), the mempool.
 */
export const BACKUP_TABLES: readonly DumpTable[] = [
  { name: 'plans', orderBy: 'name', columns: columns('name text, max_daily_requests int, updated_at int, max_concurrent_requests int') },
  { name: 'accounts', orderBy: 'id', identity: 'id', columns: columns(
    'id int, email text, plan text, created_at int, period_ends_at int, will_renew bool, last_login_at int, password_hash text, ' +
    'is_admin bool, disabled_at int, email_verified_at int, totp_secret blob, totp_enabled_at int, totp_last_step int') },
  { name: 'api_keys', orderBy: 'id', identity: 'id', columns: columns(
    'id int, account_id int, prefix text, key_hash blob, created_at int, revoked_at int, name text, last_used_at int, expires_at int') },
  { name: 'api_usage', orderBy: 'account_id, day', columns: columns('account_id int, day text, count int') },
  { name: 'api_key_usage', orderBy: 'key_id, day', columns: columns('key_id int, day text, count int') },
  { name: 'invites', orderBy: 'id', identity: 'id', columns: columns(
    'id int, token_hash blob, plan text, is_admin bool, created_at int, expires_at int, created_by int, used_at int, used_by int, revoked_at int') },
  { name: 'sessions', orderBy: 'id', identity: 'id', columns: columns(
    'id int, token_hash blob, account_id int, created_at int, last_seen_at int, expires_at int, ip text, user_agent text') },
  { name: 'account_tokens', orderBy: 'token_hash', columns: columns('token_hash blob, purpose text, account_id int, email text, created_at int, expires_at int, used_at int') },
  { name: 'recovery_codes', orderBy: 'account_id, code_hash', columns: columns('account_id int, code_hash blob, created_at int, used_at int') },
  { name: 'short_addresses', orderBy: 'net, short', columns: columns('net int, short text, address text, created_at int') },
  { name: 'price_latest', orderBy: 'coin, base, exchange', columns: columns('coin text, base text, exchange text, price text, time int, checked_at int') },
  { name: 'price_history', orderBy: 'coin, base, exchange, time', columns: columns('coin text, base text, exchange text, time int, price text') },
  // An account's webhooks (with the secrets they sign with; a wallet hook's descriptor and gap), their deliveries (a pending one must survive a move) and
  // the txs they follow to a depth. The realtime event log is not here: it is rebuilt (docs/snapshots.md).
  { name: 'webhooks', orderBy: 'id', identity: 'id', columns: columns(
    'id int, account_id int, net int, event text, url text, secret text, address text, script text, txid text, confirmations int, created_at int, ' +
    'descriptor text, gap int') },
  { name: 'webhook_deliveries', orderBy: 'id', columns: columns(
    'id text, hook_id int, account_id int, event text, body text, state text, attempts int, next_at int, lease_until int, last_status int, ' +
    'last_error text, created_at int, finished_at int') },
  { name: 'webhook_watches', orderBy: 'hook_id, txid', columns: columns('hook_id int, txid text, net int, target int, delivered int') },
];
