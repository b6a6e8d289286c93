import { ALL_SCOPES, apiEndpoints, type EndpointDefinition, errorStatuses } from '@vsf/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller, isApiError } from './support/api-caller.js';
import { createWorld, endpointFixtures, fillIds } from './support/endpoint-fixtures.js';
import { snapshotTeamData } from './support/team-snapshot.js';

// Property-based fuzzing driven by the contract: random valid and invalid path ids, query strings,
// bodies and headers for every endpoint. The server never answers 5xx, every error has the ApiError
// shape, and a rejected request changes no row. `VSF_STRESS=1` runs many more cases.
const RUNS = process.env.VSF_STRESS ? 200 : 12;
const SEED = Number(process.env.VSF_FUZZ_SEED ?? Date.now() % 2 ** 31);

let server: TestServer;
let api: ApiCaller;
let teamId: string;
let ids: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  const created = await server.createTeamWithKey(ALL_SCOPES);
  teamId = created.team.id;
  api = apiCaller(server.baseUrl, created.key);
  ids = await createWorld(api);
});
afterAll(() => server?.close());

const garbageString = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', 'null', '-1', '0', '1e309', 'NaN', '../../etc/passwd', "' OR 1=1 --", '%00', '\u0000', '😀'),
);

const idArb = (name: string) =>
  fc.oneof(
    fc.constant(ids[name] ?? '00000000-0000-4000-8000-000000000000'),
    fc.uuid(),
    garbageString.map(encodeURIComponent),
  );

const queryArb = fc.dictionary(
  fc.oneof(
    fc.constantFrom('page', 'limit', 'updatedAfter', 'ids', 'includeDeleted', 'customerId', 'scope', 'isActive'),
    fc.string(),
  ),
  fc.oneof(
    garbageString,
    fc.integer().map(String),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  ),
  { maxKeys: 4 },
);

function bodyArb(valid: unknown) {
  const base = valid && typeof valid === 'object' && !Array.isArray(valid) ? (valid as Record<string, unknown>) : {};
  const keys = Object.keys(base);
  return fc.oneof(
    fc.jsonValue(),
    fc.constant(base),
    keys.length > 0
      ? fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== k)))
      : fc.constant(base),
    keys.length > 0
      ? fc.tuple(fc.constantFrom(...keys), fc.jsonValue()).map(([k, v]) => ({ ...base, [k]: v }))
      : fc.constant(base),
    fc.tuple(fc.string({ minLength: 1 }), fc.jsonValue()).map(([k, v]) => ({ ...base, [k]: v })),
  );
}

const headersArb = fc.record(
  {
    'idempotency-key': fc.oneof(
      fc.uuid(),
      garbageString.filter((s) => /^[\x20-\x7e]*$/.test(s)),
    ),
    'content-type': fc.constantFrom(
      'application/json',
      'text/plain',
      'application/json; charset=utf-16',
      'application/x-www-form-urlencoded',
    ),
  },
  { requiredKeys: [] },
);

describe('contract-driven fuzzing', () => {
  for (const endpoint of Object.values(apiEndpoints) as EndpointDefinition[]) {
    it(`${endpoint.method.toUpperCase()} ${endpoint.path}: never 5xx, errors are ApiError, rejections change nothing`, async () => {
      const fixture = endpointFixtures[endpoint.operationId];
      const validBody = fixture?.body === undefined ? undefined : fillIds(fixture.body, ids);
      const paramNames = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      const pathArb = fc
        .tuple(...paramNames.map(idArb))
        .map((values) => paramNames.reduce((p, name, i) => p.replace(`{${name}}`, values[i] as string), endpoint.path));
      await fc.assert(
        fc.asyncProperty(
          pathArb,
          queryArb,
          endpoint.body ? bodyArb(validBody) : fc.constant(undefined),
          headersArb,
          fc.boolean(),
          async (path, query, body, headers, rawGarbage) => {
            const before = await snapshotTeamData(server.db, teamId);
            const useRaw = endpoint.body && rawGarbage;
            const res = await api(endpoint.method, path, {
              query,
              headers: headers as Record<string, string>,
              ...(useRaw ? { rawBody: `${JSON.stringify(body)}`.slice(0, -1) } : body === undefined ? {} : { body }),
            });
            expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
            if (res.status >= 400) {
              expect(isApiError(res.body), JSON.stringify(res.body)).toBe(true);
              // The OpenAPI document lists exactly these statuses for the operation.
              expect(errorStatuses(endpoint), JSON.stringify(res.body)).toContain(res.status);
              expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
            }
          },
        ),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }, 120_000);
  }
});
