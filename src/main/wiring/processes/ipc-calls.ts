/**
 * Calls from a worker process to the serving process over the cluster's IPC channel, answered by the serving process
 * (counter-host.ts): each call carries an id its reply names; id 0 asks for no reply. A worker whose channel closes
 * fails every call still waiting (the worker then stops: nothing answers it any more).
 */

/** What a worker asks the serving process (counter-host.ts answers each). */
export type CallOp =
  | 'rate.hit' | 'slot.acquire' | 'slot.release'
  | 'attempt.add' | 'attempt.peek' | 'attempt.clear'
  | 'usage.hit' | 'usage.read' | 'usage.readKeys' | 'usage.touchKey' | 'usage.flush'
  | 'metrics.render' | 'accounts.changed' | 'keyFailure.record';

export interface CallMessage {
  readonly type: 'call';
  readonly id: number;
  readonly op: CallOp;
  readonly args: readonly unknown[];
}

export interface ReplyMessage {
  readonly type: 'reply';
  readonly id: number;
  readonly value?: unknown;
  readonly error?: string;
}

export class IpcCaller {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private next = 1;
  private closed: string | null = null;

  constructor(private readonly send: (message: CallMessage) => void) {}

  call<T>(op: CallOp, args: readonly unknown[]): Promise<T> {
    if (this.closed !== null) return Promise.reject(new Error(this.closed));
    const id = this.next++;
    if (this.next === Number.MAX_SAFE_INTEGER) this.next = 1;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.send({ type: 'call', id, op, args });
    });
  }

  /** A call whose answer nobody waits for (a released slot, a touched key). */
  notify(op: CallOp, args: readonly unknown[]): void {
    if (this.closed === null) this.send({ type: 'call', id: 0, op, args });
  }

  settle(reply: ReplyMessage): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.error !== undefined) waiting.reject(new Error(reply.error));
    else waiting.resolve(reply.value);
  }

  /** The channel closed: every waiting call fails, and so does every later one. */
  close(reason: string): void {
    this.closed = reason;
    for (const waiting of this.pending.values()) waiting.reject(new Error(reason));
    this.pending.clear();
  }

  /** Calls waiting for their reply (tests). */
  get waiting(): number {
    return this.pending.size;
  }
}
