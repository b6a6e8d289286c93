import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RESOURCE_TABLES } from '../src/repositories/resource-tables.js';
import type { TestServer } from '../src/testing/start-test-server.js';
import type { ApiCaller } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';

// An unfiltered list's `total` comes from per-team row counts kept by statement triggers (migration 023),
// not from count(*). They must equal count(*) exactly, whatever writes them and however concurrently.
// Every table behind a resource the contract declares is counted (a new one by createResourceTable).
const COUNTED_TABLES = [...new Set(Object.values(RESOURCE_TABLES).map((t) => t.table))].sort();
let server: TestServer;
let api: ApiCaller;
let teamId: string;

/** Every counted table whose kept count differs from its real one, for `team`. */
async function drift(team: string): Promise<string[]> {
  const wrong: string[] = [];
  for (const table of COUNTED_TABLES) {
    const real = await server.db(table).where({ team_id: team }).count({ n: '*' }).first();
    const kept = await server
      .db('team_row_count_deltas')
      .where({ team_id: team, table_name: table })
      .sum({ n: 'delta' })
      .first();
    if (Number(real?.n ?? 0) !== Number(kept?.n ?? 0)) wrong.push(`${table}: ${kept?.n ?? 0} kept, ${real?.n} real`);
  }
  return wrong;
}

teamServer((team) => {
  ({ server, api, teamId } = team);
});

describe('team row counts', () => {
  it('cover every team table the API lists, with both triggers', async () => {
    const tables = COUNTED_TABLES;
    const { rows } = (await server.db.raw(
      "select tgname from pg_trigger where tgname like '%_count_inserts' or tgname like '%_count_deletes'",
    )) as { rows: { tgname: string }[] };
    const names = new Set(rows.map((r) => r.tgname));
    expect(tables.filter((t) => !names.has(`${t}_count_inserts`) || !names.has(`${t}_count_deletes`))).toEqual([]);
  });

  it('equal count(*) after concurrent creates and hard deletes across resources, and are what lists answer', async () => {
    const make = (i: number) =>
      i % 3 === 0
        ? api('POST', '/locations', { body: { name: `L-${i}` } })
        : i % 3 === 1
          ? api('POST', '/contacts', { body: { customerId, firstName: 'A', lastName: `B${i}`, role: 'other' } })
          : api('POST', '/marketing/templates', { body: { name: `T-${i}`, channel: 'sms', body: 'Hi' } });
    const customerId = (await api('POST', '/customers', { body: { firstName: 'Ada', lastName: 'L' } })).body.data.id;
    const created = await Promise.all(Array.from({ length: 36 }, (_, i) => make(i)));
    expect(created.every((r) => r.status === 201)).toBe(true);
    const paths = ['/locations', '/contacts', '/marketing/templates'];
    const deletes = created
      .filter((_, i) => i % 2 === 0)
      .map((r, i) => api('DELETE', `${paths[(i * 2) % 3]}/${r.body.data.id}`));
    const mixed = await Promise.all([...deletes, ...Array.from({ length: 12 }, (_, i) => make(100 + i))]);
    expect(mixed.every((r) => r.status === 200 || r.status === 201)).toBe(true);

    expect(await drift(teamId)).toEqual([]);
    for (const [path, table] of [
      ['/locations', 'locations'],
      ['/contacts', 'contacts'],
      ['/marketing/templates', 'templates'],
    ] as const) {
      const real = await server.db(table).where({ team_id: teamId }).count({ n: '*' }).first();
      expect((await api('GET', path, { query: { limit: '1' } })).body.total).toBe(Number(real?.n));
    }
  });

  it('count writes made outside the API too, and a filtered list still counts its matches', async () => {
    const now = new Date();
    const rows = Array.from({ length: 5 }, (_, i) => ({
      id: randomUUID(),
      team_id: teamId,
      name: `Raw-${i}`,
      is_active: i % 2 === 0,
      created_at: now,
      updated_at: now,
    }));
    await server.db('locations').insert(rows);
    await server.db('locations').where({ id: rows[0]?.id }).delete();
    expect(await drift(teamId)).toEqual([]);
    const active = await server.db('locations').where({ team_id: teamId, is_active: false }).count({ n: '*' }).first();
    expect((await api('GET', '/locations', { query: { isActive: 'false' } })).body.total).toBe(Number(active?.n));
  });

  it('fold their deltas into one row when they pile up, and stay exact', async () => {
    for (let i = 0; i < 70; i++) await api('POST', '/parking-zones', { body: { name: `Z-${i}` } });
    const before = await server.db('team_row_count_deltas').where({ team_id: teamId, table_name: 'parking_zones' });
    expect(before.length).toBeGreaterThan(64);
    const total = (await api('GET', '/parking-zones')).body.total;
    const after = await server.db('team_row_count_deltas').where({ team_id: teamId, table_name: 'parking_zones' });
    expect(after.length).toBe(1);
    expect(total).toBe(70);
    expect((await api('GET', '/parking-zones')).body.total).toBe(70);
    expect(await drift(teamId)).toEqual([]);
  });
});
