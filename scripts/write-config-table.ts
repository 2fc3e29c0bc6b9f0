// Writes the README's configuration key table from src/config/config-schema.ts (npm run docs:config).
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigKeyTable } from '../src/config/config-docs.js';

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withConfigKeyTable(before);
writeFileSync(path, after);
console.log(before === after ? 'README.md: the config key table was up to date' : 'README.md: config key table rewritten');
