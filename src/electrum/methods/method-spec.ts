/**
 * What a method is to the dispatcher: its name, its parameters by name (JSON-RPC by-name calls must use the names the
 * protocol documents), how many it takes, the protocol versions it exists in, and its handler, which answers with the
 * result's JSON text (so hot methods write their own, exact for amounts).
 */
import type { ElectrumNetworkServices } from '../../services/electrum/electrum-services.js';
import { ElectrumRpcError, RPC_CODES } from '../protocol/rpc-errors.js';
import type { AnswerCache } from '../subscriptions/answer-cache.js';
import { atLeast, compareVersions, type ProtocolVersion } from '../protocol/protocol-version.js';

/** What a handler may do to its connection's session. */
export interface SessionApi {
  readonly version: ProtocolVersion;
  /** Whether server.version was answered on this connection. */
  readonly negotiated: boolean;
  setVersion(version: ProtocolVersion, clientName: string): void;
  /** tcp, ssl, ws or wss: server.features names the port it was reached on. */
  readonly transportKind: string;
  readonly localPort: number;
  readonly localHost: string;
}

export interface ServerInfo {
  readonly serverVersion: string;
  readonly banner: string;
  readonly donationAddress: string;
  /** The listeners' public ports by transport (server.features' hosts). */
  readonly ports: Readonly<Partial<Record<'tcp_port' | 'ssl_port' | 'ws_port' | 'wss_port', number>>>;
  readonly maxHeaders: number;
  readonly maxTxBytes: number;
}

/** The subscriptions a handler can make and end (subscriptions/). */
export interface SubscriptionApi {
  subscribeStatus(scripthash: string): Promise<string | null>;
  unsubscribeStatus(scripthash: string): boolean;
  subscribeHeaders(): void;
}

export interface MethodContext {
  readonly session: SessionApi;
  readonly net: ElectrumNetworkServices;
  /** The network's kept answers (answer-cache.ts). */
  readonly answers: AnswerCache;
  readonly server: ServerInfo;
  readonly subs: SubscriptionApi;
}

export interface MethodSpec {
  readonly name: string;
  readonly params: readonly string[];
  /** Arguments that must be given (the rest are optional). */
  readonly required: number;
  /** server.version: extra arguments are ignored (1.6). */
  readonly extraAllowed?: boolean;
  readonly since?: ProtocolVersion;
  /** Removed in this version. */
  readonly until?: ProtocolVersion;
  handle(ctx: MethodContext, args: readonly unknown[]): Promise<string> | string;
}

export function availableIn(spec: MethodSpec, version: ProtocolVersion): boolean {
  return (!spec.since || atLeast(version, spec.since)) && (!spec.until || compareVersions(version, spec.until) < 0);
}

/** Positional arguments from an array or a by-name object. */
export function argumentsOf(spec: MethodSpec, params: unknown): unknown[] {
  let args: unknown[];
  if (params === undefined) args = [];
  else if (Array.isArray(params)) args = params;
  else {
    const named = params as Record<string, unknown>;
    const unknown = Object.keys(named).find((k) => !spec.params.includes(k));
    if (unknown !== undefined && !spec.extraAllowed) throw new ElectrumRpcError(RPC_CODES.invalidParams, `Invalid params: ${spec.name} has no parameter "${unknown.slice(0, 40)}"`);
    args = spec.params.map((p) => named[p]);
    while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
    if (args.includes(undefined)) throw new ElectrumRpcError(RPC_CODES.invalidParams, `Invalid params: ${spec.name} needs ${spec.params.slice(0, args.indexOf(undefined) + 1).join(', ')}`);
  }
  if (args.length < spec.required || (args.length > spec.params.length && !spec.extraAllowed)) {
    const range = spec.required === spec.params.length ? `${spec.required}` : `${spec.required} to ${spec.params.length}`;
    throw new ElectrumRpcError(RPC_CODES.invalidParams, `Invalid params: ${spec.name} takes ${range} arguments (${spec.params.join(', ') || 'none'}), got ${args.length}`);
  }
  return args;
}
