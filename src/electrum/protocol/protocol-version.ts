/**
 * Protocol version negotiation (protocol-methods.rst, server.version): the client names a version or a [min, max]
 * range; the server answers the highest both speak, min(client max, 1.6), unless that is below max(client min, 1.4),
 * in which case there is none in common and the connection is closed. A client that never sends server.version is
 * served 1.4, the method's default (as Fulcrum and ElectrumX do). Versions are compared numerically per part; "1.5"
 * was never defined, and a session that lands on it behaves as 1.4.x does (the 1.6 changes start at 1.6).
 */

export type ProtocolVersion = readonly [number, number, number];

export const PROTOCOL_MIN: ProtocolVersion = [1, 4, 0];
export const PROTOCOL_MAX: ProtocolVersion = [1, 6, 0];
export const V1_4_2: ProtocolVersion = [1, 4, 2];
export const V1_6: ProtocolVersion = [1, 6, 0];

export function compareVersions(a: ProtocolVersion, b: ProtocolVersion): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

export function atLeast(v: ProtocolVersion, min: ProtocolVersion): boolean {
  return compareVersions(v, min) >= 0;
}

/** "1.4", "1.4.2", "v1.6": at most three numeric parts, each below 1000; anything else is null. */
export function parseVersion(value: unknown): ProtocolVersion | null {
  if (typeof value !== 'string' || value.length > 20) return null;
  const match = /^v?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,3}))?$/.exec(value.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : null;
}

export function versionText(v: ProtocolVersion): string {
  return v[2] === 0 ? `${v[0]}.${v[1]}` : `${v[0]}.${v[1]}.${v[2]}`;
}

/** The version a client's argument settles on, or null when none is in common (or the argument is malformed). */
export function negotiate(arg: unknown): ProtocolVersion | null {
  let min: ProtocolVersion | null;
  let max: ProtocolVersion | null;
  if (Array.isArray(arg)) {
    if (arg.length !== 2) return null;
    [min, max] = [parseVersion(arg[0]), parseVersion(arg[1])];
  } else {
    min = max = parseVersion(arg ?? '1.4');
  }
  if (!min || !max || compareVersions(min, max) > 0) return null;
  const version = compareVersions(max, PROTOCOL_MAX) < 0 ? max : PROTOCOL_MAX;
  const floor = compareVersions(min, PROTOCOL_MIN) > 0 ? min : PROTOCOL_MIN;
  return compareVersions(version, floor) < 0 ? null : version;
}
