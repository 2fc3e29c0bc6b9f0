import type { DumpManifest } from '../../src/store/common/dump/dump-format.js';
import { DumpReader } from '../../src/store/common/dump/dump-reader.js';

/** A dump file's header and verified manifest (every table read and checked). */
export async function readManifest(file: string): Promise<DumpManifest & { header: unknown }> {
  const reader = new DumpReader(file);
  try {
    const header = await reader.header<unknown>();
    while (await reader.nextTable()) while ((await reader.rows(10_000)).length > 0);
    return { ...(await reader.verify()), header };
  } finally {
    reader.close();
  }
}
