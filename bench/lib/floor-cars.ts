/**
 * What the throughput floors (floor-server.ts, express-ceiling-server.ts) share: one team's cars read and
 * written with the SQL the reference server runs, and rows turned into the API's JSON records.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface NewCar {
  year: number;
  make: string;
  model: string;
  vin?: string;
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function toRecord(row: Record<string, unknown>) {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row))
    record[camel(column)] = value instanceof Date ? value.toISOString() : value;
  return record;
}

/** The cars of one team in the database at `databaseUrl`. */
export function floorCars(databaseUrl: string, teamId: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));
  return {
    async page(limit: number, page: number) {
      const [count, rows] = await Promise.all([
        pool.query('select count(*) as count from cars where cars.team_id = $1', [teamId]),
        pool.query(
          'select cars.* from cars where cars.team_id = $1 order by cars.updated_at desc, cars.id desc limit $2 offset $3',
          [teamId, limit, (page - 1) * limit],
        ),
      ]);
      return { data: rows.rows.map(toRecord), page, limit, total: count.rows[0].count as number };
    },
    async one(id: string) {
      const { rows } = await pool.query('select cars.* from cars where cars.team_id = $1 and cars.id = $2 limit 1', [
        teamId,
        id,
      ]);
      return rows[0] ? toRecord(rows[0]) : undefined;
    },
    async create(body: NewCar) {
      const now = new Date();
      const { rows } = await pool.query(
        `insert into cars (id, team_id, vin, year, make, model, is_for_sale, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, false, $7, $7) returning *`,
        [randomUUID(), teamId, body.vin ?? null, body.year, body.make, body.model, now],
      );
      return toRecord(rows[0]);
    },
    close: () => pool.end(),
  };
}
