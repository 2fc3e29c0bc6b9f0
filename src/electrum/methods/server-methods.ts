/** server.* (protocol-methods.rst): negotiation, liveness, and what the server says about itself. */
import { ElectrumRpcError, RPC_CODES } from '../protocol/rpc-errors.js';
import { negotiate, PROTOCOL_MAX, PROTOCOL_MIN, versionText } from '../protocol/protocol-version.js';
import type { MethodContext, MethodSpec } from './method-spec.js';

function features(ctx: MethodContext): string {
  const { server, session, net } = ctx;
  const hosts = { [session.localHost]: Object.keys(server.ports).length > 0 ? server.ports : { [`${session.transportKind}_port`]: session.localPort } };
  return JSON.stringify({
    genesis_hash: net.params.genesisHash,
    hosts,
    protocol_max: versionText(PROTOCOL_MAX),
    protocol_min: versionText(PROTOCOL_MIN),
    pruning: null,
    server_version: server.serverVersion,
    hash_function: 'sha256',
  });
}

export const SERVER_METHODS: readonly MethodSpec[] = [
  {
    name: 'server.version', params: ['client_name', 'protocol_version'], required: 0, extraAllowed: true,
    handle(ctx, args) {
      // Synchronous: a request pipelined behind it is answered in the version it settles.
      if (ctx.session.negotiated) throw new ElectrumRpcError(RPC_CODES.badRequest, 'server.version already sent');
      const version = negotiate(args[1]);
      if (!version) throw new ElectrumRpcError(RPC_CODES.badRequest, 'Unsupported protocol version', true);
      ctx.session.setVersion(version, typeof args[0] === 'string' ? args[0].slice(0, 64) : '');
      return JSON.stringify([ctx.server.serverVersion, versionText(version)]);
    },
  },
  { name: 'server.ping', params: [], required: 0, handle: () => 'null' },
  { name: 'server.banner', params: [], required: 0, handle: (ctx) => JSON.stringify(ctx.server.banner) },
  { name: 'server.donation_address', params: [], required: 0, handle: (ctx) => JSON.stringify(ctx.server.donationAddress) },
  { name: 'server.features', params: [], required: 0, handle: features },
  // This server takes part in no peer discovery (docs/electrum.md): no peers to list, none accepted.
  { name: 'server.peers.subscribe', params: [], required: 0, handle: () => '[]' },
  { name: 'server.add_peer', params: ['features'], required: 1, handle: () => 'false' },
];
