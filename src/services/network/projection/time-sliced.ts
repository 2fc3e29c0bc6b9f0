/**
 * Runs a computation written as a generator, whose every `yield` is a point where it may pause: either in one go
 * (runToEnd) or in slices of at most about `sliceMs` with a turn of the event loop between them (runSliced). A
 * mempool projection pass on a 20,000-30,000-tx mempool held the event loop for 250-500 ms at a time; txs the node
 * announced meanwhile waited for it, which made realtime's p99 (docs/benchmarks.md, "Mempool at mainnet rates").
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** A computation that yields (nothing) at its pause points and returns T. */
export type Steps<T> = Generator<void, T, void>;

/** The longest stretch a sliced computation holds the event loop, give or take one step between pause points. */
export const DEFAULT_SLICE_MS = 10;

/** Runs `steps` to the end without pausing. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs `steps` in slices of about `sliceMs`, the event loop turning between them; resolves with its value. */
export async function runSliced<T>(steps: Steps<T>, sliceMs = DEFAULT_SLICE_MS): Promise<T> {
  for (;;) {
    const started = performance.now();
    let next = steps.next();
    while (!next.done && performance.now() - started < sliceMs) next = steps.next();
    if (next.done) return next.value;
    await yieldToEventLoop();
  }
}
