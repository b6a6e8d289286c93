/**
 * The framework's own ceiling: the throughput floor's SQL and bodies (floor-server.ts) served by Express 5,
 * the server's framework, with one route each, `res.json` and a pg pool: no auth, validation, logging,
 * rate limit or query builder. What it reaches against the bare floor is the most any Express server can.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT } from './child-process.js';

/** The little of Express this server uses (the bench does not depend on Express's types). */
interface JsonResponse {
  json(body: unknown): void;
  status(code: number): JsonResponse;
}
type Route = (req: { params: Record<string, string>; body: unknown }, res: JsonResponse) => Promise<void>;
interface ExpressModule {
  (): {
    use(middleware: unknown): void;
    get(path: string, route: Route): void;
    post(path: string, route: Route): void;
    listen(port: number, host: string, listening: () => void): Server;
  };
  json(): unknown;
}

// The Express the reference server runs, resolved from its package.
const express = createRequire(join(ROOT, 'packages/server/package.json'))('express') as ExpressModule;
const [databaseUrl, teamId] = process.argv.slice(2) as [string, string];
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
function toRecord(row: Record<string, unknown>) {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row))
    record[camel(column)] = value instanceof Date ? value.toISOString() : value;
  return record;
}

const app = express();
app.use(express.json());
app.get('/cars/:id', async (req, res) => {
  const { rows } = await pool.query('select cars.* from cars where cars.team_id = $1 and cars.id = $2 limit 1', [
    teamId,
    req.params.id,
  ]);
  if (rows[0]) res.json({ data: toRecord(rows[0]) });
  else res.status(404).json({ error: 'Car not found' });
});
app.post('/cars', async (req, res) => {
  const body = req.body as { year: number; make: string; model: string; vin?: string };
  const now = new Date();
  const { rows } = await pool.query(
    `insert into cars (id, team_id, vin, year, make, model, is_for_sale, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, false, $7, $7) returning *`,
    [randomUUID(), teamId, body.vin ?? null, body.year, body.make, body.model, now],
  );
  res.status(201).json({ data: toRecord(rows[0]) });
});

const server = app.listen(0, '127.0.0.1', () => {
  process.stderr.write(`floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
server.keepAliveTimeout = 5_000;
process.once('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
