/**
 * Dashboard passwords: scrypt (node:crypto) with N = 2^17, r = 8, p = 1 — 128 MiB and a few hundred
 * milliseconds per hash — stored as a self-describing PHC-style string `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, so
 * the parameters can rise later: a sign-in whose stored string has weaker ones rehashes the password.
 * A semaphore caps the hashes computed at once (memory: 128 MiB each) and bounds the queue behind it, so a
 * sign-in flood is refused (BusyError) instead of exhausting memory or queueing for minutes.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { BusyError } from '../../core/domain/errors.js';

export interface ScryptParams {
  /** log2 of N, the CPU/memory cost. */
  readonly ln: number;
  readonly r: number;
  readonly p: number;
}

export const PASSWORD_PARAMS: ScryptParams = { ln: 17, r: 8, p: 1 };
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Stored strings with larger costs are refused rather than computed (a corrupted or hostile row must not take gigabytes). */
const MAX_LN = 20;
const PATTERN = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{16,})$/;
/** Queue places per running hash: the last in line waits about 8 hash times (seconds); beyond this a request is refused at once. */
const QUEUE_PER_SLOT = 8;

/** scrypt needs 128·N·r bytes (times p); node refuses more than maxmem, so maxmem says what we allow. */
export function scryptMaxmem(params: ScryptParams): number {
  return 128 * 2 ** params.ln * params.r * params.p + 16 * 1024 * 1024;
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, HASH_BYTES, { N: 2 ** params.ln, r: params.r, p: params.p, maxmem: scryptMaxmem(params) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

export interface PasswordCheck {
  readonly ok: boolean;
  /** The stored string uses weaker parameters than today's: store a fresh hash. */
  readonly needsRehash: boolean;
}

export class PasswordHasher {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** A hash of nothing in particular: unknown emails are checked against it so they take as long as known ones. */
  private dummy: Promise<string> | null = null;

  constructor(
    private readonly concurrency = 2,
    private readonly params: ScryptParams = PASSWORD_PARAMS,
  ) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.limited(() => derive(password, salt, this.params));
    const { ln, r, p } = this.params;
    return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(key)}`;
  }

  /** Checks a password against a stored string; null (no password set, unknown account) costs one hash and fails. */
  async verify(password: string, stored: string | null): Promise<PasswordCheck> {
    const parsed = stored === null ? null : parse(stored);
    if (!parsed) {
      this.dummy ??= this.hash('outpoint timing equaliser');
      const fake = parse(await this.dummy)!;
      await this.limited(() => derive(password, fake.salt, fake.params));
      return { ok: false, needsRehash: false };
    }
    const key = await this.limited(() => derive(password, parsed.salt, parsed.params));
    const ok = key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
    const weaker = parsed.params.ln < this.params.ln || parsed.params.r < this.params.r || parsed.params.p < this.params.p;
    return { ok, needsRehash: ok && weaker };
  }

  /** Hashes running now and waiting (for tests and the busy check). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  private async limited<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.concurrency * QUEUE_PER_SLOT) throw new BusyError();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next waiter (active stays the same), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; hash: Buffer } | null {
  const m = PATTERN.exec(stored);
  if (!m) return null;
  const params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (params.ln < 1 || params.ln > MAX_LN || params.r < 1 || params.p < 1) return null;
  return { params, salt: Buffer.from(m[4]!, 'base64'), hash: Buffer.from(m[5]!, 'base64') };
}
