import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { negotiate, versionText } from './protocol-version.js';

const text = (arg: unknown): string | null => {
  const v = negotiate(arg);
  return v && versionText(v);
};

describe('Electrum protocol negotiation', () => {
  it('answers the highest version both speak, 1.4 to 1.6', () => {
    assert.equal(text('1.4'), '1.4');
    assert.equal(text(undefined), '1.4', 'the default argument');
    assert.equal(text('1.4.2'), '1.4.2');
    assert.equal(text(['1.4', '1.6']), '1.6');
    assert.equal(text(['1.2', '1.4.2']), '1.4.2');
    assert.equal(text(['1.4', '2.0']), '1.6');
    assert.equal(text('1.6'), '1.6');
  });

  it('finds none outside 1.4-1.6 or for a malformed argument', () => {
    assert.equal(text('1.3'), null);
    assert.equal(text(['1.0', '1.2']), null);
    assert.equal(text('2.0'), null);
    assert.equal(text(['1.7', '1.8']), null);
    assert.equal(text(['1.6', '1.4']), null);
    assert.equal(text(['1.4']), null);
    assert.equal(text(14), null);
    assert.equal(text('one.four'), null);
  });
});
