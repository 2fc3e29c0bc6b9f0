import { InvalidArgumentError } from '../../core/domain/errors.js';
import type { ShortAddressStore } from '../../core/store/short-address-store.js';
import { resolveAddress } from './address-resolution.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

/** Short forms are 3 to 6 characters; every address of every network is longer, so length tells them apart. */
const SHORT_MAX = 6;

export interface ShortAddress {
  readonly network: NetworkContext;
  readonly address: string;
  readonly short: string;
}

/** Long address ⇄ short form, in both directions (a short form names one address forever). */
export class ShortAddressService {
  constructor(
    private readonly networks: NetworkRegistry,
    private readonly store: ShortAddressStore,
  ) {}

  async resolve(network: string, addressOrShort: string): Promise<ShortAddress> {
    const ctx = this.networks.resolve(network);
    if (addressOrShort.length <= SHORT_MAX) {
      const address = await this.store.addressFor(ctx.id, addressOrShort);
      if (address === null) throw new InvalidArgumentError('address', `no address has the short form ${addressOrShort.slice(0, SHORT_MAX)} on ${ctx.id}`);
      return { network: ctx, address, short: addressOrShort };
    }
    const { address } = resolveAddress(ctx, addressOrShort);
    return { network: ctx, address, short: await this.store.shortFor(ctx.id, address) };
  }
}
