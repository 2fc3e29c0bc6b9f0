/**
 * Parts of the wallet page (wallet.page.ts): the balance figures, the wallet's policy (script form, k of n, each key
 * with its origin) and an address with its path, for every form: multisig keys, scripts without an address (P2PK,
 * bare multisig, raw()) and paths that do not exist (plain keys, addr()).
 */
import type { WalletPolicy } from '../../../chains/wallet/wallet-policy.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import type { WalletAddressRef, WalletSummary } from '../../../services/wallets/wallet-service.js';
import { html, type SafeHtml } from '../../shell/html.js';
import { amount, count, hash, link, table } from '../format.js';
import { addressPath } from '../paths.js';

/** The address linked to its page, or what stands in for it. */
export function walletAddress(network: NetworkContext, address: string | null): SafeHtml {
  return address === null ? html`<span class="muted">no address (script only)</span>` : link(addressPath(network.id, address), hash(address));
}

/** A path, or a dash where nothing is derived. */
export function walletPath(path: string | null): SafeHtml | string {
  return path ?? html`<span class="muted">—</span>`;
}

/** `Receive 0/4` lines of the next-addresses card. */
export function addressRef(network: NetworkContext, r: WalletAddressRef): SafeHtml {
  return html`${walletAddress(network, r.address)}${r.path === null ? '' : html` <span class="muted">(${r.path})</span>`}`;
}

export function walletFigures(network: NetworkContext, s: WalletSummary): SafeHtml {
  const coin = network.params.coin;
  return html`<dl class="kv">
<dt>Balance</dt><dd>${amount(s.confirmedBalance, coin)}</dd>
<dt>Unconfirmed</dt><dd>${amount(s.unconfirmedBalance, coin)}</dd>
<dt>Received from outside</dt><dd>${amount(s.confirmedReceivedExternal, coin)}</dd>
<dt>Sent outside</dt><dd>${amount(s.confirmedSentExternal, coin)}</dd>
<dt>Total received</dt><dd>${amount(s.confirmedReceived, coin)}</dd>
<dt>Total sent</dt><dd>${amount(s.confirmedSent, coin)}</dd>
<dt>Transactions</dt><dd>${count(s.txsTotal)}</dd>
<dt>Used addresses</dt><dd>${count(s.usedAddresses)}</dd>
</dl>
<p class="muted">Received from outside and sent outside: each confirmed transaction's net for the wallet (what was sent includes fees), so change and transfers between its own addresses cancel. Total received and sent add up per address, where those count on both sides.</p>`;
}

/** "2 of 3 · wsh(sortedmulti)", "1 key · wpkh", "1 script · addr". */
export function policyLine(policy: WalletPolicy): string {
  const n = policy.keys.length;
  if (policy.threshold !== null) return `${policy.threshold} of ${n} multisig · ${policy.form}`;
  return n === 0 ? `1 script · ${policy.form}` : `${n} key · ${policy.form}`;
}

/** Each key with its origin (the fingerprint it derives from and the path to it) and its path to the addresses. */
export function policyKeys(policy: WalletPolicy): SafeHtml {
  if (policy.keys.length === 0) return html`<p class="muted">No keys: this descriptor names its one script directly.</p>`;
  const rows = policy.keys.map((k, i) => html`<tr>
<td>${String(i + 1)}</td>
<td>${k.fingerprint === null ? html`<span class="muted">none</span>` : hash(k.fingerprint)}</td>
<td>${k.originPath === null ? html`<span class="muted">—</span>` : k.originPath === '' ? 'm' : `m/${k.originPath}`}</td>
<td>${hash(k.key)}</td>
<td>${walletPath(k.path)}</td>
</tr>`);
  return table('Keys of this wallet', html`<tr><th scope="col">#</th><th scope="col">Fingerprint</th><th scope="col">Origin</th><th scope="col">Key</th><th scope="col">Path</th></tr>`, rows);
}
