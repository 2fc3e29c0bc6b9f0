import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRedis, type RedisServer } from '../../../test/helpers/redis-server.js';
import { recordingLogger } from '../../../test/helpers/recording-logger.js';
import { RedisAttemptCounter } from '../../redis/redis-attempt-counter.js';
import { TooManyAttemptsError } from '../../core/domain/errors.js';
import { AttemptLimiter, emailSubject, ipSubject, type LimitRule } from './attempt-limiter.js';
import { MemoryAttemptCounter } from '../../counters/memory-attempt-counter.js';

const rule: LimitRule = { name: 'signin-account', max: 3, windowSeconds: 900 };
const ipRule: LimitRule = { name: 'signin-ip', max: 5, windowSeconds: 900 };

describe('attempt limits', () => {
  let redis: RedisServer;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => redis?.stop());

  it('subjects: one per mailbox, IPv4 as is, IPv6 by /64, mapped IPv4 as IPv4', () => {
    assert.equal(emailSubject(' Bob@X.io '), emailSubject('bob@x.io'));
    assert.equal(ipSubject('203.0.113.7'), 'ip:203.0.113.7');
    assert.equal(ipSubject('::ffff:203.0.113.7'), 'ip:203.0.113.7');
    assert.equal(ipSubject('2001:db8:1:2:aaaa::1'), ipSubject('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'));
    assert.notEqual(ipSubject('2001:db8:1:2::1'), ipSubject('2001:db8:1:3::1'));
    assert.equal(ipSubject('::1'), 'ip:0:0:0:0::/64');
  });

  it('memory windows: refused at the limit with the wait, open again when the window ends, cleared on demand', async () => {
    let now = 1_000_000;
    const limiter = new AttemptLimiter(new MemoryAttemptCounter(() => now));
    const limits = [[rule, emailSubject('a@x.io')], [ipRule, ipSubject('10.0.0.1')]] as const;
    for (let i = 0; i < 3; i++) {
      await limiter.check(limits);
      await limiter.record(limits);
    }
    now += 60_000;
    const refused = await limiter.check(limits).then(() => null, (e: unknown) => e);
    assert.ok(refused instanceof TooManyAttemptsError);
    assert.equal(refused.retryAfter, 840);
    assert.equal(refused.message, 'Too many attempts. Try again in 14 minutes.');
    await limiter.check([[rule, emailSubject('b@x.io')]]);
    now += 840_000;
    await limiter.check(limits);
    await limiter.record(limits);
    await limiter.record(limits);
    await limiter.record(limits);
    await assert.rejects(limiter.check(limits), TooManyAttemptsError);
    await limiter.clear([rule, emailSubject('a@x.io')]);
    await limiter.check(limits);
  });

  it('Redis shares the counts between processes and falls back to counting alone when Redis is gone', async () => {
    const { logger, lines } = recordingLogger();
    const counterA = new RedisAttemptCounter(redis.url, new MemoryAttemptCounter(), logger);
    const a = new AttemptLimiter(counterA);
    const counterB = new RedisAttemptCounter(redis.url, new MemoryAttemptCounter(), logger);
    const b = new AttemptLimiter(counterB);
    const limits = [[rule, emailSubject('shared@x.io')]] as const;
    await a.record(limits);
    await b.record(limits);
    await a.record(limits);
    const refused = await b.check(limits).then(() => null, (e: unknown) => e);
    assert.ok(refused instanceof TooManyAttemptsError);
    assert.ok(refused.retryAfter > 890 && refused.retryAfter <= 900);
    await b.clear(limits[0]);
    await a.check(limits);
    const dead = new RedisAttemptCounter('redis://127.0.0.1:1', new MemoryAttemptCounter(), logger);
    const alone = new AttemptLimiter(dead);
    for (let i = 0; i < 3; i++) await alone.record(limits);
    await assert.rejects(alone.check(limits), TooManyAttemptsError);
    assert.equal(lines.filter((l) => /attempt counters in Redis unavailable/.test(l.message)).length, 1);
    await dead.close();
    await counterA.close();
    await counterB.close();
  });
});
