import { StoreError } from '../../../core/domain/errors.js';

/** Bumped by every migration; docs/schema.md describes this version. */
export const SCHEMA_VERSION = 16;

/** Refuses databases written by a newer Outpoint: guessing at an unknown layout could corrupt it. */
export function assertSupportedVersion(found: number, engine: string): void {
  if (!Number.isInteger(found) || found < 0) {
    throw new StoreError(`${engine} store: unreadable schema version ${String(found)}; refusing to start`);
  }
  if (found > SCHEMA_VERSION) {
    throw new StoreError(
      `${engine} store: database schema version ${found} is newer than this Outpoint supports (${SCHEMA_VERSION}); ` +
        'upgrade Outpoint or point it at another database',
    );
  }
}
