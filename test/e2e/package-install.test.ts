/**
 * The package as an operator installs it (issue 29, docs/operations.md "Install"): `npm pack` of this checkout, then
 * `npm install --omit=dev` of the tarball into an empty directory (npm's install-script policy strict), then
 * `npx outpoint serve --config F` indexes a litecoind -regtest node and serves the explorer with its assets. The
 * installed tree holds compiled JavaScript and built assets only: no TypeScript loader, bundler or compiler. The
 * native fan-out sender is optional: without it the service runs and says so once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { command, installPackage, packCheckout } from '../helpers/package-install.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';

// Packing builds, and installing compiles better-sqlite3's Node 20 binding from source: minutes on a loaded machine
// (the file's own limit is run-tests.sh's TEST_TIMEOUT_MS).
describe('npm pack, npm install --omit=dev, npx outpoint serve', () => {
  let dir: string;
  let tarball: string;
  let install: string;
  let node: RegtestNode;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outpoint-package-'));
    install = join(dir, 'install');
    // Settled, not Promise.all: a failed pack must still leave the node assigned, so after() stops it (a running
    // litecoind would hold this file's process open until the runner's timeout).
    const [started, packed] = await Promise.allSettled([startLitecoind({ funded: true }), packCheckout(dir)]);
    if (started.status === 'fulfilled') node = started.value;
    if (started.status === 'rejected') throw started.reason;
    if (packed.status === 'rejected') throw packed.reason;
    tarball = packed.value;
    await installPackage(tarball, install);
  });

  after(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const serveInstalled = (): Promise<ServeProcess> =>
    startServeWithBody(`[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`, { command: { argv: ['npx', 'outpoint'], cwd: install } });
  const senderLines = (serve: ServeProcess): string[] => serve.log.join('').split('\n').filter((line) => line.includes('"realtime: fan-out sender"'));

  it('packs compiled JavaScript, the SQL migrations and built assets, and no TypeScript', async () => {
    const files = (await command('tar', ['-tzf', tarball], dir)).stdout.split('\n').filter(Boolean);
    for (const file of ['bin/outpoint.js', 'dist/js/src/main/cli.js', 'dist/js/src/store/migrations/sqlite-001-initial.sql', 'dist/web/manifest.json',
      'native/fanout/fanout.c', 'deploy/systemd/outpoint.service', 'CHANGELOG.md']) {
      assert.ok(files.includes(`package/${file}`), `${file} in the tarball`);
    }
    assert.deepEqual(files.filter((f) => f.endsWith('.ts') || /^package\/(src|test|bench|scripts)\//.test(f)), [], 'no sources, tests, benches or build scripts');
  });

  it('installs no TypeScript loader, bundler or compiler', async () => {
    const paths = (await command('npm', ['ls', '--all', '--parseable'], install)).stdout.split('\n').filter(Boolean);
    assert.ok(paths.some((p) => p.endsWith(`${sep}node_modules${sep}outpoint`)), 'outpoint installed');
    const tools = paths.map((p) => relative(install, p)).filter((p) => /(^|\/)node_modules\/(tsx|esbuild|typescript|@esbuild\/[^/]+)$/.test(p));
    assert.deepEqual(tools, []);
  });

  it('indexes a regtest node and serves the explorer with its assets', async () => {
    const payee = await node.newAddress('bech32');
    await node.send(payee, '1.25');
    await node.mine(1);
    const serve = await serveInstalled();
    try {
      const balance = async (): Promise<string | null> => {
        const reply = await fetch(`${serve.url}/api/v2/get_address_balance/LTCTEST/${payee}`);
        return reply.ok ? ((await reply.json()) as { data: { confirmed_balance: string } }).data.confirmed_balance : null;
      };
      await waitFor(async () => (await balance()) === '1.25000000', 60_000, `indexed balance of ${payee}: ${serve.log.join('').slice(-1500)}`, 200);

      const home = await fetch(`${serve.url}/`);
      assert.equal(home.status, 200);
      const page = await home.text();
      for (const [path, type] of [[/src="(\/assets\/app\.[0-9a-f]{12}\.js)"/, 'text/javascript'], [/href="(\/assets\/app\.[0-9a-f]{12}\.css)"/, 'text/css']] as const) {
        const url = path.exec(page)?.[1] ?? assert.fail(`no ${type} asset linked from the home page`);
        const asset = await fetch(`${serve.url}${url}`);
        assert.equal(asset.status, 200, url);
        assert.match(asset.headers.get('content-type') ?? '', new RegExp(`^${type}`));
        assert.ok((await asset.arrayBuffer()).byteLength > 1000, `${url} has its content`);
      }
      assert.equal(senderLines(serve).length, 1, 'the sender is named once');
      assert.match(senderLines(serve)[0]!, /"sender":"native"/, 'the install script built the native sender');
    } finally {
      await serve.stop();
    }
  });

  it('runs with the JavaScript sender when the native one is not built, and says so once', async () => {
    // What an install whose policy denies outpoint's install script leaves: no native/fanout/build.
    rmSync(join(install, 'node_modules', 'outpoint', 'native', 'fanout', 'build'), { recursive: true, force: true });
    const serve = await serveInstalled();
    try {
      const lines = senderLines(serve);
      assert.equal(lines.length, 1, serve.log.join('').slice(-1500));
      assert.match(lines[0]!, /"sender":"javascript"/);
      assert.match(lines[0]!, /npm run build:native/, 'the line says how to build it');
    } finally {
      await serve.stop();
    }
  });
});
