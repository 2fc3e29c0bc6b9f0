import type { FastifyInstance } from 'fastify';
import type { RouteTypes } from '../shared/schema-kit.js';
import { blockData, latestBlocksData } from './presenters/block.presenter.js';
import { bestBlockHashSchema, blockSchema, latestBlocksSchema } from './schemas/block.schemas.js';
import type { V3Context } from './v3-context.js';

/** v3 block reads. */
export function blockRoutes(fastify: FastifyInstance, { services }: V3Context): void {
  const app = fastify.withTypeProvider<RouteTypes>();
  app.get('/latest_blocks_summary/:network', { schema: latestBlocksSchema }, async ({ params }) => {
    const { network, blocks } = await services.network.chain.latestBlocks(params.network);
    const prices = await services.prices.usdAtTimes(network.params, blocks.map((b) => b.block.time));
    return { status: 'success', data: latestBlocksData(blocks, prices) };
  });

  app.get('/block/:network/:block', { schema: blockSchema }, async ({ params }) => {
    const view = await services.blocks.reads.get(params.network, params.block, 'block');
    const price = await services.prices.usdAt(view.network.params, view.block.time);
    return { status: 'success', data: blockData(view, price) };
  });

  app.get('/best_block_hash/:network', { schema: bestBlockHashSchema }, async ({ params }) => ({
    status: 'success',
    data: { hash: (await services.network.chain.tip(params.network)).tip.hash },
  }));
}
