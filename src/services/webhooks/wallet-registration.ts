/**
 * What a `wallet` webhook names at registration (issue 50, docs/webhooks.md): the wallet, as `descriptor` or `xpub`
 * (the v3 wallet routes take either), normalised as those routes normalise it, and the gap of its window.
 */
import type { NetworkParams } from '../../chains/addressing.js';
import { parseWalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import { checkGap } from '../wallets/wallet-service.js';

/** The normalised descriptor (checksum included: the wallet's id) and the gap; InvalidArgumentError when refused. */
export function walletOf(
  params: NetworkParams,
  request: { readonly descriptor?: unknown; readonly xpub?: unknown; readonly gap?: unknown },
  maxWalletHooks: number,
): { descriptor: string; gap: number } {
  if (maxWalletHooks === 0) throw new InvalidArgumentError('event', 'this service takes no wallet webhooks ([webhooks] max_wallet_hooks = 0)');
  const given = request.descriptor ?? request.xpub;
  if (typeof given !== 'string' || given.length === 0) throw new InvalidArgumentError('descriptor', 'a wallet hook needs a descriptor (or an xpub)');
  if (request.descriptor !== undefined && request.xpub !== undefined) throw new InvalidArgumentError('descriptor', 'give the wallet once: descriptor or xpub');
  if (request.gap !== undefined && typeof request.gap !== 'number') throw new InvalidArgumentError('gap', 'gap must be an integer');
  const gap = checkGap(request.gap as number | undefined);
  const wallet = parseWalletDescriptor(params, given);
  return { descriptor: wallet.descriptor, gap };
}
