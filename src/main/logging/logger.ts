/**
 * Log lines on stderr, so stdout stays free for command output. On a terminal: `time level message key=value…`;
 * elsewhere (systemd, containers, files) one JSON object per line: {"time","level","message",…fields}, which log
 * collectors parse without rules. `[log] level` drops lower levels; `[log] format` forces either form.
 *
 * Secrets never reach a line: values of fields named like credentials are replaced, and credentials inside any text
 * (user:password@ in URLs, full API keys) are masked, in the message as in the fields (docs/operations.md, "Logs").
 */
import type { Logger, LogLevel } from '../../core/index.js';
import { redactText, redactValue } from './log-redaction.js';

export type LogFormat = 'auto' | 'json' | 'text';

export interface LoggerOptions {
  readonly level?: LogLevel;
  readonly format?: LogFormat;
  /** Default process.stderr. */
  readonly stream?: { readonly isTTY?: boolean; write(text: string): unknown };
  readonly now?: () => Date;
  /** `[log] wallet_keys`: keep extended public keys in lines (default false: masked). */
  readonly walletKeys?: boolean;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
/** Keys of the line itself; a field with one of these names is written as `field_<name>`. */
const RESERVED = new Set(['time', 'level', 'message']);

export function createLogger(options: LoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stderr;
  const json = options.format === 'json' || ((options.format ?? 'auto') === 'auto' && stream.isTTY !== true);
  const minimum = RANK[options.level ?? 'info'];
  const now = options.now ?? (() => new Date());
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    const redact = { walletKeys: options.walletKeys ?? false };
    const safe = fields ? (redactValue(fields, 0, redact) as Record<string, unknown>) : {};
    const text = redactText(message, redact);
    if (json) {
      const line: Record<string, unknown> = { time: now().toISOString(), level, message: text };
      for (const [key, value] of Object.entries(safe)) line[RESERVED.has(key) ? `field_${key}` : key] = value;
      stream.write(`${JSON.stringify(line)}\n`);
      return;
    }
    const extra = Object.entries(safe)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    stream.write(`${now().toISOString()} ${level} ${text}${extra ? ` ${extra}` : ''}\n`);
  };
  const at = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => write(level, message, fields);
  const logger: Logger = { info: at('info'), warn: at('warn'), error: at('error') };
  if (minimum > RANK.info) logger.info = () => undefined;
  if (minimum > RANK.warn) logger.warn = () => undefined;
  // Present only when enabled: callers test for it instead of building lines nobody reads.
  if (minimum <= RANK.debug) logger.debug = at('debug');
  return logger;
}

/** The logger of commands that have no configuration (or before it is read): info and up. */
export function createStderrLogger(): Logger {
  return createLogger();
}
