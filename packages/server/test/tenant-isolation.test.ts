import { ALL_SCOPES, apiEndpoints, type EndpointDefinition, pathParamNames, serverPath } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller, isApiError } from './support/api-caller.js';
import { createWorld, endpointFixtures, fillIds } from './support/endpoint-fixtures.js';
import { snapshotTeamData } from './support/team-snapshot.js';

// Generated from the contract: every endpoint that takes a record id, called by another team's key
// with every scope, answers 404 as for an unknown id and changes nothing of the owner's data.
const withIds = (Object.values(apiEndpoints) as EndpointDefinition[]).filter((e) => pathParamNames(e.path).length > 0);
// Generated from the contract's `references` declarations: every body field that names another record.
const withReferences = (Object.values(apiEndpoints) as EndpointDefinition[]).filter((e) => e.references?.length);

let server: TestServer;
let ownerTeamId: string;
let ownerIds: Record<string, string>;
let intruder: ApiCaller;
/** The intruder's calls by the endpoint's path from the server's root (`serverPath`). */
let intruderAtRoot: ApiCaller;
let intruderIds: Record<string, string>;
let intruderTeamId: string;

beforeAll(async () => {
  server = await startTestServer();
  const owner = await server.createTeamWithKey(ALL_SCOPES);
  ownerTeamId = owner.team.id;
  ownerIds = await createWorld(apiCaller(server.baseUrl, owner.key));
  const other = await server.createTeamWithKey(ALL_SCOPES);
  intruder = apiCaller(server.baseUrl, other.key);
  intruderAtRoot = apiCaller(server.origin, other.key);
  intruderTeamId = other.team.id;
  // The intruder's own records, for bodies that must point at something valid.
  intruderIds = await createWorld(intruder);
});
afterAll(() => server?.close());

describe('tenant isolation', () => {
  it('covers every endpoint that takes a record id', () => {
    for (const e of withIds) {
      expect(endpointFixtures[e.operationId], `add ${e.operationId} to endpoint-fixtures.ts`).toBeDefined();
      expect(endpointFixtures[e.operationId]?.noRecordIds, e.operationId).toBeUndefined();
    }
    expect(withIds.length).toBeGreaterThan(0);
  });

  for (const endpoint of withIds) {
    it(`${endpoint.method.toUpperCase()} ${endpoint.path} with another team's ids → 404, nothing changed`, async () => {
      const before = await snapshotTeamData(server.db, ownerTeamId);
      const path = serverPath(endpoint).replace(/\{(\w+)\}/g, (_, name: string) => {
        const id = ownerIds[name];
        if (!id) throw new Error(`no record factory for ${name}`);
        return id;
      });
      const fixture = endpointFixtures[endpoint.operationId];
      const res = await intruderAtRoot(endpoint.method, path, {
        ...(fixture?.body !== undefined ? { body: fillIds(fixture.body, intruderIds) } : {}),
        ...(fixture?.query ? { query: fixture.query } : {}),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(isApiError(res.body)).toBe(true);
      expect((res.body as { code: string }).code).toBe('not_found');
      expect(await snapshotTeamData(server.db, ownerTeamId)).toEqual(before);
    });
  }

  for (const endpoint of withReferences) {
    for (const field of endpoint.references ?? []) {
      it(`${endpoint.method.toUpperCase()} ${endpoint.path} with another team's ${field} in the body → 400 naming it, nothing stored`, async () => {
        const owner = await snapshotTeamData(server.db, ownerTeamId);
        const foreignId = ownerIds[field];
        expect(foreignId, `add a record factory for ${field}`).toBeDefined();
        const fixture = endpointFixtures[endpoint.operationId];
        const body = { ...(fillIds(fixture?.body ?? {}, intruderIds) as object), [field]: foreignId };
        const path = serverPath(endpoint).replace(/\{(\w+)\}/g, (_, name: string) => intruderIds[name] as string);
        const intruderBefore = await snapshotTeamData(server.db, intruderTeamId);
        const res = await intruderAtRoot(endpoint.method, path, { body });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body).toMatchObject({
          code: 'validation_error',
          details: expect.arrayContaining([expect.objectContaining({ path: field })]),
        });
        expect(await snapshotTeamData(server.db, ownerTeamId)).toEqual(owner);
        expect(await snapshotTeamData(server.db, intruderTeamId)).toEqual(intruderBefore);
      });
    }
  }

  it("bodies that point at another team's records are rejected and store nothing", async () => {
    const before = await snapshotTeamData(server.db, ownerTeamId);
    const res = await intruder('POST', '/cars', {
      body: { year: 2000, make: 'X', model: 'Y', customerId: ownerIds.customerId, locationId: ownerIds.locationId },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_error',
      details: [
        { path: 'customerId', message: 'Customer not found' },
        { path: 'locationId', message: 'Location not found' },
      ],
    });
    const contact = await intruder('POST', '/contacts', {
      body: { customerId: ownerIds.customerId, firstName: 'A', lastName: 'B' },
    });
    expect(contact.status).toBe(400);
    expect(await snapshotTeamData(server.db, ownerTeamId)).toEqual(before);
  });

  it("lists never include another team's records, even by ids", async () => {
    const ids = Object.values(ownerIds).join(',');
    for (const path of ['/cars', '/customers', '/contacts', '/locations']) {
      const res = await intruder('GET', path, { query: { ids } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ data: [], total: 0 });
    }
  });
});
