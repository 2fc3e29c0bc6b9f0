import type { Command } from './command.js';
import { parseCommand } from './parse.command.js';

export const commands: readonly Command[] = [parseCommand];
