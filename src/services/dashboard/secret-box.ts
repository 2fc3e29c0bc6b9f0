/**
 * The dashboard's server secret ([accounts] secret_key): separate subkeys derived with HKDF-SHA256 for each use,
 * AES-256-GCM sealing of TOTP secrets at rest (bound to their account by the associated data, so a sealed value
 * copied to another account's row does not open) and HMAC tags (CSRF tokens).
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  private keys: { seal: Buffer; mac: Buffer } | null = null;

  /**
   * `master`: 32 random bytes, or a function giving them, called at the first use (so commands that never seal
   * or sign do not need the key file).
   */
  constructor(private readonly master: Uint8Array | (() => Uint8Array)) {}

  private get sealKey(): Buffer {
    return this.derived().seal;
  }

  private get macKey(): Buffer {
    return this.derived().mac;
  }

  private derived(): { seal: Buffer; mac: Buffer } {
    if (!this.keys) {
      const master = typeof this.master === 'function' ? this.master() : this.master;
      if (master.length !== 32) throw new Error('the secret key must be 32 bytes');
      const derive = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
      this.keys = { seal: derive('outpoint seal v1'), mac: derive('outpoint mac v1') };
    }
    return this.keys;
  }

  /** version (1 byte) ‖ nonce (12) ‖ ciphertext ‖ tag (16). */
  seal(plaintext: Uint8Array, context: string): Uint8Array {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return new Uint8Array(Buffer.concat([Buffer.from([VERSION]), nonce, body, cipher.getAuthTag()]));
  }

  /** Throws when the value was not sealed with this key and context (or was altered). */
  open(sealed: Uint8Array, context: string): Uint8Array {
    const bytes = Buffer.from(sealed);
    if (bytes.length < 1 + NONCE_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, bytes.subarray(1, 1 + NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(1 + NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]));
  }

  /** base64url HMAC-SHA256 of the purpose and value. */
  tag(purpose: string, value: string): string {
    return createHmac('sha256', this.macKey).update(`${purpose}\0${value}`, 'utf8').digest('base64url');
  }

  /** Constant-time check of a tag made by `tag`. */
  verifyTag(purpose: string, value: string, tag: string): boolean {
    const expected = Buffer.from(this.tag(purpose, value));
    const given = Buffer.from(tag);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
