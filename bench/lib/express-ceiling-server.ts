/**
 * The framework's own ceiling: the throughput floor's SQL and bodies (floor-server.ts) served by Express 5,
 * the server's framework, with one route each, `res.json` and a pg pool: no auth, validation, logging,
 * rate limit or query builder. What it reaches against the bare floor is the most any Express server can.
 * `POST /idempotent/cars` adds what an `Idempotency-Key` costs the database, and nothing else.
 */
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './child-process.js';
import { floorCars, type NewCar } from './floor-cars.js';

/** The little of Express this server uses (the bench does not depend on Express's types). */
interface JsonResponse {
  json(body: unknown): void;
  status(code: number): JsonResponse;
}
type Route = (
  req: { params: Record<string, string>; body: unknown; headers: Record<string, string | string[] | undefined> },
  res: JsonResponse,
) => Promise<void>;
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
const cars = floorCars(databaseUrl, teamId);

const app = express();
app.use(express.json());
app.get('/cars/:id', async (req, res) => {
  const car = await cars.one(req.params.id as string);
  if (car) res.json({ data: car });
  else res.status(404).json({ error: 'Car not found' });
});
app.post('/cars', async (req, res) => {
  res.status(201).json({ data: await cars.create(req.body as NewCar) });
});
// The same create in the server's two round trips under an `Idempotency-Key` (floor-cars.ts).
app.post('/idempotent/cars', async (req, res) => {
  const { status, body } = await cars.createIdempotently(req.body as NewCar, String(req.headers['idempotency-key']));
  res.status(status).json(body);
});

const server = app.listen(0, '127.0.0.1', () => {
  process.stderr.write(`floor listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
server.keepAliveTimeout = 5_000;
process.once('SIGTERM', () => server.close(() => cars.close().then(() => process.exit(0))));
