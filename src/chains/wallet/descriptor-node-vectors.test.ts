/**
 * Every multisig form and combo() against Bitcoin Knots 29's own answers, recorded from a regtest node
 * (`getdescriptorinfo` for the checksum, `deriveaddresses` for indexes 0 to 2 of each chain: each multipath
 * alternative given alone, as the node expands it): three cosigner keys m/48'/1'/0'/2' of fixed seeds with their
 * origins, and the BIP380 key 03a34b… among them. test/e2e/v3-multisig.test.ts checks the same live, and spends.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scriptToAddress } from '../address/address.js';
import { getNetworkParams } from '../networks.js';
import { ChainDerivation } from './wallet-derivation.js';
import { parseWalletDescriptor } from './wallet-descriptor.js';

const REGTEST = getNetworkParams('BTCTEST', 'regtest');
const K = [
  '[4ba43603/48h/1h/0h/2h]tpubDDwf2gdFxFahr9RUtDQCuZmsx34CfdZ7RALAirwC2FGeLBzW1TDiEpqFeRdxLdZD7rfsbZHYwSaT6CLM3TAcYRw6xfRv4U6KCQt4Zuhvjkz',
  '[8dfc9b34/48h/1h/0h/2h]tpubDEXiq2SVhhqALktxfVFgj3C9M3T2G7xL11iezYg2LJAf245YkNyqp2K9TrvHABDCp2232k34UegU4aKEtUZNigit8EEqoLNe2JKMzMiLwYq',
  '[56c4fac3/48h/1h/0h/2h]tpubDEg3kqr2jo5ergkJbFqRHvCpiob7wR7Hi44J7y987G1JZfbzBND77XKTyPZzGvh3uyDf8kexMJnFD9W8FuraJ4wLMsx6YuZVXRSRRcx6QdD',
];
const PUB = '03a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd';

interface NodeVector {
  readonly text: string;
  /** getdescriptorinfo's checksum of the text. */
  readonly checksum: string;
  /** deriveaddresses, per chain (receive, change), indexes 0 to 2; combo's three address forms of each index in turn. */
  readonly addresses: readonly (readonly string[])[];
}

const VECTORS: readonly NodeVector[] = [
  {
    text: `sh(multi(2,${K[0]}/<0;1>/*,${K[1]}/<0;1>/*,${K[2]}/<0;1>/*))`,
    checksum: 'qehdzl8v',
    addresses: [
    ['2N2YRBWpbQPyvkAHHCiYMAsW7MixttgGkuP', '2N2B5JiPcYkLW85dXwxEwpd7DcJSqNKsC3G', '2NGFK2ALRX2ASJNSc2BzANNKEGDscrPECS5'],
    ['2NEpAjsN94MaMzprWshSB9R6URTzKAdPsgP', '2NCCAADBgFerpFLnQMAt4WFMshPE15SJmW9', '2N1s5RanAsACPovBqCV4HJTD8nEtpjTqxm5'],
    ],
  },
  {
    text: `sh(sortedmulti(2,${K[0]}/<0;1>/*,${K[1]}/<0;1>/*,${K[2]}/<0;1>/*))`,
    checksum: 'nx2nlzjn',
    addresses: [
    ['2NB9gPR867nVKnoQhPdX5bxDv1u4KiUNLs5', '2NAjw86B434eyDXsj7zwhdcUj5qSd6HGPjh', '2MspTSjA3hXswLSHXbV11UKQjdPes61U7wk'],
    ['2N1J6fC3432Zsc8T5c31EUuZne7hc44EV1R', '2NEhoxhRvXuR4ebXnfQYHZpEirfGJ711PBW', '2MtmkmcdKoRCk9ow791q55jRwMCea6mKmPq'],
    ],
  },
  {
    text: `wsh(multi(2,${K[0]}/<0;1>/*,${K[1]}/<0;1>/*,${K[2]}/<0;1>/*))`,
    checksum: 'jhaw05ld',
    addresses: [
    ['bcrt1qc5w50glxy9gt74sgq49s6n464rr2lwl4fnlcpk6d6umsrgm94ahsg8tvv5', 'bcrt1q227yu9hdujtdx3r9fy0f6mqsc0v5lztzktvt4s53rhf8kqw4rexs66jp6m', 'bcrt1q97es04akvs0xth5h8meep6th0jkrqd9lgrqpeqha3f6wy0zx5axqkemh09'],
    ['bcrt1qu0z9zpaugdv4xzkh02wpt5txk90797q96wk3xzywvd84s4dyzafsce6ka2', 'bcrt1q0uelgxhaet798y007mvx67qykcd9lddsk66lsdqfxnhprrz6nn5s25tjgs', 'bcrt1qgyh5h0l6ujtkf7lspkcvshyfd4ldj6y9ugdjg3l9djy5yh4v2ysscnu0pa'],
    ],
  },
  {
    text: `wsh(sortedmulti(2,${K[0]}/<0;1>/*,${K[1]}/<0;1>/*,${K[2]}/<0;1>/*))`,
    checksum: 'fq8gmhj6',
    addresses: [
    ['bcrt1qkpad42v3wkkt9hfww7vs7udr72pm32vyz5kgphkjm5m3z57pgz0swjhzs8', 'bcrt1qnzwqxqtnmyz7tjuzxagfhkugl0g0h4ay3rgxjtx5233weskwdw0srrsk02', 'bcrt1qrcwyzu0gywaa6uawqshrdstvy8k3xu7zzpeqydxwq6y7hpvrpcesqxzj65'],
    ['bcrt1qrjmmzx3qrg6x24cq68rdc6qaepw0y8j5y7wnwdwf482hcv5pd5xqm844pr', 'bcrt1q75dtqz7239zvpcymy3d2zgwdyrgyzgalqquzf570qru4vw53xkpsl8wkdu', 'bcrt1q5d0fctp3n0uxw7p04y7d2cy59aetas3j23edpugpkkxc8nfmj2pstd2etr'],
    ],
  },
  {
    text: `sh(wsh(multi(2,${K[0]}/<0;1>/*,${K[1]}/<0;1>/*,${K[2]}/<0;1>/*)))`,
    checksum: 'zgxgefy0',
    addresses: [
    ['2MyhSZcvZswR26RxqNWQ6ecrQMBynvv5bLr', '2NEP9N1kDKyUhWnTv8m8AKJHfxGQMqgaEuU', '2N2k1gJF42PotorHjRuFGbSb1Sp9k9JrFBE'],
    ['2N88SnbEjMck3kB1ib1jEk2ejvnWHTZTVQQ', '2NEW4Ahsbbi6Si5qH6ZDhztWycNqD738anS', '2N3ZaSUQ7P18WiibqwoJ4pfj5fhh4Jp5ieB'],
    ],
  },
  {
    text: `sh(wsh(sortedmulti(2,${K[0]}/<0;1>/*,${K[1]}/<0;1>/*,${K[2]}/<0;1>/*)))`,
    checksum: 'swpf7z80',
    addresses: [
    ['2MvFe56sSJ1MxM1cSELwts5mN2qdJnHth2U', '2NEZBtAkNGDoCkXmWTxtmE5jVv7gupJ991f', '2N9x8cH1qVdZLwW5uJVNkWcx4QAurzJeaxz'],
    ['2MxgAKD9b3V1ZQ3yj3ZhcUSg1RB256CJm4C', '2N7qkQ4Kqsc7q8AhK5s4Gz23pM5cgNbxdvZ', '2N7AzEbw76GtJCzr42fNhiYVKVqw5oWHfAp'],
    ],
  },
  {
    text: `wsh(sortedmulti(1,${K[0]}/<0;1>/*,${PUB},${K[1]}/7/*))`,
    checksum: '4jyunse5',
    addresses: [
    ['bcrt1qnf4lj6lwkynwrld6sk3chxn76u2nup05ly3gy7a4r4p309sxvkqqdjvjvs', 'bcrt1q66vxq909lcvph7j3hwe02t5zg0zd0yemt7la4z5lmmx78xqqp72qrgzj5f', 'bcrt1qwg3hf45xtydpc5stc4m3zeafdv2d8qd7aw0xqltxraah7v3km4yq63v8tg'],
    ['bcrt1qmcau2fsxh5xmdwehxcny8mx9e7tm5dzayeee6lxhlp5shmgd9rnq06ktu2', 'bcrt1qh8uk09rrsgwvklvw8f2j0wa583jmjhearzpjm7v444vvzhrkfmxqt8frna', 'bcrt1qlkrwkm92pgtd30pcduwtynerq07dv7haydjvceqhk67fvsfxn7mq90xtn8'],
    ],
  },
  {
    text: `combo(${K[0]}/<0;1>/*)`,
    checksum: 'lm30ff9d',
    addresses: [
    ['mnMPcihoSWZmKnbHfMbdN448zK2ZEkrftg', 'bcrt1qftuah3pa6u6ujsq4zw9nlppkzwnqlj0dsms29j', '2Mt2PDPb3S14ATJjYkMAYT7F9gFWERKYShX', 'mxdVmVPytV98naG1z61oYfZQKeaMrxugeZ', 'bcrt1qhwmwsr3jt0caqnpg4ujjuwaak2f2tf0cwgksh2', '2N4b249gCsAzk9RD4wqEQRZtDtytaDoerit', 'my6Xhvcx9d5Jbhan3xV9bYsnt55qdn7qsJ', 'bcrt1qcrfuzudxl2m9ys0fn8244pmzx2ss0f05lmmrdy', '2MysMtrNZ9K8dcSxXfQVU61tNkSehRxpDGS'],
    ['muY7Ecz34P3tbrYyffVPaWL3nbkPAVWvtQ', 'bcrt1qn8y68m0um5hkpnrngvetuc6es0xjr2ulavzfvf', '2N3nvd2o7UF4WcUPTY9Y8GTGFmwg5L8VbV3', 'n4H4r7U1m98t6XsRspXCuvZQtknC1mzur8', 'bcrt1qlx4g588kgspp2xndypvyq6yql6djgfjfrg8l6y', '2N6SXPrCdQfDZLC8yFS4opRSD56PrUbVFLM', 'mrNeaW1BjXHGzHrHYWT9fufzAAUwzFedxo', 'bcrt1qwut5gkdtphrqr880szxvnjxsq5zpykuw8w7lca', '2N59fr6JRAcHEnBv6TUc7C8MhyztxoWinP9'],
    ],
  },
  {
    text: `combo(${PUB})`,
    checksum: 'jjh3jqzg',
    addresses: [
    ['muZpTpBYhxmRFuCjLc7C6BBDF32C8XVJUi', 'bcrt1qngw83fg8dz0k749cg7k3emc7v98wy0c7azaa6h', '2N5LiC3CqzxDamRTPG1kiNv1FpNJQ7x28sb'],
    ],
  },
];

describe('multisig and combo descriptors against the node\'s deriveaddresses', () => {
  for (const v of VECTORS) {
    it(v.text.replace(/\$\{K\[\d\]\}/g, 'K').replace(/\$\{PUB\}/g, 'PUB'), () => {
      const wallet = parseWalletDescriptor(REGTEST, `${v.text}#${v.checksum}`);
      assert.equal(wallet.descriptor, `${v.text}#${v.checksum}`, 'the normalised descriptor is the text with the node\'s checksum');
      assert.equal(wallet.chains.length, v.addresses.length);
      v.addresses.forEach((expected, chain) => {
        const derivation = new ChainDerivation(wallet, chain);
        // deriveaddresses leaves out scripts without an address (combo's P2PK).
        const ours = Array.from({ length: Math.min(3 * wallet.width, derivation.size) }, (_, slot) => scriptToAddress(REGTEST, derivation.script(slot))).filter((a) => a !== null);
        assert.deepEqual(ours.slice(0, expected.length), expected, `chain ${chain}`);
      });
    });
  }
});
