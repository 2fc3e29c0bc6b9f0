// Runs every benchmark module in sequence. Add a bench by appending its import to this list.
const benches: (() => Promise<{ run: () => unknown }>)[] = [
  () => import('./parse.bench.js'),
  () => import('./index.bench.js'),
  () => import('./store-write.bench.js'),
  () => import('./sqlite-floor.bench.js'),
  () => import('./api-v2.bench.js'),
  () => import('./address-lists.bench.js'),
  () => import('./api-v3.bench.js'),
  () => import('./concurrency-limit.bench.js'),
  () => import('./sync-gate.bench.js'),
  () => import('./web.bench.js'),
  () => import('./realtime.bench.js'),
  () => import('./node-follow.bench.js'),
  () => import('./p2p-listener.bench.js'),
  () => import('./p2p-propagation.bench.js'),
  () => import('./password-hash.bench.js'),
  () => import('./metrics.bench.js'),
];

for (const load of benches) {
  const bench = await load();
  await bench.run();
}
