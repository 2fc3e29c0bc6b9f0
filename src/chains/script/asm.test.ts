import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fromHex } from '../hash.js';
import { scriptToAsm } from './asm.js';
import { getOpName } from './opcodes.js';

const FIXTURES = new URL('../../../test/fixtures/', import.meta.url);

interface TxFixture {
  name: string;
  expected: { vin: { scriptSig: string }[]; vout: { script_hex: string }[] };
  source_asserted: { outs?: { script_asm?: string | null }[] };
}

function txFixtures(): TxFixture[] {
  const dir = new URL('txs/', FIXTURES);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as TxFixture);
}

const asm = (hex: string, sighashDecode = false) => scriptToAsm(fromHex(hex), { sighashDecode });

describe('scriptToAsm', () => {
  it('equals every script_asm the fixture sources assert', () => {
    let checked = 0;
    for (const tx of txFixtures()) {
      (tx.source_asserted.outs ?? []).forEach((out, i) => {
        if (typeof out.script_asm !== 'string') return;
        const script = tx.expected.vout[i]?.script_hex;
        assert.ok(script !== undefined, `${tx.name} out ${i}`);
        assert.equal(asm(script), out.script_asm, `${tx.name} out ${i}`);
        checked++;
      });
    }
    assert.ok(checked >= 10, `only ${checked} asserted asm strings`);
  });

  it('ends malformed scripts with [error] instead of throwing', () => {
    const tx = txFixtures().find((t) => t.name === 'malformed-output-scripts');
    assert.ok(tx);
    const rendered = tx.expected.vout.map((v) => asm(v.script_hex));
    assert.deepEqual(rendered, [
      '[error]', // 01: push of 1 byte, none left
      '[error]', // 0201
      '[error]', // 4c: PUSHDATA1 without its length
      '[error]', // 4c0201
      '[error]', // 4d
      '[error]', // 4dffff01
      '[error]', // 4e
      '[error]', // 4effffffff01
    ]);
    assert.equal(asm('76a94c'), 'OP_DUP OP_HASH160 [error]');
  });

  const cases: [string, string][] = [
    ['', ''],
    ['00', '0'],
    ['4f', '-1'],
    ['51', '1'],
    ['60', '16'],
    ['0101', '1'], // non-minimal push of 1 prints as a number
    ['0181', '-1'],
    ['0180', '0'], // negative zero
    ['02ff00', '255'],
    ['04ffffffff', '-2147483647'],
    ['04ffffff7f', '2147483647'],
    ['050102030405', '0102030405'],
    ['4c00', '0'],
    ['4c0401020304', '67305985'],
    ['6a', 'OP_RETURN'],
    ['6a0b68656c6c6f20776f726c64', 'OP_RETURN 68656c6c6f20776f726c64'],
    ['6a24aa21a9ed' + 'ab'.repeat(32), 'OP_RETURN aa21a9ed' + 'ab'.repeat(32)],
    ['0014' + '11'.repeat(20), '0 ' + '11'.repeat(20)],
    ['5120' + '22'.repeat(32), '1 ' + '22'.repeat(32)],
    ['a914' + '33'.repeat(20) + '87', 'OP_HASH160 ' + '33'.repeat(20) + ' OP_EQUAL'],
    ['52ae', '2 OP_CHECKMULTISIG'],
    ['b0b1b2b3b9', 'OP_NOP1 OP_CHECKLOCKTIMEVERIFY OP_CHECKSEQUENCEVERIFY OP_NOP4 OP_NOP10'],
    ['ba', 'OP_CHECKSIGADD'],
    ['bbfeff', 'OP_UNKNOWN OP_UNKNOWN OP_INVALIDOPCODE'],
    ['50898a', 'OP_RESERVED OP_RESERVED1 OP_RESERVED2'],
    ['03a08601b175', '100000 OP_CHECKLOCKTIMEVERIFY OP_DROP'],
  ];
  for (const [hex, expected] of cases) {
    it(`${hex.slice(0, 20) || '(empty)'} → ${expected.slice(0, 40)}`, () => assert.equal(asm(hex), expected));
  }

  const sig = '3045022100' + '91'.repeat(32) + '0220' + '22'.repeat(32);
  const key = '02' + '33'.repeat(32);
  it('decodes sighash types of DER signatures when asked (scriptSig)', () => {
    for (const [byte, name] of [
      ['01', 'ALL'],
      ['02', 'NONE'],
      ['03', 'SINGLE'],
      ['81', 'ALL|ANYONECANPAY'],
      ['82', 'NONE|ANYONECANPAY'],
      ['83', 'SINGLE|ANYONECANPAY'],
    ] as const) {
      const script = '48' + sig + byte + '21' + key;
      assert.equal(asm(script, true), `${sig}[${name}] ${key}`);
      assert.equal(asm(script, false), `${sig}${byte} ${key}`);
    }
    assert.equal(asm('48' + sig + '04', true), `${sig}04`); // undefined hashtype
    assert.equal(asm('48' + sig + '41', true), `${sig}41`); // FORKID is not a defined hashtype here
    assert.equal(asm('6a48' + sig + '01', true), `OP_RETURN ${sig}01`); // unspendable: never decoded
    const badDer = '3046022100' + '91'.repeat(32) + '0220' + '22'.repeat(32);
    assert.equal(asm('48' + badDer + '01', true), `${badDer}01`); // length byte off by one
    const paddedR = '3045022100' + '11'.repeat(32) + '0220' + '22'.repeat(32);
    assert.equal(asm('48' + paddedR + '01', true), `${paddedR}01`); // needless 00 before R
  });

  it('renders the malformed-output fixture scriptSig with [ALL]', () => {
    const tx = txFixtures().find((t) => t.name === 'malformed-output-scripts');
    const scriptSig = tx?.expected.vin[0]?.scriptSig ?? '';
    assert.equal(
      asm(scriptSig, true),
      '30450221009d41dc793ba24e65f571473d40b299b6459087cea1509f0d381740b1ac863cb6022039c425906fcaf51b2b84d8092569fb3213de43abaff2180e2a799d4fcb4dd0aa[ALL] 02d5ede09a8ae667d0f855ef90325e27f6ce35bbe60a1e6e87af7f5b3c652140fd',
    );
  });

  it('names opcodes as GetOpName', () => {
    assert.equal(getOpName(0x00), '0');
    assert.equal(getOpName(0x61), 'OP_NOP');
    assert.equal(getOpName(0x6a), 'OP_RETURN');
    assert.equal(getOpName(0x76), 'OP_DUP');
    assert.equal(getOpName(0x7e), 'OP_CAT');
    assert.equal(getOpName(0xa5), 'OP_WITHIN');
    assert.equal(getOpName(0xac), 'OP_CHECKSIG');
    assert.equal(getOpName(0xaf), 'OP_CHECKMULTISIGVERIFY');
    assert.equal(getOpName(0xb9), 'OP_NOP10');
    assert.equal(getOpName(0xba), 'OP_CHECKSIGADD');
    assert.equal(getOpName(0xbb), 'OP_UNKNOWN');
  });
});
