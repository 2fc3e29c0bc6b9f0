import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Runs `work` and counts the turns of the event loop while it runs: how tests show that long work (a projection, a
 * decode, a prune) lets timers and sockets in between its pieces instead of holding the loop in one.
 */
export async function withLoopTurns<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const counting = (async () => {
    while (running) {
      await nextTurn();
      turns++;
    }
  })();
  try {
    return { result: await work(), turns };
  } finally {
    running = false;
    await counting;
  }
}
