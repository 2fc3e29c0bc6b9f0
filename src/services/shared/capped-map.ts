/**
 * A Map that holds at most `max` entries: adding one more drops the oldest (a Map keeps insertion order; an entry
 * set again moves to the end). For caches whose keys clients choose (API keys, scripts, blocks): each user states
 * its bound and what an entry costs where it makes one. Tested in capped-map.test.ts.
 */
export class CappedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly max: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
