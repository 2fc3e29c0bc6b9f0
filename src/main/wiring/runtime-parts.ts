/**
 * A piece of a running process (the store, the event log's bus, HTTP, an indexer…): what starts it and what stops
 * it. A runtime is a list of parts in the order they start; they stop in the reverse order, so each part stops while
 * everything it was started after still runs (the indexers stop before the buses they publish on drain, the store
 * closes last).
 */
export interface RuntimePart {
  /** Named in the log line of a part that failed to stop. */
  readonly name: string;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

/**
 * Runs a list of parts: start() starts them in order; stop() stops, in reverse order, each part whose start began
 * (a part whose start failed midway stops too: it may hold half of what it opened). A failed start stops what it
 * began, then rejects. stop() runs once; every part's stop runs even when one before it fails (the first failure is
 * rethrown at the end).
 */
export class RuntimeParts {
  private readonly begun: RuntimePart[] = [];
  private stopping: Promise<void> | null = null;

  constructor(private readonly parts: readonly RuntimePart[]) {}

  async start(): Promise<void> {
    try {
      for (const part of this.parts) {
        if (this.stopping) return;
        this.begun.push(part);
        await part.start?.();
      }
    } catch (error) {
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopBegun();
    return this.stopping;
  }

  private async stopBegun(): Promise<void> {
    let failure: unknown = null;
    for (const part of [...this.begun].reverse()) {
      try {
        await part.stop?.();
      } catch (error) {
        failure ??= error instanceof Error ? new Error(`stopping ${part.name}: ${error.message}`, { cause: error }) : error;
      }
    }
    if (failure !== null) throw failure;
  }
}
