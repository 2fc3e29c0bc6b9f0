/**
 * The layer rule of ARCHITECTURE.md: lower layers never import higher ones, siblings at one
 * layer do not import each other, entry layers never reach drivers, and there are no cycles.
 */
const layer = (name) => `^src/${name}/`;
const forbidden = [
  { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  { name: 'core-imports-nothing', severity: 'error', from: { path: layer('core') }, to: { path: '^src/(?!core/)' } },
  { name: 'chains-only-core', severity: 'error', from: { path: layer('chains') }, to: { path: '^src/(?!core/|chains/)' } },
  { name: 'config-only-core', severity: 'error', from: { path: layer('config') }, to: { path: '^src/(?!core/|chains/|config/)' } },
  { name: 'node-driver', severity: 'error', from: { path: layer('node') }, to: { path: '^src/(?!core/|chains/|node/)' } },
  { name: 'metrics-driver', severity: 'error', from: { path: layer('metrics') }, to: { path: '^src/(?!core/|metrics/)' } },
  // Layers record figures through core's Metrics interface; only the driver and main know the Prometheus client.
  { name: 'prom-client-only-in-metrics-driver', severity: 'error', from: { pathNot: '^src/(metrics|main)/' }, to: { path: 'node_modules/prom-client/' } },
  // better-sqlite3 differs by Node line (sqlite-binding.ts picks it); types may come from anywhere in the driver.
  { name: 'sqlite-through-binding', severity: 'error', from: { pathNot: '^src/store/sqlite/connection/sqlite-binding\\.ts$' }, to: { path: 'node_modules/better-sqlite3', dependencyTypesNot: ['type-only'] } },
  // Each driver package lives in its driver's folder; main (which wires drivers) is the only other place it may appear.
  { name: 'ioredis-only-in-redis-driver', severity: 'error', from: { pathNot: '^src/(redis|main)/' }, to: { path: 'node_modules/ioredis/' } },
  { name: 'pg-only-in-postgres-driver', severity: 'error', from: { pathNot: '^src/(store/postgres|main)/' }, to: { path: 'node_modules/(pg|pg-copy-streams)/' } },
  { name: 'sqlite-only-in-sqlite-driver', severity: 'error', from: { pathNot: '^src/(store/sqlite|main)/' }, to: { path: 'node_modules/better-sqlite3' } },
  { name: 'zeromq-only-in-node-driver', severity: 'error', from: { pathNot: '^src/(node|main)/' }, to: { path: 'node_modules/zeromq/' } },
  { name: 'p2p-driver', severity: 'error', from: { path: layer('p2p') }, to: { path: '^src/(?!core/|chains/|p2p/)' } },
  // The event bus's codec parses txs back from their bytes (chains), like the node driver does.
  { name: 'redis-driver', severity: 'error', from: { path: layer('redis') }, to: { path: '^src/(?!core/|chains/|redis/)' } },
  // This process's counters (no Redis configured): drivers of core's counter interfaces, picked by main like the Redis ones.
  { name: 'counters-driver', severity: 'error', from: { path: layer('counters') }, to: { path: '^src/(?!core/|counters/)' } },
  // Webhook calls: Node's http(s) with a checked, pinned address; the delivery rules are services/webhooks'.
  { name: 'webhooks-http-driver', severity: 'error', from: { path: layer('webhooks-http') }, to: { path: '^src/(?!core/|webhooks-http/)' } },
  { name: 'mail-driver', severity: 'error', from: { path: layer('mail') }, to: { path: '^src/(?!core/|mail/)' } },
  { name: 'market-driver', severity: 'error', from: { path: layer('market') }, to: { path: '^src/(?!core/|chains/|market/)' } },
  { name: 'store-driver', severity: 'error', from: { path: layer('store') }, to: { path: '^src/(?!core/|chains/|store/)' } },
  { name: 'sqlite-not-postgres', severity: 'error', from: { path: '^src/store/sqlite/' }, to: { path: '^src/store/postgres/' } },
  { name: 'postgres-not-sqlite', severity: 'error', from: { path: '^src/store/postgres/' }, to: { path: '^src/store/sqlite/' } },
  { name: 'indexer-uses-interfaces', severity: 'error', from: { path: layer('indexer') }, to: { path: '^src/(?!core/|chains/|indexer/)' } },
  { name: 'services-uses-interfaces', severity: 'error', from: { path: layer('services') }, to: { path: '^src/(?!core/|chains/|services/)' } },
  { name: 'http-entry', severity: 'error', from: { path: layer('http') }, to: { path: '^src/(?!core/|chains/|services/|http/)' } },
  { name: 'realtime-entry', severity: 'error', from: { path: layer('realtime') }, to: { path: '^src/(?!core/|chains/|services/|realtime/)' } },
  { name: 'web-entry', severity: 'error', from: { path: layer('web') }, to: { path: '^src/(?!core/|chains/|services/|web/)' } },
  { name: 'electrum-entry', severity: 'error', from: { path: layer('electrum') }, to: { path: '^src/(?!core/|chains/|services/|electrum/)' } },
  // The browser bundle (src/web/client) runs in the page: it may use its own files, the pure shared helpers and npm packages only.
  { name: 'web-client-browser-only', severity: 'error', from: { path: '^src/web/client/' }, to: { path: '^src/(?!web/client/|web/shared/)' } },
  { name: 'web-shared-pure', severity: 'error', from: { path: '^src/web/shared/' }, to: { path: '^src/(?!web/shared/)' } },
  { name: 'nothing-imports-main', severity: 'error', from: { path: '^src/(?!main/)' }, to: { path: layer('main') } },
  // Build tools are development dependencies (not installed with the package): serving reads dist/web, built beforehand.
  { name: 'no-build-tools-at-run-time', severity: 'error', from: { path: '^src/' }, to: { path: 'node_modules/(esbuild|tsx|typescript)/|^src/web/build/|^scripts/' } },
  { name: 'src-not-tests', severity: 'error', from: { path: '^src/', pathNot: '\\.test\\.ts$' }, to: { path: '^(test|bench)/|\\.test\\.ts$' } },
];
module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
