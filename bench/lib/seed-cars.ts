import type { Knex } from 'knex';

const MAKES = ['Toyota', 'Ford', 'Honda', 'Chevrolet', 'BMW', 'Tesla', 'Subaru', 'Porsche', 'Audi', 'Jeep'];
const MODELS = ['Corolla', 'F-150', 'Civic', 'Silverado', 'X5', 'Model 3', 'Outback', '911', 'A4', 'Wrangler'];
const COLORS = ['black', 'white', 'silver', 'red', 'blue', 'green', 'grey'];
const STATES = ['CA', 'TX', 'FL', 'NY', 'WA', 'IL', 'AZ'];

const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;
const pick = (values: string[], expression: string) => `(${sqlArray(values)})[1 + (${expression}) % ${values.length}]`;

/**
 * Gives a team `count` cars with every field a real facility fills in (VIN, stock number, plate, mileage,
 * customer and location), in one INSERT … SELECT over generate_series: seeding 100 000 rows through the
 * API would take longer than the benchmarks. Cars were changed every 5 minutes going back months, three at
 * a time (as bulk edits do), so paging has ties to break.
 */
export async function seedCars(knex: Knex, teamId: string, count: number): Promise<void> {
  // Cars last changed an hour ago and earlier, as in a lot that has been running for months: a sync's
  // 60 s lookback then finds no seeded car, only the ones a benchmark changes.
  const now = new Date(Date.now() - 3600_000);
  await knex.raw(
    `insert into locations (id, team_id, name, city, state, timezone, is_active, created_at, updated_at)
     values (gen_random_uuid(), ?, 'Main lot', 'Austin', 'TX', 'America/Chicago', true, ?, ?)`,
    [teamId, now, now],
  );
  const customers = Math.max(1, Math.floor(count / 100));
  await knex.raw(
    `insert into customers (id, team_id, first_name, last_name, email, phone, city, state, country, is_active, created_at, updated_at)
     select gen_random_uuid(), ?, 'First' || i, 'Last' || i, 'owner' || i || '@example.com', '+1512555' || lpad(i::text, 4, '0'),
            'Austin', 'TX', 'US', true, ?, ?
     from generate_series(1, ?) i`,
    [teamId, now, now, customers],
  );
  await knex.raw(
    `with location as (select id from locations where team_id = ? limit 1),
          owners as (select id, row_number() over (order by id) as n from customers where team_id = ?)
     insert into cars (id, team_id, customer_id, location_id, vin, stock_number, year, make, model, trim, color,
                       license_plate, license_plate_state, mileage, mileage_units, parking_spot, is_for_sale,
                       declared_value_cents, created_at, updated_at)
     select gen_random_uuid(), ?, owners.id, location.id,
            upper(substr(md5(i::text), 1, 17)), 'STK-' || lpad(i::text, 7, '0'), 1990 + i % 35,
            ${pick(MAKES, 'i')}, ${pick(MODELS, 'i')}, ${pick(['LE', 'XLT', 'EX', 'Sport', 'Limited'], 'i / 7')},
            ${pick(COLORS, 'i / 3')}, upper(substr(md5('plate' || i), 1, 7)), ${pick(STATES, 'i / 11')},
            (i * 7919) % 250000, 'mi', 'A-' || (i % 400), i % 9 = 0, 500000 + (i::bigint * 104729) % 9000000,
            ?::timestamptz - (? - i) * interval '7 minutes', ?::timestamptz - ((? - i) / 3) * interval '5 minutes'
     from generate_series(1, ?) i
     cross join location
     left join owners on owners.n = 1 + i % ?`,
    [teamId, teamId, teamId, now, count, now, count, count, customers],
  );
}

/** Marks pages all-visible and refreshes statistics, as autovacuum does on a settled table. */
export async function settle(knex: Knex): Promise<void> {
  await knex.raw('vacuum analyze cars');
  await knex.raw('vacuum analyze customers');
}
