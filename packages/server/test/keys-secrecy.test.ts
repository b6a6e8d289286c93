import { Writable } from 'node:stream';
import { ALL_SCOPES } from '@vsf/contract';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../src/db/connect-database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createApp } from '../src/http/create-app.js';
import { migratedPglite } from '../src/testing/migrated-pglite.js';
import { apiCaller } from './support/api-caller.js';

// Keys are secrets: the database keeps only a hash, and neither the request logs nor any error body
// ever carries a key, whichever header it came in and however the request fails.
let database: Database;
let baseUrl: string;
let adminUrl: string;
let close: () => Promise<void>;
let logs = '';
const ADMIN = 'secrecy-admin-token-0123456789';

beforeAll(async () => {
  database = process.env.TEST_DATABASE_URL
    ? connectDatabase({ databaseUrl: process.env.TEST_DATABASE_URL })
    : connectDatabase({ pglite: await migratedPglite() });
  await migrateToLatest(database.knex);
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  const app = createApp({ db: database.knex, adminToken: ADMIN, logger: pino({ level: 'debug' }, sink) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${port}/api/v1`;
  adminUrl = `http://127.0.0.1:${port}/admin/v1`;
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
});
