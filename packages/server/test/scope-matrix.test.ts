import { randomUUID } from 'node:crypto';
import {
  ALL_SCOPES,
  apiEndpoints,
  type EndpointDefinition,
  pathParamNames,
  type Scope,
  serverPath,
} from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { apiCaller } from './support/api-caller.js';
import { createWorld, endpointFixtures, fillIds } from './support/endpoint-fixtures.js';
import { snapshotTeamData } from './support/team-snapshot.js';

// Generated from the contract: for every endpoint, a key lacking any one required scope gets
// 403 "Missing scope: <scope>" before anything else happens.
const endpoints = Object.values(apiEndpoints) as EndpointDefinition[];

let server: TestServer;
let teamId: string;
const keysWithout = new Map<string, string>();
/** One record of every kind, for the field-scope probes: they send real ids the request could act on. */
let world: Record<string, string>;

/** From the server's root (`/api/v1/…`, `/api/media/…`): callers below are made on `server.origin`. */
function pathFor(endpoint: EndpointDefinition, ids: Record<string, string>): string {
  return serverPath(endpoint).replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? randomUUID());
}

beforeAll(async () => {
  server = await startTestServer();
  teamId = (await server.createTeam()).id;
  const omitted = new Set<string>();
  for (const e of endpoints) {
    for (const s of e.scopes.all) omitted.add(s);
    if (e.scopes.any?.length) omitted.add(e.scopes.any.join('|'));
  }
  for (const omit of omitted) {
    const drop = new Set(omit.split('|'));
    const key = await server.createKey(
      teamId,
      ALL_SCOPES.filter((s) => !drop.has(s)),
    );
    keysWithout.set(omit, key.key);
  }
  for (const e of endpoints) {
    for (const rule of e.fieldScopes ?? []) {
      for (const scope of rule.scopes.all) {
        if (!keysWithout.has(scope))
          keysWithout.set(
            scope,
            (
              await server.createKey(
                teamId,
                ALL_SCOPES.filter((s) => s !== scope),
              )
            ).key,
          );
      }
    }
  }
  world = await createWorld(apiCaller(server.baseUrl, (await server.createKey(teamId, ALL_SCOPES)).key));
});
afterAll(() => server?.close());

describe('scope matrix', () => {
  for (const endpoint of endpoints) {
    const label = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
    const fixture = endpointFixtures[endpoint.operationId];

    it(`${label} has a fixture`, () => {
      expect(fixture, `add ${endpoint.operationId} to test/support/endpoint-fixtures.ts`).toBeDefined();
    });

    for (const scope of endpoint.scopes.all) {
      it(`${label} without ${scope} → 403 Missing scope: ${scope}`, async () => {
        const api = apiCaller(server.origin, keysWithout.get(scope));
        const ids = Object.fromEntries(pathParamNames(endpoint.path).map((p) => [p, randomUUID()]));
        const res = await api(endpoint.method, pathFor(endpoint, ids), {
          ...(fixture?.body !== undefined
            ? { body: fillIds(fixture.body, new Proxy({}, { get: () => randomUUID() })) }
            : {}),
        });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: `Missing scope: ${scope}`, code: 'forbidden', details: null });
      });
    }

    // A body field that changes another resource needs that resource's scope too (declared on the endpoint).
    for (const rule of endpoint.fieldScopes ?? []) {
      for (const scope of rule.scopes.all) {
        it(`${label} sending ${rule.field} without ${scope} → 403 Missing scope: ${scope}, nothing stored`, async () => {
          const api = apiCaller(server.origin, keysWithout.get(scope));
          const sent = rule.values?.[0] ?? world[rule.field] ?? null;
          const body = { ...(fillIds(fixture?.body ?? {}, world) as object), [rule.field]: sent };
          const before = await snapshotTeamData(server.db, teamId);
          const res = await api(endpoint.method, pathFor(endpoint, world), { body });
          expect(res.status, JSON.stringify(res.body)).toBe(403);
          expect(res.body).toEqual({ error: `Missing scope: ${scope}`, code: 'forbidden', details: null });
          expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
        });
      }
    }

    if (endpoint.scopes.any?.length) {
      const any = endpoint.scopes.any as readonly Scope[];
      it(`${label} with none of ${any.join(', ')} → 403 naming ${any[0]}`, async () => {
        const api = apiCaller(server.origin, keysWithout.get(any.join('|')));
        const res = await api(endpoint.method, pathFor(endpoint, {}));
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ error: `Missing scope: ${any[0]}`, code: 'forbidden' });
      });
      for (const scope of any) {
        it(`${label} with only ${scope} of the alternatives is allowed`, async () => {
          const key = await server.createKey(teamId, [scope]);
          const res = await apiCaller(server.origin, key.key)(endpoint.method, pathFor(endpoint, {}));
          expect(res.status).not.toBe(403);
        });
      }
    }
  }

  it('write access is never implied by read access', async () => {
    const key = await server.createKey(teamId, ['read:cars']);
    const res = await apiCaller(server.baseUrl, key.key)('POST', '/cars', {
      body: { year: 2000, make: 'A', model: 'B' },
    });
    expect(res.body).toMatchObject({ error: 'Missing scope: write:cars' });
    const writeOnly = await server.createKey(teamId, ['write:cars']);
    const res2 = await apiCaller(server.baseUrl, writeOnly.key)('POST', '/cars', {
      body: { year: 2000, make: 'A', model: 'B' },
    });
    expect(res2.body).toMatchObject({ error: 'Missing scope: read:cars' });
  });
});
