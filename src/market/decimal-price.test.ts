import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareDecimal, meanOfTwo, medianDecimal, normalizePrice } from './decimal-price.js';
import { parseJsonNumbersAsText } from './sources/json-numbers-as-text.js';

void describe('decimal prices', () => {
  it('normalises valid decimals without floats', () => {
    const cases: [string, string][] = [
      ['67012.34000000', '67012.34'], ['0.00000242', '0.00000242'], [' 84.10 ', '84.1'], ['0067010', '67010'],
      ['2.42e-6', '0.00000242'], ['1.5E3', '1500'], ['12e+2', '1200'], ['0.1', '0.1'],
      // Beyond double precision: a float would round these.
      ['123456789012345678.123456789', '123456789012345678.123456789'], ['0.30000000000000000001', '0.30000000000000000001'],
    ];
    for (const [input, want] of cases) assert.equal(normalizePrice(input), want, input);
  });

  it('refuses what is not a positive decimal', () => {
    for (const bad of ['', '0', '0.000', '-1', '1,5', 'NaN', 'Infinity', '1.2.3', '67010.', '0x10', '1e999', '.5', '5e', '9'.repeat(65), 67012, null, undefined, ['1']]) {
      assert.equal(normalizePrice(bad), null, String(bad));
    }
  });

  it('compares, averages and takes medians exactly', () => {
    assert.equal(compareDecimal('10', '9.99999'), 1);
    assert.equal(compareDecimal('0.00000242', '0.0000024200'.replace(/0+$/, '')), 0);
    assert.equal(meanOfTwo('0.1', '0.2'), '0.15');
    assert.equal(meanOfTwo('67010', '67011'), '67010.5');
    assert.equal(meanOfTwo('0.00000241', '0.00000242'), '0.000002415');
    assert.equal(medianDecimal([]), null);
    assert.equal(medianDecimal(['5']), '5');
    assert.equal(medianDecimal(['67012.3', '1', '67010']), '67010', 'one wild value cannot move a median of three');
    assert.equal(medianDecimal(['84.1', '84.13', '84.05', '84.12']), '84.11');
  });

  it('reads JSON numbers as their literal text', () => {
    assert.deepEqual(parseJsonNumbersAsText('[["tDOGE:BTC",2.42e-6,-0.5,67010],{"s":"a \\"1.5\\" b","n":0.1}]'),
      [['tDOGE:BTC', '2.42e-6', '-0.5', '67010'], { s: 'a "1.5" b', n: '0.1' }]);
    assert.throws(() => parseJsonNumbersAsText('[1, '), SyntaxError);
  });
});
