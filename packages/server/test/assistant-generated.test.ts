import {
  ALL_SCOPES,
  type AssistantTool,
  apiEndpoints,
  deriveAssistantTools,
  type EndpointDefinition,
  errorStatuses,
} from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { apiCaller } from './support/api-caller.js';
import { grantToken, type ToolAnswer, toolCaller } from './support/assistant-grants.js';
import { boundaryCases } from './support/boundary-cases.js';
import { createWorld, endpointFixtures, fillIds } from './support/endpoint-fixtures.js';
import { snapshotTeamData } from './support/team-snapshot.js';

// The generated suites of the API, run again through the assistant connector: every tool is the API's
// operation, so a grant gets exactly what a key with its scopes would (scopes, tenancy, bounds).
const tools = deriveAssistantTools();
const endpointOf = (tool: AssistantTool) =>
  (apiEndpoints as Record<string, EndpointDefinition>)[tool.operationId] as EndpointDefinition;
const STRESS = Boolean(process.env.VSF_STRESS);
/** Boundary cases per tool: an even spread of them, every one under VSF_STRESS. */
const CASES_PER_TOOL = STRESS ? Number.POSITIVE_INFINITY : 6;

let server: TestServer;
let ownerTeamId: string;
let ownerIds: Record<string, string>;
let intruderIds: Record<string, string>;
let intruder: ReturnType<typeof toolCaller>;
let owner: ReturnType<typeof toolCaller>;
const withoutScope = new Map<string, ReturnType<typeof toolCaller>>();

beforeAll(async () => {
  server = await startTestServer();
  const ownerTeam = await server.createTeamWithKey(ALL_SCOPES);
  ownerTeamId = ownerTeam.team.id;
  ownerIds = await createWorld(apiCaller(server.baseUrl, ownerTeam.key));
  owner = toolCaller(server.origin, await grantToken(server.db, ownerTeamId, ALL_SCOPES, server.origin));
  const other = await server.createTeamWithKey(ALL_SCOPES);
  intruderIds = await createWorld(apiCaller(server.baseUrl, other.key));
  intruder = toolCaller(server.origin, await grantToken(server.db, other.team.id, ALL_SCOPES, server.origin));
  const omitted = new Set(
    tools.flatMap((t) => [...t.scopes.all, ...(t.scopes.any?.length ? [t.scopes.any.join('|')] : [])]),
  );
  for (const omit of omitted) {
    const drop = new Set(omit.split('|'));
    const token = await grantToken(
      server.db,
      ownerTeamId,
      ALL_SCOPES.filter((s) => !drop.has(s)),
      server.origin,
    );
    withoutScope.set(omit, toolCaller(server.origin, token));
  }
}, 120_000);
afterAll(() => server?.close());

function argsFor(tool: AssistantTool, ids: Record<string, string>, overrides: Record<string, unknown> = {}) {
  const fixture = endpointFixtures[tool.operationId];
  const pathArgs = Object.fromEntries(
    tool.pathParams.map((p) => [p, ids[p] ?? '00000000-0000-4000-8000-000000000000']),
  );
  const body = fixture?.body === undefined ? {} : (fillIds(fixture.body, ids) as Record<string, unknown>);
  return { ...pathArgs, ...(fixture?.query ?? {}), ...body, ...overrides };
}

describe('scope matrix through the connector', () => {
  for (const tool of tools) {
    for (const scope of tool.scopes.all) {
      it(`${tool.name} without ${scope}: not listed, and a call is 403 Missing scope: ${scope}`, async () => {
        const caller = withoutScope.get(scope);
        if (!caller) throw new Error(`no grant without ${scope}`);
        expect(await caller.list()).not.toContain(tool.name);
        const answer = await caller.call(tool.name, argsFor(tool, ownerIds));
        expect(answer.protocolError).toBeUndefined();
        expect(answer.error, JSON.stringify(answer)).toMatchObject({ status: 403, error: `Missing scope: ${scope}` });
      });
    }
    if (tool.scopes.any?.length) {
      const any = tool.scopes.any.join('|');
      it(`${tool.name} without any of ${any}: not listed, and a call is 403`, async () => {
        const caller = withoutScope.get(any) as ReturnType<typeof toolCaller>;
        expect(await caller.list()).not.toContain(tool.name);
        expect((await caller.call(tool.name, argsFor(tool, ownerIds))).error).toMatchObject({ status: 403 });
      });
    }
  }

  it('a grant with every scope lists every tool', async () => {
    expect((await owner.list()).sort()).toEqual(tools.map((t) => t.name).sort());
  });
});

describe('tenant isolation through the connector', () => {
  for (const tool of tools.filter((t) => t.pathParams.length > 0)) {
    it(`${tool.name} with another team's ids: 404 in the tool result, nothing changed`, async () => {
      const before = await snapshotTeamData(server.db, ownerTeamId);
      const answer = await intruder.call(
        tool.name,
        argsFor(tool, intruderIds, Object.fromEntries(tool.pathParams.map((p) => [p, ownerIds[p]]))),
      );
      expect(answer.protocolError).toBeUndefined();
      expect(answer.error, JSON.stringify(answer)).toMatchObject({ status: 404, code: 'not_found' });
      expect(await snapshotTeamData(server.db, ownerTeamId)).toEqual(before);
    });
  }
});

function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)] as T);
}

/** The path parameters a case sets itself (an odd id): the values in its path where the template has a name. */
function pathArgsOf(template: string, path: string): Record<string, string> {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '([^/]*)')}$`);
  const values = pattern.exec(path.split('?')[0] as string)?.slice(1) ?? [];
  return Object.fromEntries(
    names.flatMap((name, i) => {
      const value = values[i];
      return value === undefined || value === `{${name}}` ? [] : [[name, safeDecode(value)]];
    }),
  );
}

function expectAnswered(tool: AssistantTool, label: string, answer: ToolAnswer) {
  const seen = `${label}: ${JSON.stringify(answer).slice(0, 300)}`;
  expect(answer.protocolError, seen).toBeUndefined();
  if (answer.isError) {
    expect(answer.error?.status, seen).toBeLessThan(500);
    expect(typeof answer.error?.error, seen).toBe('string');
    expect(errorStatuses(endpointOf(tool)), seen).toContain(answer.error?.status);
  }
}

describe('boundary values through tool inputs', () => {
  for (const tool of tools) {
    it(`${tool.name}: past a bound is a refusal in the result, at a bound never an internal error`, async () => {
      const endpoint = endpointOf(tool);
      const fixture = endpointFixtures[tool.operationId];
      const validBody = fixture?.body === undefined ? undefined : fillIds(fixture.body, ownerIds);
      const pathArgs = Object.fromEntries(
        tool.pathParams.map((p) => [p, ownerIds[p] ?? '00000000-0000-4000-8000-000000000000']),
      );
      // Only what a tool's arguments can carry: a JSON object body and query values, no raw bytes or headers.
      const cases = boundaryCases(endpoint, endpoint.path, validBody).filter(
        (c) =>
          c.rawBody === undefined &&
          c.headers === undefined &&
          (c.body === undefined || (typeof c.body === 'object' && c.body !== null && !Array.isArray(c.body))),
      );
      for (const c of spread(cases, CASES_PER_TOOL)) {
        const args = {
          ...(c.query ?? {}),
          ...((c.body as Record<string, unknown> | undefined) ?? {}),
          ...pathArgs,
          ...pathArgsOf(endpoint.path, c.path),
        };
        const answer = await owner.call(tool.name, args);
        expectAnswered(tool, c.label, answer);
        if (c.expect === 'reject') expect(answer.isError, `${c.label} must be refused`).toBe(true);
      }
    }, 120_000);
  }
});

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
