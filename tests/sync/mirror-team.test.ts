import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import {
  openSink,
  type ResourceSpec,
  type Sink,
  SyncTeamMismatchError,
  sdkPageSource,
  selectResources,
  sync,
} from '@vsf/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVsf } from '../cli/support/run-vsf.js';
import { postgresMirrorSchemas } from '../support/postgres-mirror-schemas.js';

// A mirror holds one team's records. A run with another team's key into it, by the events feed (read from
// the first team's cursor) or by lists, is refused before it writes anything: the mirror stays the first
// team's, rows and cursors, and that team's next run goes on from there. The mirrors are real sinks.
const home = mkdtempSync(join(tmpdir(), 'vsf-mirror-team-'));
const names = ['cars', 'customers', 'locations'];
const resources = selectResources(names);
const locations = selectResources(['locations'])[0] as ResourceSpec;
const PG = process.env.TEST_DATABASE_URL;
const postgresSinkUrl = postgresMirrorSchemas('vsf_team_test');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

async function newTeam() {
  const { key, team } = await server.createTeamWithKey(ALL_SCOPES);
  const client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  return { key, id: team.id, client, source: sdkPageSource(client) };
}

/** Records of each of the three resources, `locations` of them locations: as many events in its feed. */
async function seed(client: VsfClient, counts: { cars: number; customers: number; locations: number }) {
  for (let i = 0; i < counts.cars; i++) await client.cars.create({ year: 1960 + i, make: 'Team', model: `M${i}` });
  for (let i = 0; i < counts.customers; i++) await client.customers.create({ firstName: `C${i}`, lastName: 'Team' });
  for (let i = 0; i < counts.locations; i++) await client.locations.create({ name: `Lot ${i}` });
}

/** Every row and where each resource stands: what a refused run must leave as it was. */
async function snapshot(sink: Sink) {
  return Promise.all(
    resources.map(async (resource) => ({
      resource: resource.name,
      rows: (await sink.readAll(resource)).sort((a, b) => String(a.id).localeCompare(String(b.id))),
      state: await sink.getState(resource),
    })),
  );
}

async function sinkUrl(kind: string): Promise<string> {
  if (kind === 'sqlite') return `sqlite:${join(home, `${Math.random()}.db`)}`;
  if (kind === 'jsonl') return `jsonl:${join(home, `jsonl-${Math.random()}`)}`;
  return postgresSinkUrl();
}

const runs: [string, { other: number; useFeed: boolean; resynced: boolean }][] = [
  // Its feed goes on past the first team's cursor: the events after it are the second team's records.
  ['through the events feed, from the first team’s cursor', { other: 6, useFeed: true, resynced: false }],
  // Its feed ends before that cursor (410): a full run with prune, whose empty lists would have pruned.
  ['through the events feed, resynced in full (410)', { other: 1, useFeed: true, resynced: true }],
  ['by lists (useFeed: false)', { other: 2, useFeed: false, resynced: false }],
];

describe.each(['sqlite', 'jsonl', ...(PG ? ['postgres'] : [])])('a %s mirror of one team', (kind) => {
  it.each(runs)(
    'refuses another team’s key %s, and stays the first team’s',
    async (_path, { other, useFeed, resynced }) => {
      const first = await newTeam();
      await seed(first.client, { cars: 1, customers: 1, locations: 2 });
      const sink = openSink(await sinkUrl(kind));
      try {
        const synced = await sync({ source: first.source, sink, resources: names });
        expect(synced).toMatchObject({ ok: true, feed: { announced: true } });
        const before = await snapshot(sink);
        expect(before.flatMap((s) => s.rows.map((r) => r.teamId))).toEqual([first.id, first.id, first.id, first.id]);

        const second = await newTeam();
        await seed(second.client, { cars: 0, customers: other > 1 ? 1 : 0, locations: other });
        const result = await sync({ source: second.source, sink, resources: names, useFeed });
        const refusal = new SyncTeamMismatchError(first.id, second.id).message;
        expect(result).toMatchObject({ ok: false, stopReason: 'team-mismatch', error: refusal });
        expect(result.resources.filter((r) => r.status === 'completed')).toEqual([]);
        expect(result.feed?.announced).toBe(useFeed ? true : undefined);
        expect(result.feed?.resynced).toEqual(
          resynced ? expect.stringMatching(/fewer changes than this mirror has already applied/) : undefined,
        );
        expect(await snapshot(sink)).toEqual(before);

        // The first team's own runs go on as before.
        await first.client.locations.create({ name: 'Later' });
        expect((await sync({ source: first.source, sink, resources: names })).ok).toBe(true);
        expect((await sink.readAll(locations)).map((r) => r.teamId)).toEqual([first.id, first.id, first.id]);
      } finally {
        await sink.close();
      }
    },
  );
});

describe('vsf sync with another team’s key', () => {
  // The second team's feed goes on past the first team's cursor, or ends before it (410, then a full run).
  it.each([
    ['through its feed', 1, 3, ''],
    ['after a 410, resyncing in full', 4, 0, 'vsf: '],
  ])(
    'exits 4 (a key problem) with the refusal on stderr %s, and writes nothing',
    async (_how, firstLocations, secondLocations, resyncLine) => {
      const first = await newTeam();
      await seed(first.client, { cars: 1, customers: 1, locations: firstLocations });
      const to = `sqlite:${join(home, `cli-${firstLocations}.db`)}`;
      const vsf = (key: string) =>
        runVsf(['sync', '--to', to, '--resources', names.join(','), '--json', '--quiet'], {
          env: { ...process.env, XDG_CONFIG_HOME: home, VSF_BASE_URL: server.baseUrl, VSF_API_KEY: key },
          cwd: home,
        });
      expect((await vsf(first.key)).code).toBe(0);
      const reader = openSink(to);
      try {
        const before = await snapshot(reader);
        const second = await newTeam();
        await seed(second.client, { cars: 1, customers: 1, locations: secondLocations });
        const refused = await vsf(second.key);
        const message = new SyncTeamMismatchError(first.id, second.id).message;
        expect(refused.code).toBe(4);
        const [refusal, ...rest] = refused.stderr.split('\n');
        expect(refusal).toBe(`vsf: ${message}`);
        // A resync that stopped does not claim to have synced in full.
        expect(rest.join('\n')).toBe(resyncLine ? `${rest[0]}\n` : '');
        if (resyncLine) expect(rest[0]).toMatch(/^vsf: .*; a full sync was tried instead and stopped$/);
        expect(JSON.parse(refused.stdout)).toMatchObject({
          ok: false,
          stopReason: 'team-mismatch',
          error: { code: 'auth', exitCode: 4, message },
        });
        expect(await snapshot(reader)).toEqual(before);
      } finally {
        await reader.close();
      }
    },
  );
});
