/**
 * Why a background probe (a node's block count, the index tip, the store) failed, as a short code. Readiness
 * bodies are public on the API port, so they name the kind of failure and never the error's text: that carried
 * internal addresses (`connect ECONNREFUSED 127.0.0.1:19332`), hosts and driver messages. The full text goes to
 * the log only (health-monitor.ts), where the operator looks.
 */
import { OutpointError } from '../../core/domain/errors.js';

export type ProbeFailure = 'timeout' | 'connection_refused' | 'connection_reset' | 'host_unreachable' | 'unauthorized' | 'rpc_error' | 'unavailable' | 'failed';

const BY_SYSTEM_CODE: Readonly<Record<string, ProbeFailure>> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  ENOTFOUND: 'host_unreachable',
  EAI_AGAIN: 'host_unreachable',
  EHOSTUNREACH: 'host_unreachable',
  ENETUNREACH: 'host_unreachable',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ABORT_ERR: 'timeout',
  '57P01': 'unavailable', // PostgreSQL: admin shutdown
  '57P03': 'unavailable', // PostgreSQL: cannot connect now (starting up)
};

export function probeFailure(error: unknown): ProbeFailure {
  // The system error is usually a cause or two down (fetch wraps it, the RPC client wraps fetch's).
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && BY_SYSTEM_CODE[code]) return BY_SYSTEM_CODE[code];
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout';
    if (/HTTP 401/.test(e.message)) return 'unauthorized';
  }
  if (error instanceof OutpointError) {
    if (error.code === 'RPC_ERROR') return 'rpc_error';
    if (error.code === 'STORE_UNAVAILABLE' || error.code === 'RPC_UNAVAILABLE') return 'unavailable';
  }
  return 'failed';
}
