/** The real blocks of the fixture set (one JSON file each: network, hex, …) and the parse features of their network. */
import { readdirSync, readFileSync } from 'node:fs';
import type { NetworkId } from '../../src/core/index.js';
import type { ChainFeatures } from '../../src/chains/network-params.js';
import { getNetworkParams } from '../../src/chains/networks.js';

export const BLOCK_FIXTURES = new URL('../fixtures/blocks/', import.meta.url);

/** The features the parser needs for a fixture's network (the network's own parameters). */
export function fixtureFeatures(network: string): ChainFeatures {
  return getNetworkParams(network as NetworkId).features;
}

/** Every fixture block file, parsed as JSON. */
export function blockFixtures<T extends { network: string; hex: string }>(): { file: string; data: T }[] {
  return readdirSync(BLOCK_FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .map((file) => ({ file, data: JSON.parse(readFileSync(new URL(file, BLOCK_FIXTURES), 'utf8')) as T }));
}
