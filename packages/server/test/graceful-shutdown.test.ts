import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { ALL_SCOPES } from '@vsf/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/runtime/start-server.js';
import { migratedPglite } from '../src/testing/migrated-pglite.js';
import { testServerConfig } from '../src/testing/start-test-server.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';

// The real server (startServer, as `vsf-server start` runs it) is closed while slow requests are in
// flight: uploads whose bodies arrive a chunk at a time, and large lists. Every one of them completes
// with 2xx; a connection opened after close() is refused; the database closes only after the last
// response; and the close does not wait on the idle keep-alive connections those responses leave.
// VSF_STRESS=1 runs more requests in flight.
const STRESS = Boolean(process.env.VSF_STRESS);
const SLOW_UPLOADS = STRESS ? 12 : 4;
const SLOW_CREATES = STRESS ? 12 : 4;
const LISTS = STRESS ? 12 : 4;
const DRIP_CHUNKS = 8;
const DRIP_MS = 30;

const adminToken = `shutdown-admin-${Math.random().toString(36).slice(2)}`;
let running: RunningServer | undefined;
/** Client connections stay open after their response, as an SDK's pooled keep-alive sockets do. */
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  await running?.close();
  running = undefined;
});

async function start(): Promise<RunningServer> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  return startServer(testServerConfig({ databaseUrl, adminToken }), {
    bootstrapDemo: false,
    ...(databaseUrl ? {} : { pglite: await migratedPglite() }),
  });
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request on its own connection (keep-alive, as SDK clients use), its body written in chunks
 * `dripMs` apart; the last chunk waits for `gate`, so the request is still arriving when the server is
 * told to close, however slow the machine.
 */
function send(
  origin: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; dripMs?: number; gate?: Promise<void> } = {},
): Promise<RawResponse> {
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return new Promise<RawResponse>((resolve, reject) => {
    const req = request(
      `${origin}${path}`,
      {
        method,
        agent,
        headers: {
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (!payload) {
      req.end();
      return;
    }
    const size = Math.ceil(payload.length / DRIP_CHUNKS);
    let offset = 0;
    const drip = () => {
      req.write(payload.subarray(offset, offset + size));
      offset += size;
      if (offset >= payload.length) req.end();
      else if (offset + size >= payload.length && options.gate) void options.gate.then(drip);
      else setTimeout(drip, options.dripMs ?? 0);
    };
    drip();
  });
}

const json = <T>(res: RawResponse) => JSON.parse(res.body) as T;

describe('graceful shutdown', () => {
  it('finishes in-flight requests with 2xx, refuses new connections, then closes the database', async () => {
    running = await start();
    const server = running;
    const origin = server.url.replace('localhost', '127.0.0.1');
    const admin = (method: string, path: string, body?: unknown) =>
      send(origin, method, `/admin/v1${path}`, { key: adminToken, body });
    const team = json<{ data: { id: string } }>(await admin('POST', '/teams', { name: 'Shutdown' })).data;
    const key = json<{ data: { key: string } }>(
      await admin('POST', `/teams/${team.id}/keys`, { name: 'k', scopes: ALL_SCOPES }),
    ).data.key;
    const api = (method: string, path: string, body?: unknown, gate?: Promise<void>) =>
      send(origin, method, `/api/v1${path}`, { key, body, ...(gate ? { gate, dripMs: DRIP_MS } : {}) });

    // Cars with an open storage session, so photos can be uploaded to them; and rows for large lists.
    const zone = json<{ data: { id: string } }>(await api('POST', '/parking-zones', { name: 'Z' })).data.id;
    const sessions: { carId: string; sessionId: string }[] = [];
    for (let i = 0; i < SLOW_UPLOADS; i++) {
      const carId = json<{ data: { id: string } }>(await api('POST', '/cars', { year: 2000, make: 'S', model: `${i}` }))
        .data.id;
      const spot = json<{ data: { id: string } }>(
        await api('POST', '/parking-spots', { name: `S-${i}`, parkingZoneId: zone }),
      ).data.id;
      const event = await api('POST', `/cars/${carId}/events`, { activityType: 'drop_off', parkingSpotId: spot });
      sessions.push({ carId, sessionId: json<{ data: { sessionId: string } }>(event).data.sessionId });
    }
    const now = Date.now();
    await server.database.knex('cars').insert(
      Array.from({ length: 400 }, (_, i) => ({
        id: crypto.randomUUID(),
        team_id: team.id,
        year: 1990,
        make: 'Bulk',
        model: `B${i}`,
        created_at: new Date(now - i),
        updated_at: new Date(now - i),
      })),
    );

    // Slow requests: wait until the server has every one of them, then close it.
    let received = 0;
    let lastFinished = 0;
    server.server.on('request', (_req, res) => {
      received++;
      res.on('finish', () => {
        lastFinished = performance.now();
      });
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inFlight: { label: string; response: Promise<RawResponse> }[] = [];
    for (const { carId, sessionId } of sessions) {
      const body = { sessionId, filename: 'p.png', contentType: 'image/png', base64: TINY_PNG };
      inFlight.push({ label: 'upload', response: api('POST', `/cars/${carId}/photos`, body, gate) });
    }
    for (let i = 0; i < SLOW_CREATES; i++) {
      const body = { year: 2001, make: 'InFlight', model: `F${i}`, color: 'slow' };
      inFlight.push({ label: 'create', response: api('POST', '/cars', body, gate) });
    }
    for (let i = 0; i < LISTS; i++) {
      inFlight.push({ label: 'list', response: api('GET', `/cars?limit=200&page=${1 + (i % 2)}`) });
    }
    while (received < inFlight.length) await new Promise((resolve) => setTimeout(resolve, 2));

    let databaseClosedAt: number | undefined;
    const closeDatabase = server.database.close.bind(server.database);
    server.database.close = async () => {
      databaseClosedAt = performance.now();
      await closeDatabase();
    };
    const closed = server.close();

    // A new connection is refused at once, while the slow requests are still arriving; only then do
    // the uploads and creates send their last bytes.
    const refused = await api('GET', '/cars')
      .then(
        () => undefined,
        (error: NodeJS.ErrnoException) => error.code,
      )
      .finally(release);
    expect(refused).toBe('ECONNREFUSED');

    const responses = await Promise.all(inFlight.map((r) => r.response));
    await closed;
    const failures = responses
      .map((r, i) => ({ label: inFlight[i]?.label, status: r.status, body: r.body.slice(0, 200) }))
      .filter((r) => r.status < 200 || r.status >= 300);
    expect(failures).toEqual([]);
    const uploaded = responses.slice(0, SLOW_UPLOADS).map((r) => json<{ data: { id: string } }>(r).data.id);
    expect(uploaded.every((id) => /^[0-9a-f-]{36}$/.test(id))).toBe(true);
    expect(lastFinished).toBeGreaterThan(0);
    expect(databaseClosedAt, 'database closed before the last response was sent').toBeGreaterThanOrEqual(lastFinished);
    // The database is closed: nothing can use it any more.
    await expect(server.database.knex.raw('select 1')).rejects.toThrow();
    // Responses finished during the shutdown tell the client not to reuse their connection, so the
    // close does not sit on idle keep-alive sockets.
    const dripped = responses.slice(0, SLOW_UPLOADS + SLOW_CREATES);
    const keptAlive = dripped.filter((r) => r.headers.connection !== 'close').length;
    expect(keptAlive).toBe(0);

    console.log(
      `graceful-shutdown (${server.database.engine}): ${inFlight.length} requests received before close() ` +
        `(${SLOW_UPLOADS} photo uploads and ${SLOW_CREATES} creates still sending their bodies, ${LISTS} lists of 200): ` +
        `${responses.length - failures.length} × 2xx, ${dripped.length - keptAlive} × Connection: close, new connection ${refused}, database closed after the last response`,
    );
    running = undefined;
  }, 60_000);
});
