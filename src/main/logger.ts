import type { Logger } from '../core/index.js';

/** Log lines on stderr: `time level message key=value…`, so stdout stays free for command output. */
export function createStderrLogger(): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>): void => {
    const extra = fields
      ? Object.entries(fields)
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? x.toString() : x))}`)
          .join(' ')
      : '';
    process.stderr.write(`${new Date().toISOString()} ${level} ${message}${extra ? ` ${extra}` : ''}\n`);
  };
  return {
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}
