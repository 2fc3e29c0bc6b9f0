/**
 * The arrival schedule of the mempool bench: phases of a steady rate (txs per second) one after the other, txs added
 * to the stand-in node's mempool on a fixed tick so the count added always follows the schedule's integral (a late
 * tick adds what it owes: no drift under load). Each added tx is stamped with the node's own time of having it.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface Phase {
  readonly label: string;
  /** Txs per second. */
  readonly rate: number;
  readonly seconds: number;
}

export interface AddedTx {
  readonly txid: string;
  /** When the node had it (ms since the epoch). */
  readonly at: number;
  /** Index of the phase it arrived in. */
  readonly phase: number;
}

export type AddTxs = (count: number) => Promise<{ at: number; txids: string[] }>;

/** Txs the schedule has added by `elapsed` seconds, and the phase it is in. */
export function scheduled(phases: readonly Phase[], elapsed: number): { count: number; phase: number } {
  let count = 0;
  let start = 0;
  let phase = -1;
  for (let i = 0; i < phases.length; i++) {
    const p = phases[i]!;
    if (phase < 0 && elapsed < start + p.seconds) phase = i;
    count += p.rate * Math.min(Math.max(elapsed - start, 0), p.seconds);
    start += p.seconds;
  }
  return { count: Math.floor(count + 1e-9), phase: phase < 0 ? phases.length - 1 : phase };
}

export const totalSeconds = (phases: readonly Phase[]): number => phases.reduce((s, p) => s + p.seconds, 0);

/**
 * Runs the schedule (tick every `tickMs`), calling `onSecond` once a second with the count added so far.
 * Returns every tx added, in order.
 */
export async function drive(phases: readonly Phase[], add: AddTxs, tickMs: number, onSecond: (added: number, second: number) => void): Promise<AddedTx[]> {
  const added: AddedTx[] = [];
  const total = totalSeconds(phases);
  const started = performance.now();
  let second = 0;
  for (let tick = 1; ; tick++) {
    const elapsed = (performance.now() - started) / 1000;
    const due = scheduled(phases, Math.min(elapsed, total));
    const owed = due.count - added.length;
    if (owed > 0) {
      const { at, txids } = await add(owed);
      for (const txid of txids) added.push({ txid, at, phase: due.phase });
    }
    while (second < Math.floor(elapsed)) onSecond(added.length, ++second);
    if (elapsed >= total) return added;
    const wait = started + tick * tickMs - performance.now();
    if (wait > 0) await delay(wait);
  }
}
