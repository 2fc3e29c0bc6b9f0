import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { localPath, themeOf } from './theme.js';

const withCookie = (cookie?: string): FastifyRequest => ({ headers: cookie === undefined ? {} : { cookie } }) as FastifyRequest;

test('themeOf reads the theme cookie; anything else is auto', () => {
  assert.equal(themeOf(withCookie()), 'auto');
  assert.equal(themeOf(withCookie('a=1; outpoint_theme=dark')), 'dark');
  assert.equal(themeOf(withCookie('outpoint_theme=light')), 'light');
  assert.equal(themeOf(withCookie('outpoint_theme=<script>')), 'auto');
});

test('localPath keeps this site\'s paths and refuses open redirects', () => {
  assert.equal(localPath('/ltc/tx/ab?x=1'), '/ltc/tx/ab?x=1');
  for (const bad of ['//evil.example', 'https://evil.example', '/\\evil', 'javascript:alert(1)', '/a b', undefined, 42]) assert.equal(localPath(bad), '/');
});
