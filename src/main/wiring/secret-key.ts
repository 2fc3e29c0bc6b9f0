/**
 * The dashboard's server secret: `[accounts] secret_key` when set, else `<data_dir>/secret.key`, made on first
 * use (32 random bytes as hex, mode 0600). Every API process of a deployment needs the same key (TOTP secrets
 * sealed by one must open in the others; CSRF tokens must check everywhere): set secret_key, or copy the file.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutpointConfig } from '../../config/index.js';
import { ConfigError, type Logger } from '../../core/index.js';

const HEX = /^[0-9a-f]{64}$/;

export function secretKeyPath(config: OutpointConfig): string {
  return join(config.dataDir, 'secret.key');
}

/** A loader for SecretBox: reads (or makes) the key at first use, then keeps it. */
export function secretKeyLoader(config: OutpointConfig, logger: Logger): () => Uint8Array {
  let key: Uint8Array | null = null;
  return () => (key ??= loadSecretKey(config, logger));
}

export function loadSecretKey(config: OutpointConfig, logger: Logger): Uint8Array {
  if (config.accounts.secretKey !== null) return Buffer.from(config.accounts.secretKey, 'hex');
  const path = secretKeyPath(config);
  try {
    return parse(readFileSync(path, 'utf8'), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx': if another process made it in the meantime, read theirs instead of replacing it.
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    logger.info('made the dashboard secret key', { path });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parse(readFileSync(path, 'utf8'), path);
}

function parse(text: string, path: string): Uint8Array {
  const hex = text.trim().toLowerCase();
  if (!HEX.test(hex)) throw new ConfigError(`${path} must hold 64 hex digits (the dashboard secret key)`);
  return Buffer.from(hex, 'hex');
}
