/**
 * A worker thread running one of our modules, whether the code runs compiled (dist/) or as TypeScript through tsx
 * (tests, benches): under tsx a worker does not get tsx's loader for its entry (Node 20), so the entry is loaded
 * with tsx's own import; compiled, it is a plain module beside the caller's.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `callerUrl`: the calling module's import.meta.url; `entry`: the worker module's name beside it, without extension. */
export function startModuleWorker(callerUrl: string, entry: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${entry}.js`, callerUrl), options);
  const href = new URL(`./${entry}.ts`, callerUrl).href;
  const code = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(href)}, ${JSON.stringify(callerUrl)}));`;
  return new Worker(code, { ...options, eval: true });
}
