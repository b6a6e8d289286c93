import { apiEndpoints, type EndpointDefinition, errorStatuses } from '@vsf/contract';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import { type ApiCaller, isApiError } from './support/api-caller.js';
import { type BoundaryCase, boundaryCases } from './support/boundary-cases.js';
import { createWorld, endpointFixtures, fillIds } from './support/endpoint-fixtures.js';
import { teamServer } from './support/team-server.js';
import { snapshotTeamData } from './support/team-snapshot.js';

// Property-based fuzzing driven by the contract: random valid and invalid path ids, query strings,
// bodies and headers for every endpoint, then every field's boundary values derived from its schema
// (support/boundary-cases.ts). The server never answers 5xx, every error has the ApiError shape, and a
// rejected request changes no row. `VSF_STRESS=1` runs many more random cases.
const RUNS = process.env.VSF_STRESS ? 50 : 12;
const SEED = Number(process.env.VSF_FUZZ_SEED ?? Date.now() % 2 ** 31);

let server: TestServer;
let key: string;
let api: ApiCaller;
let teamId: string;
let ids: Record<string, string>;

teamServer(async (team) => {
  ({ server, teamId, key, api } = team);
  ids = await createWorld(api);
});
const boundaryCounts = { endpoints: 0, reject: 0, edge: 0, kinds: new Map<string, number>() };
afterAll(() => {
  if (boundaryCounts.endpoints > 0) {
    const kinds = [...boundaryCounts.kinds].map(([k, n]) => `${k}=${n}`).join(', ');
    console.log(
      `fuzz boundaries (${server?.engine}): ${boundaryCounts.reject + boundaryCounts.edge} cases over ${boundaryCounts.endpoints} endpoints, ${boundaryCounts.reject} past a bound (all refused, no row changed), ${boundaryCounts.edge} at a bound (no 5xx); ${kinds}`,
    );
  }
});

const garbageString = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', 'null', '-1', '0', '1e309', 'NaN', '../../etc/passwd', "' OR 1=1 --", '%00', '\u0000', '😀'),
  // Boundaries of the kinds the database refuses (the per-field boundary cases below cover each field).
  fc.constantFrom('2147483648', '-2147483649', '9007199254740993', '1e308', '-0', '0000-01-01T00:00:00Z'),
  fc.constantFrom('+275760-09-13T00:00:00Z', '__proto__', 'constructor', 'a\u0000b', '😀'.repeat(201)),
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
      // The photo and asset routes read these as uploads (binary-upload): a JSON body under them is garbage.
      'multipart/form-data; boundary=x',
      'image/png',
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

/** Sends one boundary case as a raw request (bodies as bytes, so encodings and NULs arrive as sent). */
async function send(endpoint: EndpointDefinition, c: BoundaryCase): Promise<{ status: number; body: unknown }> {
  const url = new URL(`${server.baseUrl}${c.path}`);
  for (const [k, v] of Object.entries(c.query ?? {})) url.searchParams.set(k, v);
  const raw = c.rawBody ?? (c.body === undefined || !endpoint.body ? undefined : JSON.stringify(c.body));
  const res = await fetch(url, {
    method: endpoint.method.toUpperCase(),
    headers: {
      authorization: `Bearer ${key}`,
      ...(raw === undefined ? {} : { 'content-type': 'application/json' }),
      ...c.headers,
    },
    ...(raw === undefined ? {} : { body: raw }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

function expectApiErrorOrSuccess(
  endpoint: EndpointDefinition,
  c: BoundaryCase,
  res: { status: number; body: unknown },
) {
  const seen = `${c.label} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
  expect(res.status, seen).toBeLessThan(500);
  if (res.status >= 400) {
    expect(isApiError(res.body), seen).toBe(true);
    expect(errorStatuses(endpoint), seen).toContain(res.status);
  }
}

describe('contract-derived boundaries: every field at and past its bounds', () => {
  for (const endpoint of Object.values(apiEndpoints) as EndpointDefinition[]) {
    it(`${endpoint.method.toUpperCase()} ${endpoint.path}: past a bound is refused and changes nothing, at a bound is never 5xx`, async () => {
      const fixture = endpointFixtures[endpoint.operationId];
      const validBody = fixture?.body === undefined ? undefined : fillIds(fixture.body, ids);
      const path = endpoint.path.replace(
        /\{(\w+)\}/g,
        (_, name: string) => ids[name] ?? '00000000-0000-4000-8000-000000000000',
      );
      const cases = boundaryCases(endpoint, path, validBody);
      const rejects = cases.filter((c) => c.expect === 'reject');
      const edges = cases.filter((c) => c.expect === 'edge');
      boundaryCounts.endpoints += 1;
      boundaryCounts.reject += rejects.length;
      boundaryCounts.edge += edges.length;
      for (const c of cases) boundaryCounts.kinds.set(c.kind, (boundaryCounts.kinds.get(c.kind) ?? 0) + 1);

      const before = await snapshotTeamData(server.db, teamId);
      // Refusals change nothing, so they can run a few at a time and be checked by one snapshot after.
      for (let i = 0; i < rejects.length; i += 4) {
        await Promise.all(
          rejects.slice(i, i + 4).map(async (c) => {
            const res = await send(endpoint, c);
            expectApiErrorOrSuccess(endpoint, c, res);
            expect(
              res.status,
              `${c.label} must be refused: ${JSON.stringify(res.body)?.slice(0, 300)}`,
            ).toBeGreaterThanOrEqual(400);
          }),
        );
      }
      expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
      for (const c of edges) expectApiErrorOrSuccess(endpoint, c, await send(endpoint, c));
    }, 120_000);
  }
});

/** `%` escapes that are not UTF-8: Node's parsers would read U+FFFD, or throw, instead of what was meant. */
const BROKEN_ESCAPES = ['%', '%C3', '%ZZ', '%E0%A4%A', '%C3%28', '%FF'];

describe("malformed percent-escapes in every endpoint's query and path", () => {
  for (const endpoint of Object.values(apiEndpoints) as EndpointDefinition[]) {
    it(`${endpoint.method.toUpperCase()} ${endpoint.path}: 400 validation_error, nothing changed`, async () => {
      const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      const filled = (last?: string) =>
        endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === names.at(-1) && last !== undefined ? last : (ids[name] ?? '00000000-0000-4000-8000-000000000000'),
        );
      const call = async (path: string) => {
        const res = await fetch(new URL(`${endpoint.basePath ?? '/api/v1'}${path}`, server.origin), {
          method: endpoint.method.toUpperCase(),
          headers: { authorization: `Bearer ${key}` },
        });
        return { status: res.status, body: (await res.json()) as { code?: string; details?: { path: string }[] } };
      };
      const before = await snapshotTeamData(server.db, teamId);
      for (const broken of BROKEN_ESCAPES) {
        const inQuery = await call(`${filled()}?note=a${broken}z`);
        expect(inQuery.status, `query ${broken}: ${JSON.stringify(inQuery.body)}`).toBe(400);
        expect(isApiError(inQuery.body)).toBe(true);
        expect(inQuery.body.details?.map((d) => d.path)).toEqual(['note']);
        if (names.length === 0) continue;
        const inPath = await call(filled(`a${broken}z`));
        expect(inPath.status, `path ${broken}: ${JSON.stringify(inPath.body)}`).toBe(400);
        expect(isApiError(inPath.body)).toBe(true);
      }
      expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
    });
  }
});
