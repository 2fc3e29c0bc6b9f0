/**
 * deploy/systemd/*.service as shipped (issue 29): `systemd-analyze verify` finds nothing to say, `systemd-analyze
 * security --offline=true` rates each unit's exposure at most 3.0, and each carries what docs/operations.md promises
 * (a dedicated user, its state directory, reload by SIGHUP, a restart policy, the sandbox). Both commands work without
 * systemd as PID 1 (containers, CI); scripts/setup.sh installs Debian's systemd package for them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const DIR = new URL('../../deploy/systemd/', import.meta.url).pathname;
const UNITS = readdirSync(DIR).filter((name) => name.endsWith('.service')).sort();
const MAX_EXPOSURE = 3.0;
const run = promisify(execFile);

async function analyze(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('systemd-analyze', args);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string };
    if (e.code === 'ENOENT') assert.fail('systemd-analyze is missing: install Debian\'s systemd package (scripts/setup.sh does)');
    return { code: Number(e.code ?? 1), stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The unit's [Service] settings, each key with every value it is given (repeated keys accumulate, as in systemd). */
function serviceSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const line of text.split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line.trim());
    if (header) section = header[1]!;
    const setting = /^(\w+)=(.*)$/.exec(line);
    if (section === 'Service' && setting) settings.set(setting[1]!, [...(settings.get(setting[1]!) ?? []), setting[2]!]);
  }
  return settings;
}

describe('deploy/systemd units', () => {
  it('ships the serve unit and the indexer unit of the scaled-out layout', () => {
    assert.deepEqual(UNITS, ['outpoint-index.service', 'outpoint.service']);
  });

  for (const unit of UNITS) {
    const path = join(DIR, unit);

    it(`${unit}: systemd-analyze verify is clean`, async () => {
      const result = await analyze(['verify', path]);
      assert.deepEqual([result.code, result.stdout.trim(), result.stderr.trim()], [0, '', '']);
    });

    it(`${unit}: systemd-analyze security rates its exposure at most ${MAX_EXPOSURE}`, async () => {
      const result = await analyze(['security', '--offline=true', path]);
      const overall = /Overall exposure level for \S+: (\d+\.\d+)/.exec(result.stdout);
      assert.ok(overall, `no overall rating in:\n${result.stdout}${result.stderr}`);
      assert.ok(Number(overall[1]) <= MAX_EXPOSURE, `exposure ${overall[1]}:\n${result.stdout}`);
    });

    it(`${unit}: a dedicated user, its state directory, SIGHUP reload, restarts and the sandbox`, () => {
      const settings = serviceSettings(readFileSync(path, 'utf8'));
      const one = (key: string): string | undefined => settings.get(key)?.at(-1);
      assert.equal(one('User'), 'outpoint');
      assert.equal(one('StateDirectory'), 'outpoint');
      assert.equal(one('ExecReload'), '/bin/kill -HUP $MAINPID');
      assert.equal(one('Restart'), 'on-failure');
      assert.match(one('ExecStart') ?? '', /\/bin\/outpoint\.js (serve|index) --config \/etc\/outpoint\/outpoint\.toml$/);
      const expected: Record<string, string> = {
        ProtectSystem: 'strict', ProtectHome: 'yes', PrivateTmp: 'yes', PrivateDevices: 'yes', NoNewPrivileges: 'yes',
        RestrictAddressFamilies: 'AF_INET AF_INET6 AF_UNIX', CapabilityBoundingSet: '', UMask: '0077',
      };
      for (const [key, value] of Object.entries(expected)) assert.equal(one(key), value, key);
      assert.ok(settings.get('SystemCallFilter')?.includes('@system-service'), 'SystemCallFilter=@system-service');
    });
  }
});
