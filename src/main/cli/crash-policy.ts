/**
 * The last resort. An exception or a rejection that nothing handled is a fault of ours, after which the process's
 * state cannot be vouched for: it is logged as one line (with its stack, for the operator) and the process exits
 * with EX_SOFTWARE, so that a supervisor (systemd Restart=on-failure, a container runtime) starts it again: every
 * store write is a transaction and the indexer resumes from its last committed block. Carrying on silently could
 * serve a half-updated state for hours. No client input leads here: the entry layers answer malformed input as a
 * client error (issue 27, test/e2e/hostile-input.test.ts).
 */
import type { Logger } from '../../core/index.js';

/** sysexits.h EX_SOFTWARE: an internal software error. */
export const CRASH_EXIT_CODE = 70;

export function installCrashPolicy(logger: Logger): void {
  const crash = (what: string, error: unknown): void => {
    try {
      const fields = error instanceof Error ? { error: error.message, stack: error.stack ?? '' } : { error: String(error) };
      logger.error(`${what}: exiting`, fields);
    } finally {
      process.exit(CRASH_EXIT_CODE);
    }
  };
  process.on('uncaughtException', (error) => crash('uncaught exception', error));
  process.on('unhandledRejection', (reason) => crash('unhandled promise rejection', reason));
}
