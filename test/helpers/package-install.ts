/**
 * Outpoint as an operator gets it: `npm pack` of this checkout (run in a copy of its files, so the pack's build never
 * rewrites the dist/ that concurrently running tests execute), then `npm install --omit=dev` of the tarball into an
 * empty directory that holds only the tarball and the package.json docs/operations.md gives (its install-script policy).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

const REPO = new URL('../..', import.meta.url).pathname;
const run = promisify(execFile);

/**
 * The install dir's package.json of docs/operations.md: the tarball (in the directory) as the one dependency, and
 * which packages may run install scripts. npm's policy names a tarball by its absolute `file:` path and registry
 * packages by name (the better-sqlite3 entry covers the better-sqlite3-node20 alias, whose script compiles the Node 20
 * binding).
 */
export function installManifest(dir: string, tarballName: string): Record<string, unknown> {
  return { private: true, dependencies: { outpoint: `file:${tarballName}` }, allowScripts: { [`file:${join(dir, tarballName)}`]: true, 'better-sqlite3': true, zeromq: true } };
}

export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command; a failure throws with its output (npm's reasons are on stderr). */
export async function command(program: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CommandResult> {
  try {
    return await run(program, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${program} ${args.join(' ')} failed in ${cwd}:\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`);
  }
}

/**
 * Packs this checkout into `dir` and returns the tarball's path. The copy holds the files git would commit (tracked
 * and new, not ignored) plus the current build outputs, so `prepack` (`npm run build`) only recompiles what changed;
 * node_modules is linked (the build tools are development dependencies).
 */
export async function packCheckout(dir: string): Promise<string> {
  const copy = join(dir, 'checkout');
  mkdirSync(copy, { recursive: true });
  if (existsSync(join(REPO, '.git'))) {
    const { stdout } = await command('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], REPO);
    for (const file of stdout.split('\0').filter((f) => f && existsSync(join(REPO, f)))) cpSync(join(REPO, file), join(copy, file), { preserveTimestamps: true, force: true });
  } else {
    // A copy that is no git checkout (scripts/test-on-node.sh's work copy holds the files git would commit): all of it
    // but what the build makes and the caches.
    const skip = new Set(['.git', 'node_modules', 'dist', '.tmp', '.bench-cache'].map((name) => join(REPO, name)));
    cpSync(REPO, copy, { recursive: true, preserveTimestamps: true, force: true, filter: (source) => !skip.has(source) });
  }
  cpSync(join(REPO, 'dist'), join(copy, 'dist'), { recursive: true, preserveTimestamps: true });
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
  await command('npm', ['pack', '--pack-destination', dir, '--loglevel=error'], copy);
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack left no tarball in ${dir}`);
  return join(dir, tarball);
}

/**
 * Installs `tarball` into the empty directory `dir` (created) for production, as docs/operations.md does: the tarball
 * and installManifest() in the directory, then `npm install --omit=dev`, with npm's install-script policy strict (a
 * dependency whose script the policy does not cover fails the install instead of running with a warning).
 */
export async function installPackage(tarball: string, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  copyFileSync(tarball, join(dir, basename(tarball)));
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(installManifest(dir, basename(tarball)), null, 2)}\n`);
  // --prefer-offline: the packages are in npm's cache from this checkout's own install; no need to ask the registry again.
  await command('npm', ['install', '--omit=dev', '--strict-allow-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], dir);
}
