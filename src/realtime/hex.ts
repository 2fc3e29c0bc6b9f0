/** Hex of a byte view without copying the underlying buffer (parsed scripts are views into blocks). */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function fromHex(text: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/i.test(text)) throw new SyntaxError('not a hex string');
  return Buffer.from(text, 'hex');
}
