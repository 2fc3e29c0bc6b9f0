/**
 * Runs tasks one at a time per key (in this process): a check-then-write (count the keys, then add one) cannot
 * interleave with another for the same key. Bound: an entry exists only while a task of its key runs or waits,
 * so the map never holds more keys than requests in flight (keyed-lock.test.ts).
 */
export class KeyedLock<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.then(() => undefined, () => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting (tests check the bound). */
  get size(): number {
    return this.tails.size;
  }
}
