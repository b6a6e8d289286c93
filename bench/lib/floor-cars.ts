/**
 * What the throughput floors (floor-server.ts, express-ceiling-server.ts) share: one team's cars read and
 * written with the SQL the reference server runs, and rows turned into the API's JSON records.
 */
import { createHash, randomUUID } from 'node:crypto';
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

const DAY_MS = 24 * 60 * 60 * 1000;

/** A value written into SQL text, for the messages that carry several statements (and so no parameters). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return pg.escapeLiteral(value instanceof Date ? value.toISOString() : String(value));
}

/** The cars of one team in the database at `databaseUrl`. */
export function floorCars(databaseUrl: string, teamId: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // The team's first key, as the server's claim names the key that sent the request.
  let apiKeyId: Promise<string> | undefined;
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
    /**
     * The create as the server runs it under an `Idempotency-Key`, in the same two messages: `BEGIN`, the
     * key's claim (migration 026) and the insert; then the stored response and `COMMIT`. Only what the
     * database is sent is the same: no verdict beyond a replay, no fingerprint check.
     */
    async createIdempotently(body: NewCar, key: string): Promise<{ status: number; body: unknown }> {
      const now = new Date();
      apiKeyId ??= pool
        .query('select id from api_keys where team_id = $1 order by created_at limit 1', [teamId])
        .then(({ rows }) => rows[0].id as string);
      const keyId = await apiKeyId;
      const values = (...list: unknown[]) => list.map(literal).join(', ');
      const client = await pool.connect();
      try {
        const [, claimed, inserted] = (await client.query(
          `begin;
           select vsf_claim_idempotency_key(${values(`${keyId}|POST|/cars|${key}`, keyId, 'POST', '/cars', key)}) as claim;
           insert into cars (id, team_id, vin, year, make, model, is_for_sale, created_at, updated_at)
           values (${values(randomUUID(), teamId, body.vin, body.year, body.make, body.model, false, now, now)}) returning *`,
        )) as unknown as pg.QueryResult[];
        const stored = claimed?.rows[0]?.claim?.stored;
        if (stored) {
          await client.query('rollback');
          return { status: stored.response_status, body: stored.response_body };
        }
        const response = { status: 201, body: { data: toRecord(inserted!.rows[0]) } };
        const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('hex');
        await client.query(
          `insert into idempotency_keys (id, team_id, api_key_id, method, path, idempotency_key, fingerprint,
             response_status, response_body, response_headers, created_at, expires_at)
           values (${values(randomUUID(), teamId, keyId, 'POST', '/cars', key, fingerprint, 201, JSON.stringify(response.body), '{}', now, new Date(now.getTime() + DAY_MS))});
           commit`,
        );
        return response;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
