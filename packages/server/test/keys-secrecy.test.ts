import { Writable } from 'node:stream';
import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/connect-database.js';
import { createApp } from '../src/http/create-app.js';
import { createLogger } from '../src/runtime/logger.js';
import { apiCaller } from './support/api-caller.js';
import { openTestDatabase } from './support/test-database.js';

// Keys are secrets: the database keeps only a hash, and neither the request logs nor any error body
// ever carries a key, whichever header it came in and however the request fails.
let database: Database;
let baseUrl: string;
let adminUrl: string;
let origin: string;
let close: () => Promise<void>;
let logs = '';
const ADMIN = 'secrecy-admin-token-0123456789';

beforeAll(async () => {
  database = await openTestDatabase();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  // The logger `vsf-server start` builds, writing into the sink.
  const logger = createLogger('debug', { secrets: [ADMIN], destination: sink });
  const app = createApp({ db: database.knex, adminToken: ADMIN, logger });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${port}/api/v1`;
  adminUrl = `http://127.0.0.1:${port}/admin/v1`;
  origin = `http://127.0.0.1:${port}`;
  close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.close();
  };
});
afterAll(() => close?.());

describe('key secrecy', () => {
  it('never stores or logs a key in clear, on success or failure, in either header', async () => {
    const admin = (path: string, body: unknown) =>
      fetch(`${adminUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ data: { id: string; key: string } }>);
    const team = (await admin('/teams', { name: 'Secrecy' })).data;
    const key = (await admin(`/teams/${team.id}/keys`, { name: 'k', scopes: ALL_SCOPES })).data;
    const secret = key.key.split('.')[1] as string;

    const bearer = apiCaller(baseUrl, key.key);
    await bearer('GET', '/cars');
    await bearer('POST', '/cars', { body: { year: 1800 } });
    await bearer('GET', '/cars/not-a-uuid');
    await apiCaller(baseUrl)('GET', '/cars', { headers: { 'x-api-key': key.key } });
    await apiCaller(baseUrl)('GET', '/cars', { headers: { 'x-api-key': `${key.key}tampered` } });
    const revoke = await fetch(`${adminUrl}/keys/${key.id}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(revoke.status).toBe(200);
    const revoked = await bearer('GET', '/cars');
    expect(revoked.body.error).toBe('API key revoked');
    expect(JSON.stringify(revoked.body)).not.toContain(secret);

    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toContain('"statusCode":401');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(ADMIN);

    const dump = JSON.stringify(await database.knex('api_keys').where({ team_id: team.id }));
    expect(dump).not.toContain(secret);
    expect(dump).toContain(key.key.split('.')[0]?.slice(4));
  });

  it('redacts a key or the admin token from every log line, in any header, query parameter or path position', async () => {
    const created = await fetch(`${adminUrl}/teams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Positions' }),
    }).then((r) => r.json() as Promise<{ data: { id: string } }>);
    const made = await fetch(`${adminUrl}/teams/${created.data.id}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'positions', scopes: ['read:cars'] }),
    }).then((r) => r.json() as Promise<{ data: { key: string } }>);
    const key = made.data.key;
    const secret = key.split('.')[1] as string;
    /** Every character percent-encoded, as a client or an attacker's link may send it. */
    const encodeAll = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

    // Each secret in every spelling a URL can carry it.
    const spellings = (value: string) => [value, encodeURIComponent(value), encodeAll(value), value.toUpperCase()];
    const queryNames = ['api_key', 'API_KEY', 'apiKey', 'Api-Key', 'key', 'token', 'access_token', 'auth', 'q', 'make'];
    const urls: string[] = [];
    for (const value of [...spellings(key), ...spellings(ADMIN)]) {
      for (const name of queryNames) {
        urls.push(`/api/v1/cars?${name}=${value}`); // first
        urls.push(`/api/v1/cars?limit=1&${name}=${value}&page=1`); // middle
        urls.push(`/api/v1/cars?limit=1&${name}=${value}`); // last
      }
      urls.push(`/api/v1/cars?${value}`, `/api/v1/cars?${value}=1`);
      urls.push(`/api/v1/cars/${value}`, `/api/v1/${value}/cars`, `/api/media/${value}`, `/${value}`);
      urls.push(`/admin/v1/teams?admin_token=${value}`, `/admin/v1/teams/${value}`);
    }
    const headerSets: Record<string, string>[] = [
      { authorization: `Bearer ${key}` },
      { authorization: `bearer ${key}` },
      { authorization: `BEARER ${key.toUpperCase()}` },
      { authorization: `Basic ${key}` },
      { authorization: key },
      { 'x-api-key': key },
      { 'X-Api-Key': ` ${key} ` },
      { cookie: `session=${key}; vsf_key=${key}` },
      { 'proxy-authorization': `Bearer ${key}` },
      { 'x-vsf-key': key },
      { authorization: `Bearer ${ADMIN}` },
      { authorization: `Bearer ${ADMIN.toUpperCase()}` },
      { 'x-admin-token': ADMIN },
    ];
    const before = logs.split('\n').filter(Boolean).length;
    for (const url of urls) await fetch(`${origin}${url}`).then((r) => r.arrayBuffer());
    for (const headers of headerSets) {
      for (const path of ['/api/v1/cars', '/admin/v1/teams', '/api/media/00000000-0000-4000-8000-000000000000']) {
        await fetch(`${origin}${path}`, { headers }).then((r) => r.arrayBuffer());
      }
    }
    const lines = logs.split('\n').filter(Boolean).slice(before);
    // One request-completed line per request: the suite sees every line it means to check.
    expect(lines.length).toBeGreaterThanOrEqual(urls.length + headerSets.length * 3);
    const forms = [secret, encodeURIComponent(secret), encodeAll(secret), secret.toUpperCase(), secret.toLowerCase()];
    const adminForms = [ADMIN, ADMIN.toUpperCase(), encodeAll(ADMIN)];
    for (const line of lines) {
      for (const form of [...forms, ...adminForms]) expect(line.toLowerCase(), line).not.toContain(form.toLowerCase());
    }
    // Redaction keeps what an operator needs: the route and the other parameters.
    expect(lines.some((l) => l.includes('/api/v1/cars?limit=1&api_key=[redacted]&page=1'))).toBe(true);
  });
});
