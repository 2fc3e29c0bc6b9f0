/**
 * What wakes the indexer's loop and what the next pass must look at: the signals since the last pass, and the wait
 * between passes. Three things, one place: something changed (a pass is due), the node's tip may have moved (the pass
 * starts with the blocks), and the sleeping loop to wake.
 */
export class PassSignals {
  /** Something changed since the last pass began: the next one runs at once. */
  private due = false;
  /** A tip signal (or the idle resync) came since the last pass's block part: the next pass starts with the blocks. */
  private blocks = true;
  private wake: (() => void) | null = null;

  /** Anything changed at the node, perhaps its tip. */
  tip(): void {
    this.blocks = true;
    this.changed();
  }

  /** The mempool alone changed (announcements): the next pass may skip the blocks. */
  changed(): void {
    this.due = true;
    this.wake?.();
  }

  /** The next pass, whenever it comes, looks at the blocks (the node's tip moved during a pass). */
  lookAtBlocks(): void {
    this.blocks = true;
  }

  /** Stopping: a sleeping loop returns at once. */
  interrupt(): void {
    this.wake?.();
  }

  /** At the start of a pass: whether it must look at the blocks (the flags start again from here). */
  take(): { readonly blocks: boolean } {
    const blocks = this.blocks;
    this.blocks = false;
    this.due = false;
    return { blocks };
  }

  /** Whether a pass is due now (a signal came while the last one ran). */
  get pending(): boolean {
    return this.due;
  }

  /**
   * Waits up to `ms` for a signal. No signal (the idle resync, a safety net for a missed one): the next pass looks at
   * the blocks too.
   */
  async sleep(ms: number): Promise<void> {
    const woken = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), ms);
      const done = (signalled: boolean): void => {
        clearTimeout(timer);
        this.wake = null;
        resolve(signalled);
      };
      this.wake = () => done(true);
    });
    if (!woken) this.blocks = true;
  }
}
