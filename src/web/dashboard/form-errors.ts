/**
 * Which errors a form shows to its user (re-rendered with the message and a fitting status) rather than as an
 * error page: wrong input, wrong credentials, limits. Anything else goes to the web error handler.
 */
import type { FastifyReply } from 'fastify';
import { OutpointError, BudgetSpentError, BusyError, ForbiddenError, TooManyAttemptsError } from '../../core/domain/errors.js';

export interface FormError {
  readonly status: number;
  readonly message: string;
}

export function formError(error: unknown): FormError | null {
  if (!(error instanceof OutpointError)) return null;
  if (error instanceof TooManyAttemptsError || error instanceof BudgetSpentError) return { status: 429, message: error.message };
  if (error instanceof BusyError) return { status: 503, message: error.message };
  if (error instanceof ForbiddenError) return { status: 403, message: error.message };
  switch (error.code) {
    case 'INVALID_ARGUMENT':
      return { status: 400, message: error.message };
    case 'UNAUTHORIZED':
      return { status: 401, message: error.message };
    case 'NOT_FOUND':
      return { status: 404, message: error.message };
    default:
      return null;
  }
}

/** Runs a form's action; a user-facing error is handed to `rerender` (with Retry-After on limits), others rethrown. */
export async function handleForm(reply: FastifyReply, action: () => Promise<unknown>, rerender: (error: FormError) => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    const shown = formError(error);
    if (!shown) throw error;
    if (error instanceof TooManyAttemptsError || error instanceof BudgetSpentError) reply.header('retry-after', String(error.retryAfter));
    if (error instanceof BusyError) reply.header('retry-after', '5');
    await rerender(shown);
  }
}
