/**
 * The database being down (restarting, unreachable, shutting down) is a temporary state, not a fault of the query:
 * such errors become StoreUnavailableError, which the APIs answer with 503 and Retry-After instead of a 500.
 */
import type pg from 'pg';
import { StoreUnavailableError } from '../../../core/domain/errors.js';

/** Socket errors, SQLSTATE class 08 (connection exception) and the server's shutdown and start-up states. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);

export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(error.message);
}

function translate(error: unknown): unknown {
  return isUnavailable(error) ? new StoreUnavailableError((error as Error).message, { cause: error }) : error;
}

/** Makes the pool's queries and checkouts reject with StoreUnavailableError while the database is down. */
export function translateUnavailable(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  // Only the promise forms are translated: pg-pool calls its own connect with a callback inside query().
  const promised = (result: unknown): unknown => (result instanceof Promise ? result.catch((error: unknown) => Promise.reject(translate(error))) : result);
  Object.assign(pool, {
    query: (...args: unknown[]) => promised(query(...args)),
    connect: (...args: unknown[]) => promised(connect(...args)),
  });
}
