/**
 * The upgrade fixture (test/fixtures/upgrade/<version>/): stores written by a tagged version's own code, one per
 * engine, and what is needed to serve them again. Made by scripts/make-upgrade-fixture.sh (which runs
 * make-upgrade-fixture.ts against a worktree of the tag); read by test/e2e/upgrade.test.ts. Nothing here needs git
 * history at test time.
 *
 * Files: `blocks.json.gz` (the regtest chain's raw blocks, heights 1..tip: submitted to a fresh node they rebuild the
 * same chain, hash for hash), `store.sqlite.gz` (the SQLite store), `store.postgres.sql.gz` (pg_dump of the PostgreSQL
 * store), `expected.json` (below).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export const FIXTURE_ROOT = new URL('../fixtures/upgrade/', import.meta.url).pathname;
/** The version the committed fixture was made by; a new tag can add its own directory beside it. */
export const FIXTURE_VERSION = 'v0.1.0';

export type Engine = 'sqlite' | 'postgres';

/** What one store holds: the keys and short forms differ between the two stores (each made its own). */
export interface EngineExpected {
  /** v2 get_address_balance answers (confirmed, 8 decimals) of the addresses paid. */
  readonly balances: readonly { readonly address: string; readonly confirmed: string }[];
  readonly accounts: readonly {
    readonly email: string;
    readonly plan: string;
    readonly keys: readonly { readonly key: string; readonly prefix: string; readonly revoked: boolean }[];
  }[];
  /** v3 requests counted per account on the UTC day they were made. */
  readonly usage: readonly { readonly email: string; readonly day: string; readonly requests: number }[];
  /** v2 short forms handed out. */
  readonly shorts: readonly { readonly address: string; readonly short: string }[];
  /** The latest prices as v2 get_price answered them (from the exchange stand-in the old version polled). */
  readonly prices: readonly { readonly coin: string; readonly base: string; readonly exchange: string; readonly price: string }[];
}

/** What the old version was given and what it answered, checked again on the new version. */
export interface UpgradeExpected {
  readonly version: string;
  /** UNIX seconds when the fixture was made. */
  readonly madeAt: number;
  /** [accounts] secret_key of both stores' configuration (the new version must be started with the same). */
  readonly secretKey: string;
  readonly tip: { readonly height: number; readonly hash: string };
  /** One payment and its block height (v2 get_tx). */
  readonly payment: { readonly txid: string; readonly height: number };
  readonly plans: readonly { readonly name: string; readonly maxDailyRequests: number; readonly maxConcurrentRequests: number }[];
  readonly engines: Readonly<Record<Engine, EngineExpected>>;
}

export const fixtureFile = (name: string, version = FIXTURE_VERSION): string => `${FIXTURE_ROOT}${version}/${name}`;

export function readExpected(version = FIXTURE_VERSION): UpgradeExpected {
  return JSON.parse(readFileSync(fixtureFile('expected.json', version), 'utf8')) as UpgradeExpected;
}

export function readGzip(name: string, version = FIXTURE_VERSION): Buffer {
  return gunzipSync(readFileSync(fixtureFile(name, version)));
}

export function readBlocks(version = FIXTURE_VERSION): string[] {
  return JSON.parse(readGzip('blocks.json.gz', version).toString('utf8')) as string[];
}

/** The PostgreSQL client tools of the server binaries the tests use (pg_dump and psql must match it). */
export function pgTool(name: 'pg_dump' | 'psql'): string {
  return execFileSync('bash', ['-c', `ls -d /usr/lib/postgresql/*/bin/${name} 2>/dev/null | sort -V | tail -1 || command -v ${name}`], { encoding: 'utf8' }).trim() || name;
}
