/**
 * The data directory and the SQLite store are made owner-only (0700 and 0600: the store holds password hashes,
 * session hashes and the script-key salt). Files an older version made, or an operator loosened, are not changed
 * behind the operator's back (a backup job may read them through its group), but `serve` and `index` say so once at
 * start, with the command that tightens them (docs/operations.md, Security).
 */
import { statSync } from 'node:fs';
import type { OutpointConfig } from '../../config/index.js';
import type { Logger } from '../../core/infrastructure/logger.js';

/** The paths (data dir, store file and its -wal/-shm) that others than the owner may read or enter. */
export function sharedPrivatePaths(config: OutpointConfig): string[] {
  const store = config.store.url.startsWith('sqlite:') ? config.store.url.slice('sqlite:'.length) : null;
  const paths = [config.dataDir, ...(store && store !== ':memory:' ? [store, `${store}-wal`, `${store}-shm`] : [])];
  return paths.filter((path) => {
    try {
      return (statSync(path).mode & 0o077) !== 0;
    } catch {
      return false; // not there (yet): made owner-only when it is
    }
  });
}

export function warnAboutSharedFiles(config: OutpointConfig, logger: Logger): void {
  const shared = sharedPrivatePaths(config);
  if (shared.length === 0) return;
  logger.warn('files holding account data are readable by other users; make them owner-only', {
    paths: shared,
    fix: shared.map((p) => `chmod go-rwx '${p}'`).join('; '),
  });
}
