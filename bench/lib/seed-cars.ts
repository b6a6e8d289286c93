import type { Knex } from 'knex';
import { EVENT_LOCK_CLASS } from '../../packages/server/src/db/migrations/034-event-inbox.js';

const MAKES = ['Toyota', 'Ford', 'Honda', 'Chevrolet', 'BMW', 'Tesla', 'Subaru', 'Porsche', 'Audi', 'Jeep'];
const MODELS = ['Corolla', 'F-150', 'Civic', 'Silverado', 'X5', 'Model 3', 'Outback', '911', 'A4', 'Wrangler'];
const COLORS = ['black', 'white', 'silver', 'red', 'blue', 'green', 'grey'];
const STATES = ['CA', 'TX', 'FL', 'NY', 'WA', 'IL', 'AZ'];

/** Rows one statement writes at most: a chunk of one big team, or whole small teams together. */
const CHUNK_ROWS = 100_000;

const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;
const pick = (values: string[], expression: string) => `(${sqlArray(values)})[1 + (${expression}) % ${values.length}]`;
/**
 * A version-4-shaped UUID derived from `expression` (text): a car names its customer and lot by computing
 * their ids, where a join to look them up planned as a nested loop (minutes for a 1M-car team's slices).
 */
const derivedUuid = (expression: string) =>
  `overlay(overlay(md5(${expression}) placing '4' from 13) placing '8' from 17)::uuid`;
const customerId = (team: string, n: string) => derivedUuid(`${team}::text || '/customer/' || (${n})`);
const locationId = (team: string) => derivedUuid(`${team}::text || '/location'`);

/** A PostgreSQL array literal, bound as one value (knex would spread a JS array into a list). */
const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

/**
 * Gives a team `count` cars with every field a real facility fills in (VIN, stock number, plate, mileage,
 * customer and location): seeding through the API would take longer than the benchmarks. Cars were
 * changed every 5 minutes going back months, three at a time (as bulk edits do), so paging has ties to break.
 */
export async function seedCars(knex: Knex, teamId: string, count: number): Promise<void> {
  await seedTeams(knex, [teamId], count);
}

/**
 * `seedCars` for many teams at once: each of `teamIds` gets `count` cars, a lot and a customer per 100
 * cars. Each statement is one INSERT … SELECT over generate_series of at most CHUNK_ROWS rows (one big
 * team in slices, or many small teams together, their rows interleaved on the heap as teams writing at
 * the same time leave them). The row-count triggers run as on any insert (one delta per team and
 * statement); the events feed gets every created record, in bulk (see insertRecordingEvents).
 */
export async function seedTeams(knex: Knex, teamIds: readonly string[], count: number): Promise<void> {
  // Cars last changed an hour ago and earlier, as in a lot that has been running for months: a sync's
  // 60 s lookback then finds no seeded car, only the ones a benchmark changes.
  const now = new Date(Date.now() - 3600_000);
  await knex.raw(
    `insert into locations (id, team_id, name, city, state, timezone, is_active, created_at, updated_at)
     select ${locationId('t.team_id')}, t.team_id, 'Main lot', 'Austin', 'TX', 'America/Chicago', true, ?, ?
     from unnest(?::uuid[]) as t(team_id)`,
    [now, now, uuidArray(teamIds)],
  );
  const customers = Math.max(1, Math.floor(count / 100));
  for (const teams of groups(teamIds, Math.max(1, Math.floor(CHUNK_ROWS / customers)))) {
    await insertRecordingEvents(knex, 'customers', teams, {
      insert: `insert into customers (id, team_id, first_name, last_name, email, phone, city, state, country, is_active, created_at, updated_at)
       select ${customerId('t.team_id', 'i')}, t.team_id, 'First' || i, 'Last' || i, 'owner' || i || '@example.com',
              '+1512555' || lpad(i::text, 4, '0'), 'Austin', 'TX', 'US', true, ?, ?
       from generate_series(1, ?) i cross join unnest(?::uuid[]) as t(team_id)`,
      bindings: [now, now, customers, uuidArray(teams)],
    });
  }
  const slice = Math.min(count, CHUNK_ROWS);
  for (const teams of groups(teamIds, Math.max(1, Math.floor(CHUNK_ROWS / count)))) {
    for (let from = 1; from <= count; from += slice) {
      const to = Math.min(count, from + slice - 1);
      await insertRecordingEvents(knex, 'cars', teams, {
        insert: `insert into cars (id, team_id, customer_id, location_id, vin, stock_number, year, make, model, trim, color,
                       license_plate, license_plate_state, mileage, mileage_units, parking_spot, is_for_sale,
                       declared_value_cents, created_at, updated_at)
          select gen_random_uuid(), t.team_id, ${customerId('t.team_id', `1 + (i - 1) % ${customers}`)},
            ${locationId('t.team_id')},
            upper(substr(md5(i::text), 1, 17)), 'STK-' || lpad(i::text, 7, '0'), 1990 + i % 35,
            ${pick(MAKES, 'i')}, ${pick(MODELS, 'i')}, ${pick(['LE', 'XLT', 'EX', 'Sport', 'Limited'], 'i / 7')},
            ${pick(COLORS, 'i / 3')}, upper(substr(md5('plate' || i), 1, 7)), ${pick(STATES, 'i / 11')},
            (i::bigint * 7919) % 250000, 'mi', 'A-' || (i % 400), i % 9 = 0, 500000 + (i::bigint * 104729) % 9000000,
            ?::timestamptz - (? - i) * interval '7 minutes', ?::timestamptz - ((? - i) / 3) * interval '5 minutes'
          from generate_series(?::int, ?::int) i
          cross join unnest(?::uuid[]) as t(team_id)
          -- Car by car across the teams, as teams writing at the same time leave their rows on the heap
          -- (the planner would otherwise write team after team, each team's cars on a few pages).
          order by i`,
        bindings: [now, count, now, count, from, to, uuidArray(teams)],
      });
    }
  }
}

/**
 * Runs `insert` (an INSERT … SELECT) and appends a `created` event for each row it wrote to its team's
 * feed, with the next cursors of the team, in one transaction: what the table's per-row event trigger
 * (migrations 024, 031 and 034) records once numbered, written in one statement instead of one trigger
 * call per row. The trigger is off only inside this transaction (ALTER TABLE is transactional, and
 * its lock keeps every other writer of the table waiting until the trigger is back on).
 */
async function insertRecordingEvents(
  knex: Knex,
  table: 'cars' | 'customers',
  teamIds: readonly string[],
  statement: { insert: string; bindings: readonly Knex.RawBinding[] },
): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx.raw(`alter table ${table} disable trigger ${table}_record_events`);
    // The teams' cursors are written here: no one may number their events meanwhile (the server's readers and
    // drain take this lock shared first, migration 034), and what waits in their inbox is numbered before.
    await trx.raw(
      'select count(pg_advisory_xact_lock(?, hashtext(t.id::text))) from (select unnest(?::uuid[]) as id order by 1) t',
      [EVENT_LOCK_CLASS, uuidArray(teamIds)],
    );
    await trx.raw('select vsf_sequence_events(?::uuid[])', [uuidArray(teamIds)]);
    await trx.raw(
      `with inserted as (${statement.insert} returning *)
       insert into team_events (team_id, cursor, table_name, action, record_id, record)
       select inserted.team_id,
              coalesce(h.last_cursor, 0) + row_number() over (partition by inserted.team_id order by inserted.created_at, inserted.id),
              '${table}', 'created', inserted.id, to_jsonb(inserted)
       from inserted left join team_event_heads h on h.team_id = inserted.team_id`,
      statement.bindings,
    );
    await trx.raw(
      `insert into team_event_heads as h (team_id, last_cursor)
       select team_id, max(cursor) from team_events where team_id = any(?::uuid[]) group by team_id
       on conflict (team_id) do update set last_cursor = excluded.last_cursor`,
      [uuidArray(teamIds)],
    );
    await trx.raw(`alter table ${table} enable trigger ${table}_record_events`);
  });
}

function groups<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Marks pages all-visible and refreshes statistics, as autovacuum does on a settled table. */
export async function settle(knex: Knex): Promise<void> {
  for (const table of ['cars', 'customers', 'team_events']) await knex.raw(`vacuum analyze ${table}`);
}
