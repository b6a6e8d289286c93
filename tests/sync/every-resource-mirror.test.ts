// Every resource the sync mirrors, generated from the contract (a new resource joins with no line here):
// one record of each kind (and one more of each kind that can be deleted), a full sync, then an update of
// every record that can change and the delete of those extra ones, then an incremental run; after each, `verify` finds the
// mirror equal to the server, resource by resource, on SQLite and JSONL (and PostgreSQL with
// TEST_DATABASE_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES, standardResources } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { openSink, sdkPageSource, sync, syncableResources, verify } from '@vsf/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCaller, apiCaller } from '../../packages/server/test/support/api-caller.js';
import { createWorld, endpointFixtures, fillIds } from '../../packages/server/test/support/endpoint-fixtures.js';
import { postgresMirrorSchemas } from '../support/postgres-mirror-schemas.js';

const PG = process.env.TEST_DATABASE_URL;
const dir = mkdtempSync(join(tmpdir(), 'vsf-every-'));
const postgresSinkUrl = postgresMirrorSchemas('vsf_every');
let server: TestServer;
let api: ApiCaller;
let client: VsfClient;
let world: Record<string, string>;

/** The standard resource a mirror's list reads (by its list operation), if the contract declares one. */
const resourceOfList = (operationId: string) =>
  [...standardResources().values()].find((r) => r.endpoints.list?.operationId === operationId);
const mirrored = syncableResources().map((spec) => ({ spec, resource: resourceOfList(spec.route.operationId) }));
const pathOf = (path: string, ids: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] as string);

beforeAll(async () => {
  server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  api = apiCaller(server.baseUrl, key);
  client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  world = await createWorld(api);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sinkUrl(kind: string): Promise<string> {
  if (kind === 'sqlite') return `sqlite:${join(dir, `every-${Math.random()}.db`)}`;
  if (kind === 'jsonl') return `jsonl:${join(dir, `every-${Math.random()}`)}`;
  return postgresSinkUrl();
}

/** One more record of every kind that can be deleted, to delete once the mirror holds it. */
async function makeDoomed(): Promise<Map<string, string>> {
  const doomed = new Map<string, string>();
  for (const { spec, resource } of mirrored) {
    const create = resource?.endpoints.create;
    const made = create && endpointFixtures[create.operationId];
    if (!create || !resource.endpoints.delete || !made) continue;
    const res = await api('POST', pathOf(create.path, world), { body: fillIds(made.body, world) });
    expect(res.status, `${create.operationId}: ${JSON.stringify(res.body)}`).toBe(201);
    doomed.set(spec.name, (res.body as { data: { id: string } }).data.id);
  }
  return doomed;
}

/** Changes every mirrored record that can change (with its update fixture) and deletes the doomed ones. */
async function changeEverything(doomed: Map<string, string>): Promise<string[]> {
  const updated: string[] = [];
  for (const { spec, resource } of mirrored) {
    const update = resource?.endpoints.update;
    const fixture = update && endpointFixtures[update.operationId];
    if (update && fixture?.body !== undefined && world[resource.itemParam]) {
      const res = await api('PATCH', pathOf(update.path, world), { body: fillIds(fixture.body, world) });
      expect(res.status, `${update.operationId}: ${JSON.stringify(res.body)}`).toBe(200);
      updated.push(spec.name);
    }
    const remove = resource?.endpoints.delete;
    const id = doomed.get(spec.name);
    if (remove && id) {
      const gone = await api('DELETE', pathOf(remove.path, { ...world, [resource.itemParam]: id }));
      expect(gone.status, `${remove.operationId}: ${JSON.stringify(gone.body)}`).toBe(200);
    }
  }
  return updated;
}

const unclean = (result: Awaited<ReturnType<typeof verify>>) =>
  result.resources
    .filter((r) => r.status !== 'ok' || r.pending > 0 || r.extra.count > 0)
    .map((r) => `${r.resource}: ${r.status}, ${r.pending} pending, ${r.extra.count} extra`);

describe.each(['sqlite', 'jsonl', ...(PG ? ['postgres'] : [])])('every mirrored resource, into %s', (kind) => {
  it('a full sync, changes and deletes of every kind, an incremental sync: verify finds no drift', async () => {
    const names = syncableResources().map((r) => r.name);
    expect(names.length).toBeGreaterThan(15);
    const doomed = await makeDoomed();
    expect(doomed.size).toBeGreaterThan(5);
    const sink = openSink(await sinkUrl(kind));
    try {
      const source = sdkPageSource(client);
      const first = await sync({ source, sink, resources: names });
      expect(first.resources.filter((r) => r.status !== 'completed').map((r) => r.resource)).toEqual([]);
      const holding = await verify({ source, sink, resources: names });
      expect(unclean(holding)).toEqual([]);
      // Every kind has a record to mirror: the world made one of each.
      expect(holding.resources.filter((r) => r.serverCount === 0).map((r) => r.resource)).toEqual([]);

      const updated = await changeEverything(doomed);
      expect(updated.length).toBeGreaterThan(10);
      // Before the next run the mirror is behind on every kind that changed (so the check below can fail).
      const behind = await verify({ source, sink, resources: names });
      expect(unclean(behind).length).toBeGreaterThanOrEqual(updated.length);

      const second = await sync({ source, sink, resources: names });
      expect(second.resources.filter((r) => r.status !== 'completed').map((r) => r.resource)).toEqual([]);
      expect(unclean(await verify({ source, sink, resources: names }))).toEqual([]);
      for (const [name, id] of doomed) {
        const spec = syncableResources().find((r) => r.name === name);
        const rows = spec ? await sink.readAll(spec) : [];
        expect(
          rows.some((row) => row.id === id && !row.deletedAt),
          `${name} ${id} still mirrored`,
        ).toBe(false);
      }
    } finally {
      await sink.close();
    }
  }, 180_000);
});
