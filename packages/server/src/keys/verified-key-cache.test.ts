import { describe, expect, it } from 'vitest';
import { type CachedKey, keyCacheFromEnv, VerifiedKeyCache } from './verified-key-cache.js';

const entry = (prefix: string, teamId = 'team-a'): CachedKey => ({
  key: {
    id: `id-${prefix}`,
    teamId,
    name: 'k',
    prefix,
    scopes: ['cars:read'],
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  },
  secretHash: 'ab',
  teamApiEnabled: true,
});

function cacheWithClock(maxEntries = 3, ttlMs = 1_000) {
  let t = 0;
  const cache = new VerifiedKeyCache({ maxEntries, ttlMs, clock: () => t });
  return { cache, advance: (ms: number) => (t += ms) };
}

const token = (grantId: string, teamId = 'team-a') => ({ grantId, teamId, lastUsedAt: null, scopes: ['read:cars'] });

/** Checks which keys (by prefix) and tokens (by hash) the cache holds (true) or has dropped (false). */
function expectHeld(
  cache: VerifiedKeyCache,
  { keys = {}, tokens = {} }: { keys?: Record<string, boolean>; tokens?: Record<string, boolean> },
) {
  for (const [prefix, held] of Object.entries(keys))
    expect(cache.get(prefix) !== undefined, `key ${prefix}`).toBe(held);
  for (const [hash, held] of Object.entries(tokens))
    expect(cache.getToken(hash) !== undefined, `token ${hash}`).toBe(held);
}

describe('VerifiedKeyCache', () => {
  it('holds access tokens beside keys, and drops them by grant, by team, or on an unknown message', () => {
    const { cache } = cacheWithClock(10);
    cache.set('a', entry('a'), cache.snapshot());
    cache.setToken('h1', token('g1'), cache.snapshot());
    cache.setToken('h2', token('g2'), cache.snapshot());
    cache.setToken('h3', token('g3', 'team-b'), cache.snapshot());
    expect(cache.getToken('h1')).toMatchObject({ grantId: 'g1' });
    // A token's hash never reads as a key prefix, nor the other way round.
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.getToken('a')).toBeUndefined();

    cache.applyMessage('grant:g1');
    expectHeld(cache, { tokens: { h1: false, h2: true } });
    cache.applyMessage('team:team-a');
    expectHeld(cache, { keys: { a: false }, tokens: { h2: false, h3: true } });
    cache.applyMessage('something new');
    expect(cache.size).toBe(0);
  });

  it('does not store a token read that began before its grant was invalidated', () => {
    const { cache } = cacheWithClock(10);
    const before = cache.snapshot();
    cache.invalidateGrant('g1');
    cache.setToken('h1', token('g1'), before);
    expect(cache.getToken('h1')).toBeUndefined();
  });

  it("records a grant's use on its cached tokens without dropping them", () => {
    const { cache } = cacheWithClock(10);
    cache.setToken('h1', token('g1'), cache.snapshot());
    cache.touchGrant('g1', '2026-11-28T00:00:00.000Z');
    expect(cache.getToken('h1')).toMatchObject({ lastUsedAt: '2026-11-28T00:00:00.000Z' });
  });

  it('holds at most maxEntries keys, dropping the least recently used first', () => {
    const { cache } = cacheWithClock(3);
    for (const p of ['a', 'b', 'c']) cache.set(p, entry(p), cache.snapshot());
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    cache.set('d', entry('d'), cache.snapshot());
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((p) => cache.get(p)?.key.prefix)).toEqual(['a', 'c', 'd']);
  });

  it('forgets an entry after the TTL even without a notification', () => {
    const { cache, advance } = cacheWithClock(3, 1_000);
    cache.set('a', entry('a'), cache.snapshot());
    advance(999);
    expect(cache.get('a')).toBeDefined();
    advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('applies key, team and unknown change messages', () => {
    const { cache } = cacheWithClock(10);
    for (const [p, t] of [
      ['a', 'team-a'],
      ['b', 'team-a'],
      ['c', 'team-b'],
      ['d', 'team-b'],
    ] as const) {
      cache.set(p, entry(p, t), cache.snapshot());
    }
    cache.applyMessage('key:c');
    expectHeld(cache, { keys: { c: false, d: true } });
    cache.applyMessage('team:team-a');
    expectHeld(cache, { keys: { a: false, b: false, d: true } });
    cache.applyMessage('something new');
    expect(cache.size).toBe(0);
  });

  it('does not store a read that began before an invalidation (it may hold the old row)', () => {
    const { cache } = cacheWithClock(10);
    const before = cache.snapshot();
    cache.invalidateKey('a'); // the admin change lands while the read is in flight
    cache.set('a', entry('a'), before);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', entry('a'), cache.snapshot());
    expect(cache.get('a')).toBeDefined();
  });

  it('serves nothing and stores nothing while untrusted (invalidation listener down)', () => {
    const { cache } = cacheWithClock(10);
    cache.set('a', entry('a'), cache.snapshot());
    cache.setTrusted(false);
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', entry('b'), cache.snapshot());
    cache.setTrusted(true);
    // Back up: nothing from before the outage survives (notifications may have been missed).
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
  });

  it('stops serving once the trust deadline a heartbeat set has passed, and resumes with the next one', () => {
    const { cache, advance } = cacheWithClock(10, 60_000);
    cache.set('a', entry('a'), cache.snapshot());
    cache.trustUntil(cache.now() + 900);
    advance(899);
    expect(cache.get('a')).toBeDefined();
    advance(1);
    expect(cache.isTrusted).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    cache.trustUntil(cache.now() + 900);
    expect(cache.get('a')).toBeDefined();
  });

  it('is off with a size of 0, and reads its settings from the environment', () => {
    const cache = new VerifiedKeyCache({ maxEntries: 0, ttlMs: 1_000 });
    cache.set('a', entry('a'), cache.snapshot());
    expect(cache.get('a')).toBeUndefined();
    expect(keyCacheFromEnv({ VSF_KEY_CACHE_SIZE: '0', VSF_KEY_CACHE_TTL_MS: '500' })).toEqual({
      maxEntries: 0,
      ttlMs: 500,
    });
    expect(() => keyCacheFromEnv({ VSF_KEY_CACHE_SIZE: '-1' })).toThrow(/VSF_KEY_CACHE_SIZE/);
  });
});
