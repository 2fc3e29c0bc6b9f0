import type { ParseArgsConfig } from 'node:util';

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One CLI subcommand. Later issues add commands to the list in commands.ts. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly help: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  run(options: OptionValues, positionals: string[]): Promise<number>;
}
