/**
 * The throughput floor: a bare node:http + pg server answering GET /cars, GET /cars/:id and POST /cars
 * for one team with the SQL the reference server runs for them (count + page, one row, one insert),
 * and the same JSON bodies. No framework, auth, validation, logging or rate limit. Prints its URL.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { floorCars, type NewCar } from './floor-cars.js';

const [databaseUrl, teamId] = process.argv.slice(2) as [string, string];
const cars = floorCars(databaseUrl, teamId);

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
      return send(res, 200, await cars.page(limit, page));
    }
    if (req.method === 'GET' && carId) {
      const car = await cars.one(carId);
      return car ? send(res, 200, { data: car }) : send(res, 404, { error: 'Car not found' });
    }
    if (req.method === 'POST' && url.pathname === '/cars') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      return send(res, 201, { data: await cars.create(JSON.parse(Buffer.concat(chunks).toString()) as NewCar) });
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
process.once('SIGTERM', () => server.close(() => cars.close().then(() => process.exit(0))));
