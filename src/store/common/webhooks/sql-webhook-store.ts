/**
 * Webhooks for both engines over a SqlRunner (docs/webhooks.md, docs/schema.md). The one engine difference is the
 * claim: PostgreSQL skips rows another process is claiming (`FOR UPDATE SKIP LOCKED`); SQLite's statement runs
 * under the database's single write lock, so two claimers take turns and never get the same row.
 */
import type { NetworkId } from '../../../core/domain/network.js';
import type { Delivery, DeliveryState, NewDelivery, TxWatch, Webhook, WebhookEvent, WebhookSpec, WebhookStore } from '../../../core/store/webhook-store.js';
import { networkCode, networkFromCode } from '../schema/network-codes.js';
import type { SqlRow, SqlRunner } from '../sql/sql-runner.js';

const HOOK_COLUMNS = 'id, account_id, net, event, url, secret, address, script, txid, confirmations, created_at, descriptor, gap';
const DELIVERY_COLUMNS = 'd.id, d.hook_id, d.account_id, d.event, d.body, d.state, d.attempts, d.next_at, d.created_at, d.last_status, d.last_error, w.url, w.secret';

const nullableNumber = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const nullableString = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function hookOf(r: SqlRow): Webhook {
  return {
    id: Number(r.id), accountId: Number(r.account_id), network: networkFromCode(Number(r.net)), event: String(r.event) as WebhookEvent,
    url: String(r.url), secret: String(r.secret), address: nullableString(r.address), script: nullableString(r.script),
    txid: nullableString(r.txid), confirmations: nullableNumber(r.confirmations), createdAt: Number(r.created_at),
    descriptor: nullableString(r.descriptor), gap: nullableNumber(r.gap),
  };
}

function deliveryOf(r: SqlRow): Delivery {
  return {
    id: String(r.id), hookId: Number(r.hook_id), accountId: Number(r.account_id), event: String(r.event) as WebhookEvent, body: String(r.body),
    url: String(r.url), secret: String(r.secret), state: String(r.state) as DeliveryState, attempts: Number(r.attempts), nextAt: Number(r.next_at),
    createdAt: Number(r.created_at), lastStatus: nullableNumber(r.last_status), lastError: nullableString(r.last_error),
  };
}

export class SqlWebhookStore implements WebhookStore {
  constructor(
    private readonly db: SqlRunner,
    private readonly engine: 'sqlite' | 'postgres',
  ) {}

  async create(spec: WebhookSpec, now: number, maxPerAccount: number, maxOfEvent = 0): Promise<Webhook | null> {
    // The counts and the insert in one statement: a limit is not passed by two requests one after the other.
    const [row] = await this.db.all(
      `INSERT INTO webhooks (account_id, net, event, url, secret, address, script, txid, confirmations, created_at, descriptor, gap) ` +
        `SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM webhooks WHERE account_id = ?) < ? ` +
        `AND (? = 0 OR (SELECT count(*) FROM webhooks WHERE event = ?) < ?) RETURNING ${HOOK_COLUMNS}`,
      [spec.accountId, networkCode(spec.network), spec.event, spec.url, spec.secret, spec.address, spec.script, spec.txid, spec.confirmations, now,
        spec.descriptor ?? null, spec.gap ?? null, spec.accountId, maxPerAccount, maxOfEvent, spec.event, maxOfEvent],
    );
    return row ? hookOf(row) : null;
  }

  async list(accountId: number): Promise<Webhook[]> {
    return (await this.db.all(`SELECT ${HOOK_COLUMNS} FROM webhooks WHERE account_id = ? ORDER BY id`, [accountId])).map(hookOf);
  }

  async byNetwork(network: NetworkId): Promise<Webhook[]> {
    return (await this.db.all(`SELECT ${HOOK_COLUMNS} FROM webhooks WHERE net = ? ORDER BY id`, [networkCode(network)])).map(hookOf);
  }

  async remove(accountId: number, id: number): Promise<boolean> {
    // Every delivery of the hook goes, finished ones too: a finished one re-sent later would be a delivery nobody can
    // send (no URL, no secret) that the claim would lease again and again.
    const [removed] = await this.db.batch([
      { sql: 'DELETE FROM webhooks WHERE id = ? AND account_id = ?', params: [id, accountId] },
      { sql: 'DELETE FROM webhook_deliveries WHERE hook_id = ? AND account_id = ?', params: [id, accountId] },
      { sql: 'DELETE FROM webhook_watches WHERE hook_id = ? AND NOT EXISTS (SELECT 1 FROM webhooks WHERE id = ?)', params: [id, id] },
    ]);
    return removed === 1;
  }

  async enqueue(deliveries: readonly NewDelivery[], nowMs: number): Promise<number> {
    if (deliveries.length === 0) return 0;
    const counts = await this.db.batch(deliveries.map((d) => ({
      sql: 'INSERT INTO webhook_deliveries (id, hook_id, account_id, event, body, state, next_at, created_at) ' +
        "SELECT ?, id, account_id, ?, ?, 'pending', ?, ? FROM webhooks WHERE id = ? ON CONFLICT (id) DO NOTHING",
      params: [d.id, d.event, d.body, nowMs, nowMs, d.hookId],
    })));
    return counts.reduce((a, b) => a + b, 0);
  }

  async claim(nowMs: number, leaseMs: number, limit: number): Promise<Delivery[]> {
    const skipLocked = this.engine === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
    // A due delivery whose hook is gone (stored by a matcher that raced the hook's removal, or left by a version that
    // kept them) is dropped, never leased: leased, it would take a claim's slot from live deliveries at every lease's end.
    await this.db.run(
      "DELETE FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ? AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = webhook_deliveries.hook_id)",
      [nowMs],
    );
    const claimed = await this.db.all(
      'UPDATE webhook_deliveries SET lease_until = ? WHERE id IN (' +
        `SELECT d.id FROM webhook_deliveries d WHERE d.state = 'pending' AND d.next_at <= ? AND d.lease_until <= ? AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.hook_id) ` +
        `ORDER BY d.next_at LIMIT ?${skipLocked}) RETURNING id`,
      [nowMs + leaseMs, nowMs, nowMs, limit],
    );
    if (claimed.length === 0) return [];
    const ids = claimed.map((r) => String(r.id));
    const rows = await this.db.all(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhooks w ON w.id = d.hook_id WHERE d.id IN (${ids.map(() => '?').join(', ')}) ORDER BY d.next_at`,
      ids,
    );
    return rows.map(deliveryOf);
  }

  async settle(id: string, outcome: { state: DeliveryState; nextAt: number | null; status: number | null; error: string | null }, nowMs: number): Promise<void> {
    await this.db.run(
      'UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_at = ?, lease_until = 0, last_status = ?, last_error = ?, finished_at = ? WHERE id = ?',
      [outcome.state, outcome.nextAt ?? nowMs, outcome.status, outcome.error, outcome.state === 'pending' ? null : nowMs, id],
    );
  }

  async recent(accountId: number, limit: number): Promise<Delivery[]> {
    const rows = await this.db.all(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhooks w ON w.id = d.hook_id WHERE d.account_id = ? ORDER BY d.created_at DESC, d.id LIMIT ?`,
      [accountId, limit],
    );
    return rows.map(deliveryOf);
  }

  async resend(accountId: number, id: string, nowMs: number): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE webhook_deliveries SET state = 'pending', next_at = ?, lease_until = 0, finished_at = NULL WHERE id = ? AND account_id = ? AND state <> 'pending' " +
        'AND hook_id IN (SELECT id FROM webhooks WHERE account_id = ?)',
      [nowMs, id, accountId, accountId],
    );
    return changed === 1;
  }

  async countSince(accountId: number, sinceMs: number): Promise<number> {
    const [row] = await this.db.all('SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = ? AND created_at >= ?', [accountId, sinceMs]);
    return Number(row?.n ?? 0);
  }

  async watch(watch: TxWatch, network: NetworkId): Promise<void> {
    // Only for a hook that still exists: a watch of a removed hook would be read at every block for nothing.
    await this.db.run(
      'INSERT INTO webhook_watches (hook_id, txid, net, target, delivered) SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ?) ' +
        'ON CONFLICT (hook_id, txid) DO UPDATE SET delivered = excluded.delivered',
      [watch.hookId, watch.txid, networkCode(network), watch.target, watch.delivered, watch.hookId],
    );
  }

  async watches(network: NetworkId): Promise<TxWatch[]> {
    const rows = await this.db.all('SELECT hook_id, txid, target, delivered FROM webhook_watches WHERE net = ?', [networkCode(network)]);
    return rows.map((r) => ({ hookId: Number(r.hook_id), txid: String(r.txid), target: Number(r.target), delivered: Number(r.delivered) }));
  }

  async updateWatch(hookId: number, txid: string, delivered: number | null): Promise<void> {
    if (delivered === null) await this.db.run('DELETE FROM webhook_watches WHERE hook_id = ? AND txid = ?', [hookId, txid]);
    else await this.db.run('UPDATE webhook_watches SET delivered = ? WHERE hook_id = ? AND txid = ?', [delivered, hookId, txid]);
  }
}
