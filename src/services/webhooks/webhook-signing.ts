import { createHash, createHmac, randomBytes } from 'node:crypto';

/** `X-Outpoint-Signature`: `sha256=` and the hex HMAC-SHA256 of the raw body under the hook's secret (docs/webhooks.md). */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** A hook's secret: 32 random bytes, shown once at registration. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

/**
 * A delivery's id (`X-Outpoint-Delivery`): derived from the hook and what happened, so an event seen twice (a restart,
 * two writers in turn) makes one delivery, and every retry of it carries the same id.
 */
export function deliveryId(hookId: number, what: string): string {
  return createHash('sha256').update(`${hookId}\n${what}`).digest('hex').slice(0, 32);
}
