/**
 * The fuzz loop shared by the CI test (test/e2e/entries-fuzz.test.ts, bounded) and `npm run bench:fuzz` (long):
 * numbered cases drawn from one seed (case n is the same input whatever ran before it, P2P cases aside, which
 * depend on which sessions are open), run a batch at a time with bounded concurrency. A case fails on a 5xx, a
 * websocket closed with 1011 (the server's own fault), or a valid upgrade not answered 101. After every batch the
 * process must be alive, answer get_info with 200 and have logged no error line. A failure names the seed, the
 * case, its input and how to replay it.
 */
import { closeCode, completeResponse, rawExchange, type RawAnswer } from '../raw-http.js';
import { FuzzRandom, showInput } from './fuzz-random.js';
import type { FuzzTarget } from './fuzz-target.js';
import { httpCase } from './http-fuzz.js';
import { frameCase, upgradeCase, validUpgrade } from './ws-fuzz.js';
import { electrumCase, electrumFault } from './electrum-fuzz.js';

export type FuzzKind = 'http' | 'upgrade' | 'frames' | 'p2p' | 'electrum';

export interface FuzzOptions {
  readonly seed: number;
  readonly cases: number;
  /** Run only this case number (a replay). */
  readonly only?: number;
  readonly batch?: number;
  readonly concurrency?: number;
  /** Progress lines (one per batch). */
  readonly progress?: (line: string) => void;
}

export interface FuzzReport {
  readonly seed: number;
  readonly cases: number;
  readonly byKind: Record<FuzzKind, number>;
  /** First-response status (or "closed"/"pending") → count, over HTTP and upgrade cases. */
  readonly answers: Record<string, number>;
  /** P2P cases skipped because no session was open at the time (dropped peers are retried after a minute). */
  readonly p2pSkipped: number;
  readonly p2pSessions: number;
  readonly ms: number;
}

export class FuzzFailure extends Error {}

/** Share of each kind, in this order: HTTP entries are most of the surface. */
const MIX: readonly [FuzzKind, number][] = [['http', 0.5], ['upgrade', 0.13], ['frames', 0.17], ['p2p', 0.1], ['electrum', 0.1]];

function kindOf(random: FuzzRandom): FuzzKind {
  let x = random.float();
  for (const [kind, share] of MIX) {
    if ((x -= share) < 0) return kind;
  }
  return 'http';
}

interface Outcome {
  readonly kind: FuzzKind;
  readonly input: Buffer | null;
  readonly answer: RawAnswer | null;
  readonly fault: string | null;
}

async function runCase(target: FuzzTarget, seed: number, n: number): Promise<Outcome> {
  const random = new FuzzRandom(seed, n);
  const kind = kindOf(random);
  const port = target.serve.port;
  switch (kind) {
    case 'http': {
      const input = httpCase(random, target.known);
      const answer = await rawExchange(port, input, { done: completeResponse, timeoutMs: 5_000 });
      return { kind, input, answer, fault: answer.status !== null && answer.status >= 500 ? `answered ${answer.status}` : null };
    }
    case 'upgrade': {
      const input = upgradeCase(random);
      const answer = await rawExchange(port, input, { done: (t) => closeCode(t) !== null || (!t.startsWith('HTTP/1.1 101') && completeResponse(t)), timeoutMs: 500 });
      return { kind, input, answer, fault: wsFault(answer) };
    }
    case 'frames': {
      const input = Buffer.concat([validUpgrade(), frameCase(random, target.known)]);
      const answer = await rawExchange(port, input, { done: (t) => closeCode(t) !== null, timeoutMs: 500 });
      // Nothing yet (a loaded server) is no fault; anything but 101 to a valid upgrade is.
      const refused = answer.status !== null && answer.status !== 101;
      return { kind, input, answer, fault: refused ? `a valid upgrade answered ${answer.status}` : wsFault(answer) };
    }
    case 'electrum': {
      const input = electrumCase(random, target.known);
      // Answers come within the pause; a session the server closed (an overlong line) ends sooner.
      const answer = await rawExchange(target.electrumPort, input, { timeoutMs: 300 });
      return { kind, input, answer, fault: electrumFault(answer.text) };
    }
    default:
      return { kind, input: null, answer: null, fault: target.p2p.send(random) ? null : 'skipped' };
  }
}

function wsFault(answer: RawAnswer): string | null {
  if (answer.status !== null && answer.status >= 500) return `answered ${answer.status}`;
  return closeCode(answer.text) === 1011 ? 'closed with 1011 (internal error)' : null;
}

export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const byKind: Record<FuzzKind, number> = { http: 0, upgrade: 0, frames: 0, p2p: 0, electrum: 0 };
  const answers: Record<string, number> = {};
  let p2pSkipped = 0;
  const numbers = options.only !== undefined ? [options.only] : Array.from({ length: options.cases }, (_, i) => i);
  const batch = options.batch ?? 250;
  const replay = (n: number): string => `replay: OUTPOINT_TEST_FUZZ_SEED=${options.seed} OUTPOINT_TEST_FUZZ_CASE=${n} (or npm run bench:fuzz -- --seed ${options.seed} --case ${n})`;
  for (let from = 0; from < numbers.length; from += batch) {
    const slice = numbers.slice(from, from + batch);
    const logBefore = target.serve.log.join('').length;
    const queue = [...slice];
    const worker = async (): Promise<void> => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        const outcome = await runCase(target, options.seed, n);
        if (outcome.fault === 'skipped') {
          p2pSkipped++;
          continue;
        }
        byKind[outcome.kind]++;
        if (outcome.answer && outcome.kind !== 'electrum') {
          const label = outcome.answer.status === null ? (outcome.answer.closed ? 'closed' : 'pending') : String(outcome.answer.status);
          answers[label] = (answers[label] ?? 0) + 1;
        }
        if (outcome.fault !== null) {
          throw new FuzzFailure(`fuzz seed ${options.seed} case ${n} (${outcome.kind}): ${outcome.fault}\ninput: ${showInput(outcome.input ?? '')}\n` +
            `answer: ${showInput(outcome.answer?.text ?? '', 300)}\n${replay(n)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 48 }, worker));
    await checkServing(target, `after cases ${slice[0]}–${slice[slice.length - 1]} of seed ${options.seed}`, logBefore);
    options.progress?.(`fuzz: ${from + slice.length}/${numbers.length} cases, ${((performance.now() - started) / 1000).toFixed(1)} s, p2p sessions ${target.p2p.sessions}`);
  }
  const cases = byKind.http + byKind.upgrade + byKind.frames + byKind.p2p + byKind.electrum;
  return { seed: options.seed, cases, byKind, answers, p2pSkipped, p2pSessions: target.p2p.sessions, ms: performance.now() - started };
}

/** Alive, get_info answers 200, and no error line was logged since `logFrom`. */
async function checkServing(target: FuzzTarget, when: string, logFrom: number): Promise<void> {
  const { serve, known } = target;
  if (serve.child.exitCode !== null || serve.child.signalCode !== null) {
    throw new FuzzFailure(`${when}: the process ended (${serve.child.exitCode ?? serve.child.signalCode}): ${serve.log.join('').slice(-2000)}`);
  }
  const info = await fetch(`${serve.url}/api/v2/get_info/${known.network}`, { signal: AbortSignal.timeout(15_000) }).catch((err: Error) => err);
  if (info instanceof Error || info.status !== 200) throw new FuzzFailure(`${when}: get_info did not answer 200 (${info instanceof Error ? info.message : info.status})`);
  await info.arrayBuffer();
  const errors = serve.log.join('').slice(logFrom).split('\n').filter((line) => line.includes('"level":"error"'));
  if (errors.length > 0) throw new FuzzFailure(`${when}: the process logged errors:\n${errors.slice(0, 5).join('\n')}`);
}
