import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { OutpointError, type IndexSyncingError, type RawTxUnavailableError } from '../../core/domain/errors.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { WebShell } from './web-shell.js';

interface ErrorPage {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  /** Seconds, sent as Retry-After. */
  readonly retryAfter?: number;
}

/** The wait a limit's error names (BudgetSpentError, ServerBusyError, TooManyAttemptsError), as Retry-After. */
function retryAfterOf(error: OutpointError): { retryAfter?: number } {
  const wait = (error as { retryAfter?: unknown }).retryAfter;
  return typeof wait === 'number' ? { retryAfter: Math.max(1, Math.ceil(wait)) } : {};
}

/**
 * What a visitor is told about an error: lookups that find nothing (unknown or malformed ids, networks not served)
 * are 404 pages that say what was wrong; a node that cannot be reached is 503; anything else is a 500 that says
 * nothing about internals (the log has the details).
 */
export function errorPageFor(error: unknown): ErrorPage {
  if (error instanceof OutpointError) {
    switch (error.code) {
      case 'NOT_FOUND':
      case 'INVALID_ARGUMENT':
      case 'UNSUPPORTED_NETWORK':
        return { status: 404, title: 'Not found', message: error.message };
      case 'RATE_LIMITED':
        return { status: 429, title: 'Too many requests', message: error.message, ...retryAfterOf(error) };
      case 'SERVER_BUSY':
        // Every wallet derivation slot and its queue are taken: temporary, not a fault to log.
        return { status: 503, title: 'Busy', message: error.message, ...retryAfterOf(error) };
      case 'INDEX_SYNCING':
        // The network is in its initial sync (its message says how far and how long); not a fault to log.
        return { status: 503, title: 'Syncing', message: error.message, retryAfter: (error as IndexSyncingError).details.retryAfterSeconds };
      case 'RAW_TX_UNAVAILABLE':
        // raw_txs = "node" and the node cannot give this page's raw transactions right now.
        return { status: 503, title: 'Temporarily unavailable', message: `${error.message}. Please try again in a moment.`, retryAfter: (error as RawTxUnavailableError).retryAfterSeconds };
      case 'RPC_UNAVAILABLE':
        return { status: 503, title: 'Temporarily unavailable', message: 'The node behind this explorer cannot be reached right now. Please try again in a moment.' };
      default:
        break;
    }
  }
  const status = (error as Partial<FastifyError>).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, title: 'Bad request', message: 'The request could not be understood.' };
  }
  return { status: 500, title: 'Something went wrong', message: 'This page could not be shown because of an error on our side. It has been logged.' };
}

/** The web plugin's error handler: every error becomes an HTML page. */
export function webErrorHandler(shell: WebShell, logger: Logger) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const page = errorPageFor(error);
    if (page.retryAfter !== undefined) reply.header('Retry-After', String(page.retryAfter));
    else if (page.status >= 500) logger.error('web page failed', { reqId: request.id, url: request.url.slice(0, 300), error: String((error as Error)?.stack ?? error) });
    return shell.errorPage(request, reply, page.status, page.title, page.message);
  };
}

/** Unknown paths outside /api/: an HTML 404 with the search box. */
export function webNotFound(shell: WebShell) {
  return (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> =>
    shell.errorPage(request, reply, 404, 'Page not found', 'There is nothing at this address. Search for what you were looking for:');
}
