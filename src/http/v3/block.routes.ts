import type { FastifyInstance } from 'fastify';
import { blockData, latestBlocksData } from './presenters/block.presenter.js';
import { bestBlockHashSchema, blockSchema, latestBlocksSchema } from './schemas/block.schemas.js';
import type { V3Context } from './v3-context.js';

/** v3 block reads. */
export function blockRoutes(app: FastifyInstance, { services, v3 }: V3Context): void {
  app.get<{ Params: { network: string } }>('/latest_blocks_summary/:network', { schema: latestBlocksSchema }, async ({ params }) => {
    const { network, blocks } = await v3.chain.latestBlocks(params.network);
    const prices = await v3.usd.atTimes(network.params, blocks.map((b) => b.block.time));
    return { status: 'success', data: latestBlocksData(blocks, prices) };
  });

  app.get<{ Params: { network: string; block: string } }>('/block/:network/:block', { schema: blockSchema }, async ({ params }) => {
    const view = await services.blocks.get(params.network, params.block, 'block');
    const price = await v3.usd.at(view.network.params, view.block.time);
    return { status: 'success', data: blockData(view, price) };
  });

  app.get<{ Params: { network: string } }>('/best_block_hash/:network', { schema: bestBlockHashSchema }, async ({ params }) => ({
    status: 'success',
    data: { hash: (await v3.chain.tip(params.network)).tip.hash },
  }));
}
