/**
 * Structured log lines; main decides where they go (stderr: JSON lines, or text on a terminal) and which levels.
 * `debug` is absent when the configured level is above it, so callers skip building debug lines (`logger.debug?.(…)`)
 * and hot paths can test for it once.
 */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
