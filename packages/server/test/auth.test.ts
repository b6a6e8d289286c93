import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAMP_GATHER_MS } from '../src/keys/last-use-stamps.js';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { apiCaller } from './support/api-caller.js';
import { queriesDuring } from './support/queries-during.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const err = (error: string, code: string) => ({ error, code, details: null });

describe('API key authentication', () => {
  it('accepts the key in Authorization: Bearer or in x-api-key, equivalently', async () => {
    const { key, team } = await server.createTeamWithKey(['read:cars']);
    const bearer = await apiCaller(server.baseUrl)('GET', '/auth/key', { headers: { authorization: `Bearer ${key}` } });
    const header = await apiCaller(server.baseUrl)('GET', '/auth/key', { headers: { 'x-api-key': key } });
    expect(bearer.status).toBe(200);
    expect(header.body).toEqual(bearer.body);
    expect(bearer.body).toMatchObject({
      data: { teamId: team.id, scopes: ['read:cars'], name: 'test key', expiresAt: null },
    });
    expect(JSON.stringify(bearer.body)).not.toContain(key.split('.')[1]);
  });

  it('records when a key was last used, writing it at most once a minute', async () => {
    const { key, keyId } = await server.createTeamWithKey(['read:cars']);
    const lastUsed = async () =>
      ((await server.db('api_keys').where({ id: keyId }).first('last_used_at')) as { last_used_at: Date | null })
        .last_used_at;
    const api = apiCaller(server.baseUrl, key);
    // No request waits for the write: it is gathered with other keys' for STAMP_GATHER_MS, then made.
    const written = async (check: (at: Date | null) => boolean) => {
      const until = Date.now() + STAMP_GATHER_MS + 3_000;
      let at = await lastUsed();
      while (!check(at) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        at = await lastUsed();
      }
      return at;
    };
    expect(await lastUsed()).toBeNull();
    expect((await api('GET', '/cars')).status).toBe(200);
    const first = await written((at) => at !== null);
    expect(first).toBeInstanceOf(Date);
    expect((await api('GET', '/cars')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, STAMP_GATHER_MS + 500));
    expect(await lastUsed()).toEqual(first);
    const stale = new Date(first!.getTime() - 61_000);
    const [{ prefix }] = await server.db('api_keys').where({ id: keyId }).update({ last_used_at: stale }, ['prefix']);
    // A minute on, as this instance's cache sees it: a last use written alone notifies no instance (migration 033),
    // so the key's notification is sent by hand, as any other change of the key sends it.
    await server.db.raw('select pg_notify(?, ?)', ['vsf_key_changes', `key:${prefix}`]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await api('GET', '/cars')).status).toBe(200);
    const again = await written((at) => at !== null && at.getTime() > stale.getTime() + 60_000);
    expect(again!.getTime()).toBeGreaterThan(stale.getTime() + 60_000);
  });

  it('writes the last uses still gathering when the server shuts down', async () => {
    const closing = await startTestServer();
    const { key, keyId } = await closing.createTeamWithKey(['read:cars']);
    expect((await apiCaller(closing.baseUrl, key)('GET', '/cars')).status).toBe(200);
    const sent = await queriesDuring(closing, () => closing.close());
    const stamps = sent.filter((query) => /update api_keys/i.test(query.sql));
    expect(stamps).toHaveLength(1);
    expect(JSON.stringify(stamps[0]?.bindings)).toContain(keyId);
  });

  it('answers a missing key with 401 API key required, and a malformed or unknown one with Invalid API key', async () => {
    const api = apiCaller(server.baseUrl);
    expect((await api('GET', '/cars')).body).toEqual(err('API key required', 'unauthorized'));
    expect((await api('GET', '/cars', { headers: { authorization: 'Bearer nope' } })).body).toEqual(
      err('Invalid API key', 'unauthorized'),
    );
    const { key } = await server.createTeamWithKey(['read:cars']);
    const [prefix, secret] = key.split('.');
    const wrongSecret = `${prefix}.${secret?.slice(0, -2)}xx`;
    const res = await api('GET', '/cars', { headers: { 'x-api-key': wrongSecret } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(err('Invalid API key', 'unauthorized'));
  });

  it('challenges every 401 as RFC 6750 says: the scheme, and invalid_token for a credential refused', async () => {
    const api = apiCaller(server.baseUrl);
    const challenge = async (path: string, headers: Record<string, string> = {}) => {
      const res = await api('GET', path, { headers });
      expect(res.status).toBe(401);
      return res.headers.get('www-authenticate');
    };
    expect(await challenge('/cars')).toBe('Bearer realm="vsf"');
    const invalid = 'Bearer realm="vsf", error="invalid_token"';
    expect(await challenge('/cars', { authorization: 'Bearer nope' })).toBe(invalid);
    expect(await challenge('/cars', { 'x-api-key': 'vsf_nope.nope' })).toBe(invalid);
    const team = await server.createTeam();
    const expired = await server.createKey(team.id, ['read:cars'], {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(await challenge('/cars', { authorization: `Bearer ${expired.key}` })).toBe(invalid);
    const adminBase = server.baseUrl.replace(/\/api\/v1$/, '/admin/v1');
    const admin = apiCaller(adminBase);
    const missing = await admin('GET', '/teams');
    expect([missing.status, missing.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="vsf"']);
    const wrong = await admin('GET', '/teams', { headers: { authorization: 'Bearer wrong-admin-token' } });
    expect([wrong.status, wrong.headers.get('www-authenticate')]).toEqual([401, invalid]);
  });

  it('answers an expired key with 401 API key expired', async () => {
    const team = await server.createTeam();
    const key = await server.createKey(team.id, ['read:cars'], {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const res = await apiCaller(server.baseUrl, key.key)('GET', '/cars');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(err('API key expired', 'unauthorized'));
  });

  it('revokes on the very next request, and a revoked key that also expired says revoked', async () => {
    const team = await server.createTeam();
    const key = await server.createKey(team.id, ['read:cars']);
    const api = apiCaller(server.baseUrl, key.key);
    expect((await api('GET', '/cars')).status).toBe(200);
    expect((await server.admin('POST', `/keys/${key.id}/revoke`)).status).toBe(200);
    expect((await api('GET', '/cars')).body).toEqual(err('API key revoked', 'unauthorized'));

    const both = await server.createKey(team.id, ['read:cars']);
    await server.admin('POST', `/keys/${both.id}/revoke`);
    await server.admin('PATCH', `/keys/${both.id}`, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect((await apiCaller(server.baseUrl, both.key)('GET', '/cars')).body).toEqual(
      err('API key revoked', 'unauthorized'),
    );
  });

  it('turns every key of the team away with 403 while the API is off, and keeps them for when it is back on', async () => {
    const { key, team } = await server.createTeamWithKey(['read:cars']);
    const api = apiCaller(server.baseUrl, key);
    await server.admin('PATCH', `/teams/${team.id}`, { apiEnabled: false });
    const off = await api('GET', '/cars');
    expect(off.status).toBe(403);
    expect(off.body).toEqual(err('API is disabled for this team', 'forbidden'));
    await server.admin('PATCH', `/teams/${team.id}`, { apiEnabled: true });
    expect((await api('GET', '/cars')).status).toBe(200);
  });

  it('checks the API switch before scopes, and expiry before the switch', async () => {
    const team = await server.createTeam();
    const narrow = await server.createKey(team.id, ['read:customers']);
    const expired = await server.createKey(team.id, ['read:cars'], {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    await server.admin('PATCH', `/teams/${team.id}`, { apiEnabled: false });
    expect((await apiCaller(server.baseUrl, narrow.key)('GET', '/cars')).body).toMatchObject({
      error: 'API is disabled for this team',
    });
    expect((await apiCaller(server.baseUrl, expired.key)('GET', '/cars')).body).toMatchObject({
      error: 'API key expired',
    });
  });

  it('stores only a hash of the secret', async () => {
    const team = await server.createTeam();
    const created = await server.createKey(team.id, ['read:cars']);
    const secret = created.key.split('.')[1] as string;
    const rows = await server.db('api_keys').where({ id: created.id });
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('answers every response with an X-Request-Id, echoing a sane client value', async () => {
    const api = apiCaller(server.baseUrl);
    const echoed = await api('GET', '/cars', { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await api('GET', '/cars', { headers: { 'x-request-id': 'bad value\twith tab <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('admin API', () => {
  it('requires the admin token', async () => {
    const none = await fetch(`${server.adminBaseUrl}/teams`);
    expect(none.status).toBe(401);
    const wrong = await fetch(`${server.adminBaseUrl}/teams`, { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(err('Invalid admin token', 'unauthorized'));
  });

  it('creates teams with the API on and default event types, and keys shown in full only once', async () => {
    const res = await server.admin('POST', '/teams', { name: 'Acme Storage' });
    expect(res.status).toBe(201);
    const team = ((await res.json()) as { data: { id: string; apiEnabled: boolean } }).data;
    expect(team.apiEnabled).toBe(true);
    const keyRes = await server.admin('POST', `/teams/${team.id}/keys`, { name: 'website', scopes: ['read:cars'] });
    expect(keyRes.status).toBe(201);
    const key = ((await keyRes.json()) as { data: { key: string; prefix: string } }).data;
    expect(key.key).toMatch(new RegExp(`^vsf_${key.prefix}\\.`));
    const list = await (await server.admin('GET', `/teams/${team.id}/keys`)).text();
    expect(list).toContain(key.prefix);
    expect(list).not.toContain(key.key.split('.')[1]);
    const types = await apiCaller(server.baseUrl, key.key)('GET', '/event-types');
    expect((types.body as { data: { value: string }[] }).data.map((t) => t.value)).toEqual(
      expect.arrayContaining(['drop_off', 'pick_up']),
    );
  });

  it('rejects unknown scopes with 400 and creates nothing', async () => {
    const team = await server.createTeam();
    const res = await server.admin('POST', `/teams/${team.id}/keys`, {
      name: 'x',
      scopes: ['read:cars', 'read:everything'],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_error', details: [{ path: 'scopes.1' }] });
    const keys = (await (await server.admin('GET', `/teams/${team.id}/keys`)).json()) as { data: unknown[] };
    expect(keys.data).toEqual([]);
  });

  it('answers unknown teams and keys with 404', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await server.admin('PATCH', `/teams/${id}`, { name: 'x' })).status).toBe(404);
    expect((await server.admin('POST', `/teams/${id}/keys`, { name: 'x', scopes: ALL_SCOPES })).status).toBe(404);
    expect((await server.admin('POST', `/keys/${id}/revoke`)).status).toBe(404);
  });
});
