import type { Command } from './command.js';

// Placeholder replaced by the chains parser work (decodes a raw block or transaction to JSON).
export const parseCommand: Command = {
  name: 'parse',
  summary: 'decode a raw block or transaction (hex) to JSON',
  help: 'outpoint parse --network NET (--block|--tx) HEX|@FILE\n',
  options: { help: { type: 'boolean', short: 'h' } },
  run: () => Promise.resolve(1),
};
