import type { Logger } from '../../src/core/index.js';

export interface LoggedLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields: Record<string, unknown> | undefined;
}

/** A Logger that keeps every line, for tests that assert what an operator would read. */
export function recordingLogger(): { logger: Logger; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at = (level: LoggedLine['level']) => (message: string, fields?: Record<string, unknown>): void => void lines.push({ level, message, fields });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') }, lines };
}
