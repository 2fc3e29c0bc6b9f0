import type { FastifyInstance } from 'fastify';
import type { RouteTypes } from '../shared/schema-kit.js';
import { blockData, blockDisplayData, blockhashData } from './presenters/block.presenter.js';
import { blockDisplaySchema, blockhashSchema, blockSchema } from './schemas/block.schemas.js';
import type { V2Context } from './v2-context.js';
import { shapeA, shapeB } from './v2-error-spec.js';

/** v2 block operations. */
export function blockRoutes(fastify: FastifyInstance, { services }: V2Context): void {
  const app = fastify.withTypeProvider<RouteTypes>();
  app.get(
    '/get_blockhash/:network/:block_no',
    { schema: blockhashSchema, config: { v2Error: shapeA('network', 'block_no') } },
    async ({ params }) => {
      const { network, hash, height } = await services.blocks.reads.hashAt(params.network, params.block_no);
      return { status: 'success', data: blockhashData(network, hash, height) };
    },
  );

  app.get('/get_block/:network/:blockid', { schema: blockSchema, config: { v2Error: shapeA('network', 'blockid') } }, async ({ params }) => ({
    status: 'success',
    data: blockData(await services.blocks.reads.get(params.network, params.blockid)),
  }));

  app.get('/block/:network/:blockid', { schema: blockDisplaySchema, config: { v2Error: shapeB } }, async ({ params }) => ({
    status: 'success',
    data: blockDisplayData(await services.blocks.reads.display(params.network, params.blockid)),
    code: 200,
    message: '',
  }));
}
