/**
 * The stand-in node as its own process (so serving takes its own core, as bitcoind would):
 *   node --import tsx bench/scale/stand-in-node-main.ts --dir CHAIN_DIR [--port 0] [--revealed H] [--user U --password P] [--mempool-seed N]
 * Prints `LISTENING <rpc url>` on stdout once it answers; SIGTERM or SIGINT stops it.
 */
import { parseArgs } from 'node:util';
import { ChainFiles } from './block-files.js';
import { StandInNode } from './stand-in-node.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    port: { type: 'string', default: '0' },
    revealed: { type: 'string' },
    user: { type: 'string' },
    password: { type: 'string' },
    'mempool-seed': { type: 'string' },
  },
});
if (!values.dir) throw new Error('--dir CHAIN_DIR is required');
const chain = ChainFiles.open(values.dir);
const node = new StandInNode({
  chain,
  ...(values.revealed !== undefined ? { revealed: Number(values.revealed) } : {}),
  ...(values['mempool-seed'] !== undefined ? { mempoolSeed: Number(values['mempool-seed']) } : {}),
  ...(values.user !== undefined ? { user: values.user, password: values.password ?? '' } : {}),
});
const url = await node.listen(Number(values.port));
process.stdout.write(`LISTENING ${url}\n`);
const stop = async (): Promise<void> => {
  await node.close();
  await chain.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
