import { readFile } from 'node:fs/promises';
import { isNetworkId, type ChainKind } from '../../core/index.js';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import { getNetworkParams } from '../../chains/networks.js';
import { parseBlock, parseTransaction } from '../../chains/parsing.js';
import type { Command, OptionValues } from '../cli/command.js';

const HELP = `outpoint parse: decode a raw block or transaction to JSON

Usage: outpoint parse --network NET [--chain main|test|regtest] (--block|--tx) HEX|@FILE

  --network NET   BTC, BTCTEST, LTC, LTCTEST, DOGE or DOGETEST (selects AuxPoW / MWEB / segwit handling)
  --chain KIND    main, test or regtest (default: from the network acronym)
  --block         the input is a serialized block
  --tx            the input is a serialized transaction
  HEX | @FILE     the bytes as hex, or @path to a file holding hex text or raw binary

Amounts and other 64-bit integers are printed as strings; byte fields as hex.
`;

const CHAINS: readonly ChainKind[] = ['main', 'test', 'regtest'];

// JSON has no bigint or bytes: print amounts as exact decimal strings and byte views as hex.
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  return value;
}

async function readInput(arg: string): Promise<Uint8Array> {
  if (arg.startsWith('@')) {
    const content = await readFile(arg.slice(1));
    const text = content.toString('latin1').trim();
    return /^(?:[0-9a-fA-F]{2})+$/.test(text) ? Buffer.from(text, 'hex') : content;
  }
  const hex = arg.trim();
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new InvalidArgumentError('input', 'input is not an even-length hex string');
  return Buffer.from(hex, 'hex');
}

async function run(options: OptionValues, positionals: string[]): Promise<number> {
  const network = String(options['network'] ?? '').toUpperCase();
  const chain = options['chain'] === undefined ? undefined : String(options['chain']);
  const asBlock = options['block'] === true;
  const asTx = options['tx'] === true;
  const usage = (message: string): number => {
    process.stderr.write(`outpoint parse: ${message}\n\n${HELP}`);
    return 2;
  };
  if (!isNetworkId(network)) return usage(`unknown or missing --network '${network}'`);
  if (chain !== undefined && !(CHAINS as readonly string[]).includes(chain)) return usage(`unknown --chain '${chain}'`);
  if (asBlock === asTx) return usage('give exactly one of --block or --tx');
  const [input, ...extra] = positionals;
  if (input === undefined || extra.length > 0) return usage('give exactly one HEX or @FILE argument');

  const params = getNetworkParams(network, chain as ChainKind | undefined);
  const bytes = await readInput(input);
  const decoded = asBlock ? parseBlock(bytes, params.features) : parseTransaction(bytes, { mweb: params.features.mweb });
  process.stdout.write(`${JSON.stringify(decoded, replacer, 2)}\n`);
  return 0;
}

export const parseCommand: Command = {
  name: 'parse',
  summary: 'decode a raw block or transaction (hex) to JSON',
  help: HELP,
  options: {
    help: { type: 'boolean', short: 'h' },
    network: { type: 'string', short: 'n' },
    chain: { type: 'string' },
    block: { type: 'boolean' },
    tx: { type: 'boolean' },
  },
  run,
};
