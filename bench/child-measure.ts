/**
 * A load generator run in a child process of its own (it would otherwise take the measured server's CPU in the
 * bench's process): the child is this same script started with `--child`, reads its request as JSON on stdin and
 * prints `RESULT <json>`. bench/load-client.ts (HTTP) and bench/electrum-load.ts (Electrum) both run this way.
 */
import { spawn } from 'node:child_process';

export function measureInChildScript<T>(script: string, request: unknown, label: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, '--child'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`${label} exited with ${code}: ${out.slice(-300)}`));
      else resolve(JSON.parse(line.slice(7)) as T);
    });
    child.stdin.end(JSON.stringify(request));
  });
}
