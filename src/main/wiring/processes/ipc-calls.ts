/**
 * Calls from a worker process to the serving process over the cluster's IPC channel, answered by the serving process
 * (counter-host.ts): each call carries an id its reply names; id 0 asks for no reply. The calls made in one turn of
 * the event loop (the requests of one poll of the sockets) go as one message, and so do the replies to them: a
 * message costs each side ~10-25 µs of CPU whatever it holds. A worker whose channel closes fails every call still
 * waiting (the worker then stops: nothing answers it any more).
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

/** The calls of one turn of a worker's event loop. */
export interface CallsMessage {
  readonly type: 'calls';
  readonly calls: readonly CallMessage[];
}

/** The replies of one turn of the serving process's event loop, to one worker. */
export interface RepliesMessage {
  readonly type: 'replies';
  readonly replies: readonly ReplyMessage[];
}

/** Collects what one turn of the event loop sends, and sends it as one message after the turn (setImmediate). */
export class TurnBatch<T> {
  private items: T[] = [];

  constructor(private readonly send: (items: readonly T[]) => void) {}

  add(item: T): void {
    if (this.items.length === 0) setImmediate(() => this.flush());
    this.items.push(item);
  }

  private flush(): void {
    const items = this.items;
    this.items = [];
    if (items.length > 0) this.send(items);
  }
}

export class IpcCaller {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private next = 1;
  private closed: string | null = null;
  private readonly batch: TurnBatch<CallMessage>;

  constructor(send: (message: CallsMessage) => void) {
    this.batch = new TurnBatch((calls) => send({ type: 'calls', calls }));
  }

  call<T>(op: CallOp, args: readonly unknown[]): Promise<T> {
    if (this.closed !== null) return Promise.reject(new Error(this.closed));
    const id = this.next++;
    if (this.next === Number.MAX_SAFE_INTEGER) this.next = 1;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.batch.add({ type: 'call', id, op, args });
    });
  }

  /** A call whose answer nobody waits for (a released slot, a touched key). */
  notify(op: CallOp, args: readonly unknown[]): void {
    if (this.closed === null) this.batch.add({ type: 'call', id: 0, op, args });
  }

  settleAll(message: RepliesMessage): void {
    for (const reply of message.replies) this.settle(reply);
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
