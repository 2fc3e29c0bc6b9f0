/**
 * `--password-prompt`: on a terminal, asks twice without echo; otherwise reads the first line of standard input
 * (`printf '%s\n' "$PW" | outpoint accounts create … --password-prompt`), so scripts never put a password in
 * argv, where other users of the machine could read it.
 */
import { createInterface } from 'node:readline';

export async function promptPassword(label = 'Password'): Promise<string> {
  if (!process.stdin.isTTY) return firstLine();
  const first = await hiddenInput(`${label}: `);
  const second = await hiddenInput(`${label} again: `);
  if (first !== second) throw new Error('the two passwords differ');
  return first;
}

async function firstLine(): Promise<string> {
  const lines = createInterface({ input: process.stdin, terminal: false });
  try {
    for await (const line of lines) return line;
  } finally {
    lines.close();
  }
  throw new Error('--password-prompt: no password on standard input');
}

function hiddenInput(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    let text = '';
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (error: Error | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(text);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done(null);
        if (char === '\u0003') return done(new Error('cancelled'));
        if (char === '\u007f' || char === '\b') text = text.slice(0, -1);
        else if (char >= ' ') text += char;
      }
    };
    stdin.on('data', onData);
  });
}
