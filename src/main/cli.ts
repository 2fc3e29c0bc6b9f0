import { parseArgs } from 'node:util';
import { commands } from './commands/commands.js';

const USAGE = `outpoint: self-hosted blockchain data service for Bitcoin, Litecoin and Dogecoin

Usage: outpoint <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join('\n')}

Options:
  -h, --help     show this help (or a command's help: outpoint <command> --help)
  -v, --version  print the version
`;

// A file-size limit (ulimit -f, a quota) must fail the write like a full disk (ENOSPC/EFBIG: SQLite reports
// SQLITE_FULL, the batch rolls back, the indexer retries) instead of killing the process with SIGXFSZ mid-write.
process.on('SIGXFSZ', () => undefined);

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (name === '-v' || name === '--version') {
    const { VERSION } = await import('./wiring/version.js');
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`outpoint: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
  if (values['help'] === true) {
    process.stdout.write(command.help);
    return 0;
  }
  return command.run(values, positionals);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`outpoint: ${message}\n`);
    process.exitCode = 1;
  },
);
