import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { WriterStandbyError } from '../../../core/domain/errors.js';
import { openSqliteDatabase } from './sqlite-binding.js';
import { SqliteWriterLock, writerLockPath } from './sqlite-writer-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'outpoint-writer-lock-'));
const children: ChildProcess[] = [];

after(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Another process holding the lock until killed; resolves once it holds it. */
async function holderProcess(path: string): Promise<ChildProcess> {
  const module = new URL('./sqlite-writer-lock.ts', import.meta.url).pathname;
  const code = `import { SqliteWriterLock } from ${JSON.stringify(module)};
new SqliteWriterLock(${JSON.stringify(path)}, 'LTCTEST').hold(); console.log('held'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return child;
}

describe('SqliteWriterLock', () => {
  it('another process holding it: WriterStandbyError; once that process is killed (-9), taken at once', async () => {
    const path = join(dir, 'a.db.writer-LTCTEST.lock');
    const holder = await holderProcess(path);
    const lock = new SqliteWriterLock(path, 'LTCTEST');
    assert.throws(() => lock.hold(), (e: unknown) => e instanceof WriterStandbyError && /writer lock file is held/.test(e.message));
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    lock.hold();
    lock.release();
  });

  it('the stores of one process share it; it goes when the last lets go', async () => {
    const path = join(dir, 'b.db.writer-LTCTEST.lock');
    const first = new SqliteWriterLock(path, 'LTCTEST');
    const second = new SqliteWriterLock(path, 'LTCTEST');
    first.hold();
    second.hold();
    first.release();
    // Still held by this process (second): another process cannot take it.
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
      `import { SqliteWriterLock } from ${JSON.stringify(new URL('./sqlite-writer-lock.ts', import.meta.url).pathname)};
try { new SqliteWriterLock(${JSON.stringify(path)}, 'LTCTEST').hold(); console.log('took'); } catch (e) { console.log(e.code); }`], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(out.trim(), 'WRITER_STANDBY');
    second.release();
    const holder = await holderProcess(path);
    holder.kill('SIGKILL');
  });

  it('its file sits beside the store, one per network; an in-memory database has none', () => {
    const file = openSqliteDatabase(join(dir, 'c.db'));
    const memory = openSqliteDatabase(':memory:');
    try {
      assert.equal(writerLockPath(file, 'DOGE'), `${join(dir, 'c.db')}.writer-DOGE.lock`);
      assert.equal(writerLockPath(memory, 'DOGE'), null);
    } finally {
      file.close();
      memory.close();
    }
  });
});
