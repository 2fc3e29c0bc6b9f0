/**
 * Fixed-window attempt counters for brute-force limits (sign-in, password reset, sign-up). A window starts at
 * a key's first attempt and lasts windowSeconds. In memory per process, or shared through Redis (src/redis/).
 */
export interface AttemptCount {
  readonly count: number;
  /** Seconds until the window ends (0 when the key has no attempts). */
  readonly resetIn: number;
}

export interface AttemptCounter {
  /** Adds one attempt to the key's window (starting one when none is open). */
  add(key: string, windowSeconds: number): Promise<AttemptCount>;
  peek(key: string): Promise<AttemptCount>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}
