// Runs every benchmark module in sequence. Add a bench by appending its import to this list.
const benches: (() => Promise<{ run: () => unknown }>)[] = [
  () => import('./parse.bench.js'),
];

for (const load of benches) {
  const bench = await load();
  await bench.run();
}
