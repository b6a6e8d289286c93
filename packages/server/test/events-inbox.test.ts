import { ALL_SCOPES, type V1Event } from '@vsf/contract';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequenceEvents } from '../src/repositories/team-events.js';
import { EventInboxDrain } from '../src/services/event-inbox-drain.js';
import { startTestServer, type TestServer } from '../src/testing/start-test-server.js';
import { apiCaller } from './support/api-caller.js';

// Migration 034: a write appends its event to the team's inbox without waiting for the team's other writes,
// and cursors are handed out to committed events only, so the feed stays in commit order. Runs on PGlite and,
// with TEST_DATABASE_URL, on PostgreSQL (the suite of two open transactions needs two connections).
const databaseUrl = process.env.TEST_DATABASE_URL;
let server: TestServer;

interface Feed {
  data: V1Event[];
  nextCursor: number;
}

async function team() {
  const created = await server.createTeamWithKey(ALL_SCOPES);
  const api = apiCaller(server.baseUrl, created.key);
  const feed = async (after?: number) => {
    const res = await api<Feed>('GET', '/events', {
      query: after === undefined ? { limit: '0' } : { after: String(after) },
    });
    expect(res.status).toBe(200);
    return res.body;
  };
  return { teamId: created.team.id, api, feed, start: (await feed()).nextCursor };
}

const insertCar = (db: Knex, teamId: string, model: string) =>
  db.raw(
    `insert into cars (id, team_id, year, make, model, is_for_sale, created_at, updated_at)
     values (gen_random_uuid(), ?, 2020, 'Make', ?, false, now(), now()) returning id`,
    [teamId, model],
  );

async function countsOf(teamId: string): Promise<{ inbox: number; events: number }> {
  const count = async (table: string) =>
    Number((await server.db(table).where({ team_id: teamId }).count({ n: '*' }))[0]?.n ?? 0);
  const [inbox, events] = await Promise.all([count('team_event_inbox'), count('team_events')]);
  return { inbox, events };
}

beforeAll(async () => {
  server = await startTestServer(databaseUrl ? { databaseUrl } : {});
});
afterAll(() => server?.close());

describe('recording a team’s events', () => {
  it('keeps each event once, in the inbox until numbered, then in the feed with the next cursors', async () => {
    const { teamId, api, feed, start } = await team();
    const before = await countsOf(teamId);
    const made: string[] = [];
    for (const name of ['A', 'B', 'C']) made.push((await api('POST', '/locations', { body: { name } })).body.data.id);
    // The instance's own drain may have numbered some of them meanwhile; together they are the three.
    const written = await countsOf(teamId);
    expect(written.inbox + written.events).toBe(before.inbox + before.events + 3);

    await sequenceEvents(server.db, [teamId]);
    expect(await countsOf(teamId)).toEqual({ inbox: 0, events: before.events + 3 });
    // Nothing left: numbering again writes nothing and names no team.
    expect(await sequenceEvents(server.db, [teamId])).toBe(0);
    const { data } = await feed(start);
    expect(data.map((e) => [e.cursor, e.recordId])).toEqual(made.map((id, i) => [start + i + 1, id]));
  });

  it('numbers every team with events waiting, or only those named', async () => {
    const teams = await Promise.all([team(), team(), team()]);
    for (const t of teams) await insertCar(server.db, t.teamId, 'Waiting');
    const [first, ...others] = teams.map((t) => t.teamId) as [string, ...string[]];
    // A team named but with nothing waiting is not counted; the named one with events is.
    const quiet = (await team()).teamId;
    await sequenceEvents(server.db, [quiet]);
    expect(await sequenceEvents(server.db, [first, quiet])).toBe(1);
    expect(await countsOf(first)).toMatchObject({ inbox: 0 });
    // Every team's (other suites' writes included): these two are found over the index and emptied.
    await sequenceEvents(server.db);
    for (const teamId of others) expect(await countsOf(teamId)).toMatchObject({ inbox: 0 });
    for (const t of teams) expect((await t.feed(t.start)).data).toHaveLength(1);
  });

  it('is numbered by an instance’s drain when nobody reads the feed', async () => {
    const { teamId, feed, start } = await team();
    const drain = new EventInboxDrain(server.db, 20);
    const errors: unknown[] = [];
    try {
      const { rows } = await insertCar(server.db, teamId, 'Drained');
      drain.start((error) => errors.push(error));
      const deadline = Date.now() + 10_000;
      while (drain.numbered === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(drain.numbered).toBeGreaterThan(0);
      expect(await countsOf(teamId)).toMatchObject({ inbox: 0 });
      expect((await feed(start)).data.map((e) => e.recordId)).toEqual([rows[0].id]);
    } finally {
      await drain.stop();
    }
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!databaseUrl)('a team’s writes recorded side by side (PostgreSQL)', () => {
  it('commits a write while another write of the team, its event recorded, is still open; cursors follow the commits', async () => {
    const { teamId, feed, start } = await team();
    const open = await server.db.transaction();
    try {
      const { rows: first } = await insertCar(open, teamId, 'Open');
      // Fires the deferred trigger now: under 024 this locked the team's feed head until the transaction ended.
      await open.raw('set constraints all immediate');
      const second = await server.db.transaction(async (trx) => {
        // Under 024 this commit waited for the open transaction's head lock: it fails instead of hanging.
        await trx.raw(`set local lock_timeout = '3s'`);
        return (await insertCar(trx, teamId, 'Committed')).rows[0].id as string;
      });
      // Read while the first is still open: only the committed write, at the next cursor.
      expect((await feed(start)).data.map((e) => [e.cursor, e.recordId])).toEqual([[start + 1, second]]);
      await open.commit();
      // The one that committed later comes after it, never below a cursor a reader has seen.
      expect((await feed(start + 1)).data.map((e) => [e.cursor, e.recordId])).toEqual([[start + 2, first[0].id]]);
    } finally {
      if (!open.isCompleted()) await open.rollback();
    }
  });

  it('lets a transaction that numbered the feed and wrote commit while a lease taker waits for the head', async () => {
    const { teamId, feed, start } = await team();
    await insertCar(server.db, teamId, 'Waiting in the inbox');
    const numbering = await server.db.transaction();
    try {
      // Numbers the waiting event, so holds the team's head, then writes: its event is recorded at commit.
      await numbering.raw('select * from vsf_sequence_team_events(?)', [teamId]);
      const { rows } = await insertCar(numbering, teamId, 'Written after numbering');
      const leasing = server.db.raw('select * from vsf_watch_team_events(?, 60)', [teamId]);
      const leased = leasing.then(() => 'leased');
      leased.catch(() => undefined);
      // The lease taker is waiting (for the numbering's lock or the head) before the numbering commits.
      const deadline = Date.now() + 5_000;
      const waiting = async () =>
        Number(
          (await server.db.raw(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock'`)).rows[0].n,
        );
      while ((await waiting()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await numbering.commit();
      expect(await leased).toBe('leased');
      expect((await feed(start)).data.map((e) => e.recordId)).toContain(rows[0].id);
    } finally {
      if (!numbering.isCompleted()) await numbering.rollback();
    }
  });
});
