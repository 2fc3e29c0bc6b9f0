import { accountsCommand } from './accounts.command.js';
import { backupCommand, restoreCommand } from './backup.command.js';
import type { Command } from '../cli/command.js';
import { demoCommand } from './demo.command.js';
import { indexCommand } from './index.command.js';
import { invitesCommand } from './invites.command.js';
import { keysCommand } from './keys.command.js';
import { migrateCommand } from './migrate.command.js';
import { parseCommand } from './parse.command.js';
import { plansCommand } from './plans.command.js';
import { serveCommand } from './serve.command.js';
import { snapshotCommand } from './snapshot.command.js';

export const commands: readonly Command[] = [serveCommand, indexCommand, migrateCommand, demoCommand, parseCommand, plansCommand, accountsCommand, keysCommand, invitesCommand,
  snapshotCommand, backupCommand, restoreCommand];
