/**
 * Reads served by streaming replicas of the store's database (`[store] read_urls`, PostgreSQL; docs/operations.md,
 * "Read replicas"). The API's reads go to a replica, the indexer's reads and every write to the primary. Replicas
 * replay the primary's changes at their own pace, so two replicas may be at different tips: every read of one
 * request (one ReadScope.run) comes from the same one, chosen at its first read.
 */

/** Reads made inside `run` come from one source (a replica within the lag bound, else the primary). */
export interface ReadScope {
  run<T>(fn: () => T): T;
}

/** Each read as it comes (no replicas: every read goes to the one database). */
export const DIRECT_READS: ReadScope = { run: (fn) => fn() };

/** One replica as the last check saw it. */
export interface ReplicaState {
  /** host:port/database, without credentials. */
  readonly name: string;
  /** It answered the last check. */
  readonly up: boolean;
  /** How long it has been missing a change the primary (or a fresher replica) had; null while unknown. */
  readonly lagMs: number | null;
  /** Requests read from it: up, a hot standby, lag within the bound. */
  readonly inUse: boolean;
  /** Why it is not in use (null when it is), for the log and /metrics' readers: may name the error. */
  readonly reason: string | null;
  /** The same as a stable code, for public bodies (/ready shows no error text). */
  readonly reasonCode: ReplicaReasonCode | null;
}

export type ReplicaReasonCode = 'not_checked' | 'not_answering' | 'not_standby' | 'lagging';

export interface ReadReplicas {
  readonly scope: ReadScope;
  /** A replica lagging more than this is skipped. */
  readonly maxLagMs: number;
  states(): ReplicaState[];
}
