/**
 * The coin catalogue (chains/coins/, listed in chains/networks.ts) is the one list of coins and networks: every table
 * keyed by coin or network, wherever it lives, has an entry for each, and every list derived from it names them all.
 * A coin or network added without its entries fails here (docs/architecture.md, "Adding a coin").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NETWORK_IDS, type NetworkId } from '../../src/core/domain/network.js';
import { PRICE_SOURCE_IDS } from '../../src/core/domain/prices.js';
import { ALL_NETWORK_PARAMS, COINS, coinOf, DEFAULT_COIN, feeRateUnit, getNetworkParams, LISTED_NETWORKS, PRICED_COINS } from '../../src/chains/networks.js';
import { networkCode, networkFromCode } from '../../src/store/common/schema/network-codes.js';
import { createPriceSource } from '../../src/market/sources/price-sources.js';
import { resolveChannel } from '../../src/realtime/channels/channel-names.js';
import { KEY_HINTS } from '../../src/http/v2/v2-error-spec.js';
import { P } from '../../src/http/shared/schema-kit.js';
import { paymentUri } from '../../src/web/explorer/parts/payment-uri.js';
import { feeRate } from '../../src/web/explorer/format.js';
import { blockchainChannel, networkFromSlug } from '../../src/services/events/catalogue/event-channels.js';

describe('coin catalogue', () => {
  it('every network acronym has its coin, its main or test network, and a regtest chain for a test network', () => {
    for (const id of NETWORK_IDS) {
      const params = getNetworkParams(id);
      const coin = coinOf(params);
      assert.ok(coin.networks.main.id === id || coin.networks.test.id === id, `${id} is one of ${coin.id}'s networks`);
      assert.equal(coin.networks[params.chain], params);
      if (params.chain === 'test') assert.equal(getNetworkParams(id, 'regtest'), coin.networks.regtest);
    }
    for (const coin of COINS) {
      assert.equal(coin.networks.main.id, coin.id, 'a coin is named by its main network');
      for (const chain of ['main', 'test', 'regtest'] as const) {
        const params = coin.networks[chain];
        assert.equal(params.chain, chain);
        assert.equal(params.coin, coin.id);
        assert.ok((NETWORK_IDS as readonly string[]).includes(params.id), `${params.id} is in core's NETWORK_IDS`);
      }
    }
    assert.deepEqual(ALL_NETWORK_PARAMS.length, COINS.length * 3);
  });

  it('every coin has its facts: node software, symbol, site, base and fee units, URI scheme', () => {
    for (const coin of COINS) {
      for (const field of ['nodeSoftware', 'symbolHtml', 'site', 'baseUnit', 'uriScheme'] as const) assert.ok(coin[field].length > 0, `${coin.id}.${field}`);
      assert.equal(feeRateUnit(coin.id), `${coin.baseUnit}/vB`);
      assert.equal(feeRate(1.5, coin.id), `1.50 ${coin.baseUnit}/vB`, 'the explorer writes the unit v3 writes');
      assert.equal(paymentUri(coin.id, 'A'), `${coin.uriScheme}:A`);
      for (const exchange of Object.keys(coin.exchangeNames)) assert.ok((PRICE_SOURCE_IDS as readonly string[]).includes(exchange), exchange);
    }
    assert.equal(new Set(COINS.map((c) => c.uriScheme)).size, COINS.length);
    assert.ok(COINS.some((c) => c.id === DEFAULT_COIN));
  });

  it('every network has its stored code, one of its own, and a channel slug', () => {
    const codes = NETWORK_IDS.map((id) => networkCode(id));
    assert.equal(new Set(codes).size, NETWORK_IDS.length);
    for (const id of NETWORK_IDS) {
      assert.ok(Number.isInteger(networkCode(id)), id);
      assert.equal(networkFromCode(networkCode(id)), id);
      assert.equal(networkFromSlug(blockchainChannel(id).slice('blockchain_update_'.length)), id);
    }
  });

  it('the lists the APIs show name every network', () => {
    assert.deepEqual([...LISTED_NETWORKS].sort(), [...NETWORK_IDS].sort());
    for (const id of NETWORK_IDS) {
      assert.match(KEY_HINTS['network']!, new RegExp(`\\b${id}\\b`));
      assert.match(P.network.description, new RegExp(`\\b${id}\\b`));
    }
  });

  it('every priced coin has a ticker channel and an exchange quoting it; exchanges quote only priced coins', () => {
    const networks = new Map<NetworkId, ReturnType<typeof getNetworkParams>>();
    const quoted = new Set(PRICE_SOURCE_IDS.flatMap((id) => createPriceSource(id).pairs.map((p) => p.coin)));
    for (const coin of PRICED_COINS) {
      assert.equal(resolveChannel(`ticker_${coin.toLowerCase()}_usd`, networks).ok, true, coin);
      assert.ok(quoted.has(coin), `${coin} is quoted somewhere`);
    }
    assert.deepEqual([...quoted].filter((coin) => !(PRICED_COINS as readonly string[]).includes(coin)), []);
  });
});
