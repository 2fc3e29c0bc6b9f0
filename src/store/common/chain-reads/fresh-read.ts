/**
 * One query answering every caller that arrives while it is queued: a read whose answer each caller must see no
 * older than its call (the chain tip, asked by every address page of a busy API process). A caller never gets an
 * answer read before it called: while a query runs, callers wait for the next one, which starts once the running
 * one ends and serves all of them. So under load one query per round trip answers any number of callers; idle, a
 * call costs exactly one query, as before.
 */
export class FreshRead<T> {
  private running: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly query: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.running) return this.start();
    // The running query may have been sent before this call: wait for the one after it.
    this.next ??= this.running.then(
      () => this.startNext(),
      () => this.startNext(),
    );
    return this.next;
  }

  private startNext(): Promise<T> {
    this.next = null;
    return this.start();
  }

  private start(): Promise<T> {
    const run = this.query();
    this.running = run;
    const clear = (): void => {
      if (this.running === run) this.running = null;
    };
    run.then(clear, clear);
    return run;
  }
}
