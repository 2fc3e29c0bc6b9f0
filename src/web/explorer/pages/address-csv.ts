import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatCoins } from '../../../core/domain/money.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { utcTime } from '../../shared/relative-time.js';
import { chooseEncoding, compressStream } from '../../shell/compression.js';
import { SECURITY_HEADERS } from '../../shell/security-headers.js';
import type { ExplorerDeps } from '../explorer-deps.js';

const HEADER = 'txid,block_height,time_utc,confirmations,received,sent,balance_change,balance_after\n';

/**
 * `/{net}/address/{address}/history.csv`: the whole history, oldest first (chain order, then the mempool), with
 * the running balance. Streamed chunk by chunk from the store with backpressure: memory stays constant however
 * long the history is. Amounts as the APIs write them.
 */
export async function addressCsv(deps: ExplorerDeps, network: NetworkContext, address: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  // Resolve first so that a bad address is an HTML 404 before any CSV byte is sent.
  const { address: canonical } = await deps.services.addresses.balances.totals(network.id, address);
  const chunks = deps.services.addresses.timeline.oldestFirst(network.id, canonical);
  async function* lines(): AsyncGenerator<string> {
    yield HEADER;
    let balance = 0n;
    for await (const chunk of chunks) {
      let text = '';
      for (const e of chunk.entries) {
        balance += e.received - e.sent;
        const time = utcTime(e.time).replace(' UTC', 'Z').replace(' ', 'T');
        text += `${e.txid},${e.height ?? ''},${time},${e.confirmations},${formatCoins(e.received)},${formatCoins(e.sent)},${formatCoins(e.received - e.sent)},${formatCoins(balance)}\n`;
      }
      yield text;
    }
  }
  const body = Readable.from(lines());
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  reply
    .headers(SECURITY_HEADERS)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${network.id.toLowerCase()}-${canonical.slice(0, 100)}-history.csv"`)
    .header('cache-control', 'no-cache')
    .header('vary', 'Accept-Encoding');
  if (!encoding) return reply.send(body);
  return reply.header('content-encoding', encoding).send(body.pipe(compressStream(encoding)));
}
