/** `[log]`, `[metrics]` and `[health]`: how a process reports on itself (docs/operations.md). */
import { ConfigError, type LogLevel } from '../core/index.js';
import type { OutpointConfig } from './config-types.js';
import type { KeyReader } from './config-values.js';

export function buildOpsConfig(keys: (section: string) => KeyReader): Pick<OutpointConfig, 'log' | 'metrics' | 'health'> {
  const log = keys('log');
  const health = keys('health');
  return {
    log: { level: log.str('level') as LogLevel, format: log.str('format') as OutpointConfig['log']['format'], walletKeys: log.bool('wallet_keys') },
    metrics: buildMetrics(keys('metrics')),
    health: { maxLagBlocks: health.int('max_lag_blocks'), checkIntervalMs: health.int('check_interval_ms'), timeoutMs: health.int('timeout_ms') },
  };
}

/** `[metrics] port` moves /metrics off the API port (so it need not be public); host alone means nothing. */
function buildMetrics(metrics: KeyReader): OutpointConfig['metrics'] {
  const port = metrics.optionalInt('port');
  if (port === null) {
    if (metrics.given('host')) throw new ConfigError('metrics.host needs metrics.port (without a port, /metrics is served on the API port)');
    return { listen: null };
  }
  return { listen: { host: metrics.str('host'), port } };
}
