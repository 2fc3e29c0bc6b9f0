import { loadConfig, type OutpointConfig } from '../../config/index.js';
import type { OptionValues } from './command.js';

export const configOptions = {
  config: { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--config FILE` (optional: every key can also come from OUTPOINT_* variables). */
export function configFromOptions(options: OptionValues): OutpointConfig {
  const file = typeof options['config'] === 'string' ? options['config'] : undefined;
  return loadConfig({ file });
}
