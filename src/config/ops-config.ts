/** `[log]`, `[metrics]` and `[health]`: how a process reports on itself (docs/operations.md). */
import { ConfigError, type LogLevel } from '../core/index.js';
import { SECTION_KEYS, type KeySpec } from './config-schema.js';
import type { OutpointConfig } from './config-types.js';
import { bool, int, optionalStr, str, type Raw } from './config-values.js';

export function buildOpsConfig(section: (name: string) => Raw): Pick<OutpointConfig, 'log' | 'metrics' | 'health'> {
  const spec = (s: string, k: string): KeySpec => SECTION_KEYS[s]![k]!;
  const health = section('health');
  return {
    log: {
      level: str(section('log'), 'level', spec('log', 'level'), 'info', 'log.level') as LogLevel,
      format: str(section('log'), 'format', spec('log', 'format'), 'auto', 'log.format') as OutpointConfig['log']['format'],
      walletKeys: bool(section('log'), 'wallet_keys', spec('log', 'wallet_keys'), false, 'log.wallet_keys'),
    },
    metrics: buildMetrics(section('metrics')),
    health: {
      maxLagBlocks: int(health, 'max_lag_blocks', spec('health', 'max_lag_blocks'), 3, 'health.max_lag_blocks'),
      checkIntervalMs: int(health, 'check_interval_ms', spec('health', 'check_interval_ms'), 5000, 'health.check_interval_ms'),
      timeoutMs: int(health, 'timeout_ms', spec('health', 'timeout_ms'), 10_000, 'health.timeout_ms'),
    },
  };
}

/** `[metrics] port` moves /metrics off the API port (so it need not be public); host alone means nothing. */
function buildMetrics(table: Raw): OutpointConfig['metrics'] {
  const spec = (k: string): KeySpec => SECTION_KEYS['metrics']![k]!;
  const host = optionalStr(table, 'host', spec('host'), 'metrics.host');
  if (table['port'] === undefined) {
    if (host !== null) throw new ConfigError('metrics.host needs metrics.port (without a port, /metrics is served on the API port)');
    return { listen: null };
  }
  return { listen: { host: host ?? '127.0.0.1', port: int(table, 'port', spec('port'), 0, 'metrics.port') } };
}
