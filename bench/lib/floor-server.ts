/**
 * The throughput floor: a bare node:http + pg server answering GET /cars, GET /cars/:id and POST /cars
 * for one team with the SQL the reference server runs for them (count + page, one row, one insert),
 * and the same JSON bodies. No framework, auth, validation, logging or rate limit. Prints its URL.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

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

const send = (res: ServerResponse, status: number, body: unknown) => {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
};

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://floor');
    const carId = /^\/cars\/([0-9a-f-]{36})$/.exec(url.pathname)?.[1];
    if (req.method === 'GET' && url.pathname === '/cars') {
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const page = Number(url.searchParams.get('page') ?? 1);
      const [count, rows] = await Promise.all([
        pool.query('select count(*) as count from cars where cars.team_id = $1', [teamId]),
        pool.query(
          'select cars.* from cars where cars.team_id = $1 order by cars.updated_at desc, cars.id desc limit $2 offset $3',
          [teamId, limit, (page - 1) * limit],
        ),
      ]);
      return send(res, 200, { data: rows.rows.map(toRecord), page, limit, total: count.rows[0].count });
    }
    if (req.method === 'GET' && carId) {
      const { rows } = await pool.query('select cars.* from cars where cars.team_id = $1 and cars.id = $2 limit 1', [
        teamId,
        carId,
      ]);
      return rows[0] ? send(res, 200, { data: toRecord(rows[0]) }) : send(res, 404, { error: 'Car not found' });
    }
    if (req.method === 'POST' && url.pathname === '/cars') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        year: number;
        make: string;
        model: string;
        vin?: string;
      };
      const now = new Date();
      const { rows } = await pool.query(
        `insert into cars (id, team_id, vin, year, make, model, is_for_sale, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, false, $7, $7) returning *`,
        [randomUUID(), teamId, body.vin ?? null, body.year, body.make, body.model, now],
      );
      return send(res, 201, { data: toRecord(rows[0]) });
    }
    send(res, 404, { error: 'Not found' });
  } catch (error) {
    send(res, 500, { error: (error as Error).message });
  }
});

server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
