import type { NotifierEvents, NotifierListener } from './block-notifier.js';

/** The typed listener registry both notifier drivers share. */
export class NotifierListeners {
  readonly #listeners: { [E in keyof NotifierEvents]: Set<NotifierListener<E>> } = {
    tip: new Set(),
    mempool: new Set(),
    announce: new Set(),
    error: new Set(),
  };

  on<E extends keyof NotifierEvents>(event: E, listener: NotifierListener<E>): () => void {
    const set = this.#listeners[event] as Set<NotifierListener<E>>;
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  emit<E extends keyof NotifierEvents>(event: E, payload: NotifierEvents[E]): void {
    for (const listener of this.#listeners[event] as Set<NotifierListener<E>>) {
      try {
        listener(payload);
      } catch (err) {
        // one broken listener must not starve the others or kill the watcher
        if (event !== 'error') this.emit('error', err instanceof Error ? err : new Error(String(err)));
      }
    }
  }
}
