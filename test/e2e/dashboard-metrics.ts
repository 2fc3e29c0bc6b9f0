/** The metric names docs/grafana-dashboard.json queries, and those a /metrics text exposes, for the dashboard test. */
import { readFileSync } from 'node:fs';

const DASHBOARD = new URL('../../docs/grafana-dashboard.json', import.meta.url);
/** Our metrics and prom-client's process collectors; PromQL functions and label names never start so. */
const METRIC = /\b(?:outpoint|process|nodejs)_[a-zA-Z0-9_]+\b/g;

/** Every `expr` of every panel (rows nest panels) and of every templating query. */
export function dashboardExpressions(): string[] {
  const exprs: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if ((key === 'expr' || key === 'definition') && typeof v === 'string') exprs.push(v);
      else walk(v);
    }
  };
  walk(JSON.parse(readFileSync(DASHBOARD, 'utf8')));
  return exprs;
}

export function dashboardMetricNames(): string[] {
  return [...new Set(dashboardExpressions().flatMap((e) => e.match(METRIC) ?? []))].sort();
}

/** Names with a `# TYPE` line; a histogram also exposes its _bucket, _sum and _count series. */
export function exposedMetricNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = match;
    names.add(name!);
    if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}
