import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { escapeHtml, html, joinHtml, pathOf, trustedHtml, withQuery } from './html.js';

test('html escapes every interpolated string, in content and in attributes', () => {
  const evil = `"><script>alert('x')</script>&`;
  const out = html`<a title="${evil}">${evil}</a>`.value;
  assert.equal(out, '<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>');
  assert.ok(!out.includes('<script>'));
});

test('html nests templates unescaped, joins lists, drops false/null/undefined', () => {
  const items = ['a<b', 'c'].map((t) => html`<li>${t}</li>`);
  assert.equal(html`<ul>${items}</ul>${false}${null}${undefined}${0}`.value, '<ul><li>a&lt;b</li><li>c</li></ul>0');
  assert.equal(joinHtml([html`x`, html`y`], html`, `).value, 'x, y');
  assert.equal(html`${trustedHtml('<b>ok</b>')}`.value, '<b>ok</b>');
});

test('escapeHtml is stable across calls (no regex state carried over)', () => {
  for (let i = 0; i < 3; i++) assert.equal(escapeHtml('<x>'), '&lt;x&gt;');
  assert.equal(escapeHtml('plain'), 'plain');
});

test('pathOf percent-encodes each segment; withQuery drops empty parameters', () => {
  assert.equal(pathOf('ltc', 'address', 'a/../b?c#d'), '/ltc/address/a%2F..%2Fb%3Fc%23d');
  assert.equal(withQuery('/x', { a: '1', b: undefined, c: '', d: 0, e: 'a&b' }), '/x?a=1&d=0&e=a%26b');
  assert.equal(withQuery('/x', {}), '/x');
});
