import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY_CHANGES_CHANNEL, listenForKeyChanges } from './key-change-listener.js';
import { type CachedKey, VerifiedKeyCache } from './verified-key-cache.js';

const url = process.env.TEST_DATABASE_URL;
const entry = (prefix: string): CachedKey => ({
  key: {
    id: randomUUID(),
    teamId: 't',
    name: 'k',
    prefix,
    scopes: [],
    expiresAt: null,
    revokedAt: null,
    lastUsedAt: null,
    createdAt: '',
    updatedAt: '',
  },
  secretHash: '',
  teamApiEnabled: true,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function eventually(check: () => boolean, ms = 5_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describe('key-change listener', () => {
  it('keeps the cache untrusted (every lookup reads the database) while it cannot connect', async () => {
    const cache = new VerifiedKeyCache({ maxEntries: 10, ttlMs: 60_000 });
    const errors: Error[] = [];
    const listener = listenForKeyChanges('postgres://nobody@127.0.0.1:1/none', cache, {
      retryMs: 20,
      onError: (e) => errors.push(e),
    });
    await listener.ready;
    cache.set('a', entry('a'), cache.snapshot());
    expect(cache.isTrusted).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    await eventually(() => errors.length >= 2); // it keeps retrying
    await listener.close();
  });

  describe.skipIf(!url)('on PostgreSQL', () => {
    const admin = new pg.Client({ connectionString: url });
    afterAll(() => admin.end());

    it('applies notifications, distrusts the cache while disconnected, and trusts it again after reconnecting', async () => {
      await admin.connect();
      const cache = new VerifiedKeyCache({ maxEntries: 10, ttlMs: 60_000 });
      const appName = `vsf-listener-${randomUUID()}`;
      const listener = listenForKeyChanges(`${url}?application_name=${appName}`, cache, { retryMs: 20 });
      await listener.ready;
      expect(cache.isTrusted).toBe(true);
      // Heartbeats keep renewing the trust deadline (900 ms each) while the connection answers.
      await sleep(1_500);
      expect(cache.isTrusted).toBe(true);
      cache.set('p1', entry('p1'), cache.snapshot());
      cache.set('p2', entry('p2'), cache.snapshot());
      await admin.query('select pg_notify($1, $2)', [KEY_CHANGES_CHANNEL, 'key:p1']);
      await eventually(() => cache.get('p1') === undefined);
      expect(cache.get('p2')).toBeDefined();

      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [
        appName,
      ]);
      await eventually(() => !cache.isTrusted);
      expect(cache.get('p2')).toBeUndefined();
      await eventually(() => cache.isTrusted);
      cache.set('p3', entry('p3'), cache.snapshot());
      await admin.query('select pg_notify($1, $2)', [KEY_CHANGES_CHANNEL, 'key:p3']);
      await eventually(() => cache.get('p3') === undefined);
      await listener.close();
      expect(cache.isTrusted).toBe(false);
    });
  });
});
