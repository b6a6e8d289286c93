import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { ALL_SCOPES, apiEndpoints, type EndpointDefinition, pathParamNames, serverPath } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller, isApiError } from './support/api-caller.js';
import { createWorld, endpointFixtures, fillIds } from './support/endpoint-fixtures.js';
import { teamRows } from './support/team-snapshot.js';

// Two teams, each with many records, hammer each other's ids on every endpoint that takes one
// (generated from the contract, as tenant-isolation.test.ts) and point bodies at each other's records,
// concurrently and mixed with their own legitimate reads and writes. Afterwards the database shows every
// row that existed before unchanged (but the scratch rows each team patched itself), the only new rows are
// the ones each team's own creates acknowledged, every cross-team call was refused, and no response ever
// carried the other team's ids. VSF_STRESS=1 runs more worlds, rounds and concurrency.
const STRESS = Boolean(process.env.VSF_STRESS);
const WORLDS = STRESS ? 8 : 2;
const ROUNDS = STRESS ? 4 : 1;
const CONCURRENCY = STRESS ? 16 : 8;
const BULK = STRESS ? 1000 : 200;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

const withIds = (Object.values(apiEndpoints) as EndpointDefinition[]).filter((e) => pathParamNames(e.path).length > 0);
const withReferences = (Object.values(apiEndpoints) as EndpointDefinition[]).filter((e) => e.references?.length);

interface Team {
  name: 'A' | 'B';
  teamId: string;
  api: ApiCaller;
  worlds: Record<string, string>[];
  /** The team's own records its legitimate traffic patches: excluded from "unchanged". */
  scratchCars: string[];
  scratchCustomers: string[];
  /** Ids of records the team's own creates acknowledged during the run. */
  created: Set<string>;
}

interface Exchange {
  from: Team['name'];
  kind: 'cross-path' | 'cross-body' | 'legit';
  label: string;
  status: number;
  /** The ids the request itself named: a response repeating them leaks nothing. */
  sent: string;
  body: unknown;
}

let server: TestServer;
let teams: [Team, Team];

async function setUpTeam(name: Team['name']): Promise<Team> {
  const { key, team } = await server.createTeamWithKey(ALL_SCOPES);
  const api = apiCaller(server.baseUrl, key);
  const worlds: Record<string, string>[] = [];
  for (let i = 0; i < WORLDS; i++) worlds.push(await createWorld(api));
  // Many more plain records, straight into the database, so lists page over real volume.
  const now = Date.now();
  await server.db('cars').insert(
    Array.from({ length: BULK }, (_, i) => ({
      id: randomUUID(),
      team_id: team.id,
      year: 1990 + (i % 30),
      make: `Bulk${name}`,
      model: `M${i}`,
      created_at: new Date(now - i * 1000),
      updated_at: new Date(now - i * 1000),
    })),
  );
  const scratchCars: string[] = [];
  const scratchCustomers: string[] = [];
  for (let i = 0; i < 4; i++) {
    scratchCars.push(
      (await api('POST', '/cars', { body: { year: 2000, make: 'Scratch', model: `S${i}` } })).body.data.id,
    );
    scratchCustomers.push(
      (await api('POST', '/customers', { body: { firstName: 'Scratch', lastName: `S${i}` } })).body.data.id,
    );
  }
  return { name, teamId: team.id, api, worlds, scratchCars, scratchCustomers, created: new Set() };
}

beforeAll(async () => {
  server = await startTestServer();
  teams = [await setUpTeam('A'), await setUpTeam('B')];
}, 120_000);
afterAll(() => server?.close());

const fillPath = (path: string, ids: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = ids[name];
    if (!id) throw new Error(`no record factory for ${name}`);
    return id;
  });

/** Requests of `attacker` at `victim`'s records: ids in the path, and bodies pointing at them. */
function attacks(attacker: Team, victim: Team) {
  const tasks: { kind: Exchange['kind']; label: string; run: () => Promise<Exchange> }[] = [];
  const call = (kind: Exchange['kind'], method: string, path: string, body?: unknown) => ({
    kind,
    label: `${attacker.name}→${victim.name} ${method} ${path}`,
    run: async (): Promise<Exchange> => {
      const res = await attacker.api(method, path, body === undefined ? {} : { body });
      const sent = `${path} ${JSON.stringify(body ?? null)}`;
      return { from: attacker.name, kind, label: `${method} ${path}`, status: res.status, sent, body: res.body };
    },
  });
  victim.worlds.forEach((foreign, i) => {
    const own = attacker.worlds[i % attacker.worlds.length] as Record<string, string>;
    for (const endpoint of withIds) {
      const fixture = endpointFixtures[endpoint.operationId];
      const body = fixture?.body === undefined ? undefined : fillIds(fixture.body, own);
      const query = fixture?.query ? `?${new URLSearchParams(fixture.query)}` : '';
      tasks.push(
        call('cross-path', endpoint.method.toUpperCase(), `${fillPath(serverPath(endpoint), foreign)}${query}`, body),
      );
    }
    // The attacker's own records, pointed at the victim's: one request per body reference the contract
    // declares (`references`), so a new reference field is attacked as soon as it is declared.
    for (const endpoint of withReferences) {
      const fixture = endpointFixtures[endpoint.operationId];
      for (const field of endpoint.references ?? []) {
        const target = foreign[field];
        if (!target) throw new Error(`no record factory for ${field}`);
        const body = { ...(fillIds(fixture?.body ?? {}, own) as object), [field]: target };
        tasks.push(call('cross-body', endpoint.method.toUpperCase(), fillPath(serverPath(endpoint), own), body));
      }
    }
    // Lists filtered by the victim's ids answer an empty page, never the victim's rows.
    const foreignIds = Object.values(foreign).join(',');
    for (const list of ['/cars', '/customers', '/contacts', '/locations', '/parking-zones', '/appointments']) {
      tasks.push(call('cross-body', 'GET', `${list}?ids=${foreignIds}`));
    }
  });
  return tasks;
}

/** The team's own everyday traffic: lists, gets of its records, patches of scratch rows, creates. */
function legitimate(team: Team, round: number) {
  const tasks: { kind: Exchange['kind']; label: string; run: () => Promise<Exchange> }[] = [];
  const call = (method: string, path: string, body?: unknown, onCreated?: (id: string) => void) => ({
    kind: 'legit' as const,
    label: `${team.name} ${method} ${path}`,
    run: async (): Promise<Exchange> => {
      const res = await team.api(method, path, body === undefined ? {} : { body });
      const id = (res.body as { data?: { id?: string } } | undefined)?.data?.id;
      if (res.status === 201 && id) onCreated?.(id);
      return {
        from: team.name,
        kind: 'legit',
        label: `${method} ${path}`,
        status: res.status,
        sent: '',
        body: res.body,
      };
    },
  });
  for (const list of ['/cars', '/customers', '/contacts', '/locations', '/parking-spots', '/appointments']) {
    tasks.push(call('GET', `${list}?limit=200`), call('GET', `${list}?limit=50&page=2`));
  }
  for (const world of team.worlds) {
    for (const endpoint of withIds.filter((e) => e.method === 'get')) {
      tasks.push(call('GET', fillPath(serverPath(endpoint), world)));
    }
  }
  team.scratchCars.forEach((id, i) => {
    tasks.push(call('PATCH', `/cars/${id}`, { color: `r${round}-${i}`, mileage: round * 10 + i }));
  });
  team.scratchCustomers.forEach((id, i) => {
    tasks.push(call('PATCH', `/customers/${id}`, { city: `r${round}-${i}` }));
  });
  const remember = (id: string) => team.created.add(id);
  for (let i = 0; i < 6; i++) {
    tasks.push(
      call('POST', '/cars', { year: 2010, make: `Legit${team.name}`, model: `R${round}-${i}` }, remember),
      call('POST', '/customers', { firstName: `Legit${team.name}`, lastName: `R${round}-${i}` }, remember),
    );
  }
  tasks.push(call('POST', '/locations', { name: `Legit ${team.name} ${round}` }, remember));
  return tasks;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

async function runConcurrently<T>(tasks: (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) {
        const task = tasks[next++] as () => Promise<T>;
        results.push(await task());
      }
    }),
  );
  return results;
}

/** Every id a team owns, from every column of every one of its rows. */
function idsIn(snapshot: Record<string, unknown[]>): Set<string> {
  return new Set(
    JSON.stringify(snapshot)
      .match(UUID)
      ?.map((id) => id.toLowerCase()) ?? [],
  );
}

describe('tenant isolation under concurrent load', () => {
  it("two teams hammering each other's ids change nothing of the other and never see its ids", async () => {
    const [a, b] = teams;
    const before = { A: await teamRows(server.db, a.teamId), B: await teamRows(server.db, b.teamId) };

    const tasks = [];
    for (let round = 0; round < ROUNDS; round++) {
      tasks.push(...attacks(a, b), ...attacks(b, a), ...legitimate(a, round), ...legitimate(b, round));
    }
    const exchanges = await runConcurrently(
      shuffle(tasks).map((t) => t.run),
      CONCURRENCY,
    );

    const after = { A: await teamRows(server.db, a.teamId), B: await teamRows(server.db, b.teamId) };
    const problems: string[] = [];

    // Every cross-team call was refused as for a record that does not exist (or, for a body pointing at
    // one, a validation error naming it as not found); lists by foreign ids are empty.
    for (const x of exchanges.filter((e) => e.kind !== 'legit')) {
      const body = x.body as { code?: string; data?: unknown[]; total?: number; details?: unknown };
      if (x.kind === 'cross-path' && !(x.status === 404 && isApiError(body) && body.code === 'not_found')) {
        problems.push(`${x.from}: ${x.label} → ${x.status} ${JSON.stringify(body)}`);
      }
      if (x.kind === 'cross-body' && x.label.startsWith('GET')) {
        if (x.status !== 200 || body.total !== 0)
          problems.push(`${x.from}: ${x.label} → ${x.status} total ${body.total}`);
      } else if (x.kind === 'cross-body') {
        // A 400 names the field, the same answer as for an id that exists nowhere; the database check
        // below proves nothing was stored.
        const refused =
          (x.status === 400 && body.code === 'validation_error') || (x.status === 404 && isApiError(body));
        if (!refused) problems.push(`${x.from}: ${x.label} → ${x.status} ${JSON.stringify(body)}`);
      }
    }
    for (const x of exchanges.filter((e) => e.kind === 'legit')) {
      if (x.status >= 300) problems.push(`${x.from}: legitimate ${x.label} → ${x.status} ${JSON.stringify(x.body)}`);
    }

    // No response to one team ever carried an id of the other's (other than ids the request itself sent).
    const owned = { A: idsIn(after.A), B: idsIn(after.B) };
    let leaks = 0;
    for (const x of exchanges) {
      const foreign = owned[x.from === 'A' ? 'B' : 'A'];
      for (const id of JSON.stringify(x.body ?? null).match(UUID) ?? []) {
        if (foreign.has(id.toLowerCase()) && !x.sent.toLowerCase().includes(id.toLowerCase())) {
          leaks++;
          problems.push(`${x.from}: ${x.label} answered the other team's id ${id}`);
        }
      }
    }

    // In the database: rows that existed are unchanged (but scratch rows the team patched itself), and
    // the only new rows are the team's own acknowledged creates.
    let rowsCompared = 0;
    for (const team of teams) {
      const scratch = new Set([...team.scratchCars, ...team.scratchCustomers]);
      for (const [table, rows] of Object.entries(after[team.name])) {
        // The team's feed position moves with each of its own writes; its events are checked below.
        if (table === 'team_event_heads') continue;
        if (table === 'team_events') {
          // Events record changes: each new one must be of a record this team created or patched itself.
          const known = new Set((before[team.name][table] ?? []).map((r) => (r as { id: string }).id));
          for (const event of rows as { id: string; record_id: string }[]) {
            rowsCompared++;
            if (!known.has(event.id) && !team.created.has(event.record_id) && !scratch.has(event.record_id))
              problems.push(`${team.name}: an event of record ${event.record_id}, which it did not change`);
          }
          continue;
        }
        const old = new Map((before[team.name][table] ?? []).map((r) => [(r as { id: string }).id, r]));
        for (const row of rows as { id: string }[]) {
          rowsCompared++;
          const was = old.get(row.id);
          if (was === undefined) {
            if (!team.created.has(row.id)) problems.push(`${team.name}: unexpected new ${table} row ${row.id}`);
          } else if (!scratch.has(row.id) && !isDeepStrictEqual(was, row)) {
            problems.push(`${team.name}: ${table} row ${row.id} changed`);
          }
          old.delete(row.id);
        }
        for (const id of old.keys()) problems.push(`${team.name}: ${table} row ${id} disappeared`);
      }
    }

    const cross = exchanges.filter((e) => e.kind !== 'legit');
    console.log(
      `tenant-isolation-load (${server.engine}): ${exchanges.length} requests at concurrency ${CONCURRENCY}, ` +
        `${cross.length} cross-team (${cross.filter((e) => e.status === 404).length} × 404, ` +
        `${cross.filter((e) => e.status === 400).length} × 400, ${cross.filter((e) => e.status === 200).length} × empty list), ` +
        `${exchanges.length - cross.length} legitimate; ${rowsCompared} rows compared; leaks=${leaks}, problems=${problems.length}`,
    );
    expect(problems.slice(0, 30)).toEqual([]);
    expect(cross.length).toBeGreaterThan(withIds.length * WORLDS * 2);
  }, 180_000);
});
