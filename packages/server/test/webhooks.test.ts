import {
  ALL_SCOPES,
  EXTENSIONS_HEADER,
  type V1Event,
  type V1WebhookDelivery,
  WEBHOOK_MAX_ENDPOINTS_PER_TEAM,
} from '@vsf/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/start-test-server.js';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.js';
import { fanOut } from '../src/webhooks/webhook-fan-out.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from '../src/webhooks/webhook-options.js';
import { type ApiCaller, apiCaller, isApiError } from './support/api-caller.js';
import {
  type Received,
  signatureValid,
  startWebhookReceiver,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

// The `webhooks` extension: endpoints per team, fed by a dispatcher that fans the events feed out into
// deliveries and POSTs them signed to a loopback receiver that fails, times out and answers slowly. Timings
// are shrunk (backoff 50 ms, timeout 800 ms, retry window 2.5 s) so retries and disabling take seconds.
// Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL (then "two instances" are two servers).
const databaseUrl = process.env.TEST_DATABASE_URL;
/** The teams this file made: its dispatchers serve only them, leaving other suites' endpoints alone. */
const ourTeams = new Set<string>();
const FAST: WebhookOptions = {
  ...DEFAULT_WEBHOOK_OPTIONS,
  dispatch: false,
  allowHttpLoopback: true,
  pollIntervalMs: 25,
  baseBackoffMs: 50,
  maxBackoffMs: 200,
  timeoutMs: 800,
  retryWindowMs: 2_500,
  teams: ourTeams,
};

let server: TestServer;
let receiver: WebhookReceiver;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = await startTestServer({ webhooks: FAST });
  receiver = await startWebhookReceiver();
});
// An endpoint a test leaves enabled would take the next test's dispatcher passes (and receiver) too.
afterEach(async () => {
  await server
    .db('webhooks')
    .whereIn('team_id', [...ourTeams])
    .update({ enabled: false });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function team(scopes: readonly string[] = ALL_SCOPES) {
  const created = await server.createTeamWithKey(scopes);
  ourTeams.add(created.team.id);
  return { ...created, api: apiCaller(server.baseUrl, created.key) };
}

/** Another key of `teamId`, with `scopes`, and a caller that uses it. */
async function keyOf(teamId: string, scopes: string[]) {
  const made = await server.createKey(teamId, scopes);
  return { ...made, api: apiCaller(server.baseUrl, made.key) };
}

// Tests read response bodies loosely; each assertion states the shape it expects.
// biome-ignore lint/suspicious/noExplicitAny: see above
async function ok<T = any>(api: ApiCaller, method: string, path: string, body?: unknown): Promise<T> {
  const res = await api(method, path, body === undefined ? {} : { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

const createHook = (api: ApiCaller, path: string, eventTypes: string[] = ['*']) =>
  ok<{ id: string; secret: string }>(api, 'POST', '/webhooks', { url: `${receiver.url}${path}`, eventTypes });

/** Runs dispatcher passes until `check` holds, as the background loop would, failing after `ms`. */
async function deliverUntil(
  check: () => boolean | Promise<boolean>,
  dispatcher: Pick<WebhookDispatcher, 'runOnce'> = server.services.webhookDispatcher,
  ms = 20_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    await dispatcher.runOnce();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await sleep(20);
  }
}

const at = (path: string) => receiver.received.filter((r) => r.path === path);
const events = (received: Received[]) => received.map((r) => JSON.parse(r.body) as V1Event);
const deliveries = async (api: ApiCaller, hookId: string) =>
  (await api('GET', `/webhooks/${hookId}/deliveries`, { query: { limit: '200' } })).body as {
    data: V1WebhookDelivery[];
    total: number;
  };

describe('webhook endpoints', () => {
  it('are announced; the secret is shown by the create only', async () => {
    const { api } = await team();
    const res = await api('POST', '/webhooks', {
      body: { url: 'https://hooks.example.com/a', eventTypes: ['car.created', 'car.created'], description: 'CRM' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get(EXTENSIONS_HEADER)?.split(/,\s*/)).toContain('webhooks');
    const created = res.body.data;
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ eventTypes: ['car.created'], enabled: true, disabledReason: null });
    const got = await ok(api, 'GET', `/webhooks/${created.id}`);
    const { secret: _secret, ...shown } = created;
    expect(got).toEqual(shown);
    const listed = (await api('GET', '/webhooks')).body;
    expect(listed).toMatchObject({ total: 1, data: [shown] });
    const updated = await ok(api, 'PATCH', `/webhooks/${created.id}`, { eventTypes: ['*', 'car.updated'] });
    expect(updated).toMatchObject({ eventTypes: ['*'] });
    expect(JSON.stringify([got, listed, updated])).not.toContain(created.secret);
    expect(await ok(api, 'DELETE', `/webhooks/${created.id}`)).toEqual({ id: created.id, deleted: true });
    expect((await api('GET', `/webhooks/${created.id}`)).status).toBe(404);
  });

  it('show the secret once: a replayed create (same Idempotency-Key) answers without it, and none is stored', async () => {
    const { team: owner, api } = await team();
    const body = { url: 'https://hooks.example.com/replayed', eventTypes: ['*'] };
    const headers = { 'Idempotency-Key': 'create-hook-once' };
    const first = await api('POST', '/webhooks', { body, headers });
    expect(first.status).toBe(201);
    expect(first.body.data.secret).toMatch(/^whsec_/);
    const replay = await api('POST', '/webhooks', { body, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ data: { ...first.body.data, secret: null } });
    expect((await api('GET', '/webhooks')).body.total).toBe(1);
    const stored = await server.db('idempotency_keys').where({ team_id: owner.id }).select('response_body');
    expect(stored).toHaveLength(1);
    const text = JSON.stringify(stored);
    expect(text).toContain(first.body.data.id);
    expect(text).not.toContain(first.body.data.secret);
    expect(text).not.toContain('whsec_');
  });

  it('refuse http, private and loopback URLs and malformed event types with a 400 ApiError', async () => {
    const { api } = await team();
    const bad: [unknown, string][] = [
      [{ url: 'http://hooks.example.com/x', eventTypes: ['*'] }, 'url'],
      [{ url: 'https://10.0.0.7/x', eventTypes: ['*'] }, 'url'],
      [{ url: 'https://127.0.0.1:8443/x', eventTypes: ['*'] }, 'url'],
      [{ url: 'https://169.254.169.254/latest/meta-data', eventTypes: ['*'] }, 'url'],
      [{ url: 'https://[::1]/x', eventTypes: ['*'] }, 'url'],
      [{ url: 'https://localhost/x', eventTypes: ['*'] }, 'url'],
      [{ url: 'https://user:pw@hooks.example.com/x', eventTypes: ['*'] }, 'url'],
      [{ url: 'https://hooks.example.com/x', eventTypes: ['car.exploded'] }, 'eventTypes'],
      [{ url: 'https://hooks.example.com/x', eventTypes: ['Car.created'] }, 'eventTypes'],
      [{ url: 'https://hooks.example.com/x', eventTypes: ['cars'] }, 'eventTypes'],
      // Well formed, but no resource by that name: an endpoint that would never fire.
      [{ url: 'https://hooks.example.com/x', eventTypes: ['cars.created'] }, 'eventTypes'],
      [{ url: 'https://hooks.example.com/x', eventTypes: ['car.created', 'webhook.created'] }, 'eventTypes'],
      [{ url: 'https://hooks.example.com/x', eventTypes: [] }, 'eventTypes'],
      [{ url: 'https://hooks.example.com/x', eventTypes: ['*'], secret: 'whsec_mine' }, ''],
    ];
    for (const [body, path] of bad) {
      const res = await api('POST', '/webhooks', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(isApiError(res.body)).toBe(true);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.details.map((d: { path: string }) => d.path.split('.')[0])).toContain(path);
    }
    const hook = await createHook(api, '/unused');
    const patch = await api('PATCH', `/webhooks/${hook.id}`, { body: { url: 'https://192.168.1.10/x' } });
    expect(patch.status).toBe(400);
    const typo = await api('PATCH', `/webhooks/${hook.id}`, {
      body: { eventTypes: ['parking_zone.updated', 'zone.updated'] },
    });
    expect(typo.status).toBe(400);
    expect(typo.body.details).toEqual([{ path: 'eventTypes.1', message: expect.stringContaining('"zone"') }]);
    expect((await api('GET', `/webhooks/${hook.id}`)).body.data.eventTypes).toEqual(['*']);
    expect((await api('GET', '/webhooks')).body.total).toBe(1);
  });

  it('refuse http://127.0.0.1 unless the server allows loopback delivery', async () => {
    const strict = await startTestServer();
    try {
      const { key } = await strict.createTeamWithKey(ALL_SCOPES);
      const res = await apiCaller(strict.baseUrl, key)('POST', '/webhooks', {
        body: { url: `${receiver.url}/x`, eventTypes: ['*'] },
      });
      expect(res.status).toBe(400);
      expect(res.body.details[0]).toMatchObject({ path: 'url', reason: 'not_https' });
    } finally {
      await strict.close();
    }
  });
});

describe('webhook deliveries', () => {
  it('POST every event once, as the feed shows it, signed with the secret', async () => {
    const { api } = await team();
    const all = await createHook(api, '/all');
    const cars = await createHook(api, '/cars', ['car.created']);
    const start = (await api('GET', '/events', { query: { limit: '0' } })).body.nextCursor;
    const car = await ok(api, 'POST', '/cars', { year: 1965, make: 'Ford', model: 'Mustang' });
    await ok(api, 'PATCH', `/cars/${car.id}`, { color: 'red' });
    const location = await ok(api, 'POST', '/locations', { name: 'Lot A' });
    await ok(api, 'DELETE', `/locations/${location.id}`);
    await deliverUntil(() => at('/all').length >= 4 && at('/cars').length >= 1);
    const feed = (await api('GET', '/events', { query: { after: String(start) } })).body.data as V1Event[];
    expect(feed.map((e) => e.type)).toEqual(['car.created', 'car.updated', 'location.created', 'location.deleted']);
    // Deliveries go out side by side, in no promised order: each carries its cursor.
    expect(events(at('/all')).sort((a, b) => a.cursor - b.cursor)).toEqual(feed);
    expect(events(at('/cars'))).toEqual([feed[0]]);
    for (const r of at('/all')) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['vsf-event-id']).toBe(JSON.parse(r.body).id);
      expect(signatureValid(r.headers['vsf-signature'] as string, r.body, all.secret)).toBe(true);
      expect(signatureValid(r.headers['vsf-signature'] as string, r.body, cars.secret)).toBe(false);
      const t = Number(/t=(\d+)/.exec(r.headers['vsf-signature'] as string)?.[1]);
      expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
    }
    const log = await deliveries(api, all.id);
    expect(log.total).toBe(4);
    expect(log.data.map((d) => d.eventId).sort()).toEqual(feed.map((e) => e.id).sort());
    for (const d of log.data) {
      expect(d).toMatchObject({ webhookId: all.id, status: 'succeeded', attempts: 1, lastResponseStatus: 200 });
      expect(d).toMatchObject({ lastError: null, nextAttemptAt: null });
    }
    // Nothing more to send: more passes send nothing again.
    for (let i = 0; i < 3; i++) await server.services.webhookDispatcher.runOnce();
    expect(at('/all')).toHaveLength(4);
  });

  it('retry a 500, a timeout and a slow answer until one succeeds: every event arrives, the log shows the attempts', async () => {
    const { api } = await team();
    // Each event: 500, then held past the 800 ms timeout, then answered 200 after 150 ms.
    receiver.on('/flaky', ({ nth }) =>
      nth === 1 ? { status: 500 } : nth === 2 ? { status: 200, delayMs: 2_000 } : { status: 200, delayMs: 150 },
    );
    const hook = await createHook(api, '/flaky');
    const cars = await Promise.all(
      [1, 2, 3].map((n) => ok(api, 'POST', '/cars', { year: 1990 + n, make: 'Volvo', model: `24${n}` })),
    );
    await deliverUntil(async () => (await deliveries(api, hook.id)).data.every((d) => d.status === 'succeeded'));
    const log = await deliveries(api, hook.id);
    expect(log.total).toBe(3);
    for (const d of log.data) {
      expect(d).toMatchObject({ status: 'succeeded', attempts: 3, lastResponseStatus: 200, lastError: null });
    }
    const answered = at('/flaky').filter((r) => r.answered >= 200 && r.answered < 300);
    expect(new Set(events(answered).map((e) => e.recordId))).toEqual(new Set(cars.map((c) => c.id)));
    // The same event went out three times, byte for byte, each signed anew.
    for (const d of log.data) {
      const tries = at('/flaky').filter((r) => r.headers['vsf-event-id'] === d.eventId);
      expect(tries).toHaveLength(3);
      expect(new Set(tries.map((r) => r.body)).size).toBe(1);
      expect(tries.every((r) => signatureValid(r.headers['vsf-signature'] as string, r.body, hook.secret))).toBe(true);
    }
  });

  it('record a timeout, then disable the endpoint when a delivery fails for the whole retry window', async () => {
    const { api } = await team();
    receiver.on('/down', () => ({ status: 500 }));
    receiver.on('/stuck', () => ({ status: 200, delayMs: 3_000 }));
    const down = await createHook(api, '/down');
    const stuck = await createHook(api, '/stuck');
    await ok(api, 'POST', '/locations', { name: 'Yard' });
    await deliverUntil(async () => {
      const [a, b] = await Promise.all([
        ok(api, 'GET', `/webhooks/${down.id}`),
        ok(api, 'GET', `/webhooks/${stuck.id}`),
      ]);
      return !a.enabled && !b.enabled;
    });
    const hook = await ok(api, 'GET', `/webhooks/${down.id}`);
    expect(hook.disabledReason).toMatch(/^disabled after 2\.5 s of failed deliveries: last error HTTP 500$/);
    const [failed] = (await deliveries(api, down.id)).data;
    expect(failed).toMatchObject({
      status: 'failed',
      lastResponseStatus: 500,
      lastError: 'HTTP 500',
      nextAttemptAt: null,
    });
    expect(failed?.attempts).toBeGreaterThan(3);
    const [timedOut] = (await deliveries(api, stuck.id)).data;
    expect(timedOut).toMatchObject({ status: 'failed', lastResponseStatus: null, lastError: 'Timed out after 0.8 s' });
    expect((await ok(api, 'GET', `/webhooks/${stuck.id}`)).disabledReason).toMatch(
      /last error Timed out after 0\.8 s$/,
    );

    // Disabled, it is sent nothing; enabled again (the receiver fixed), it gets what happens next.
    await ok(api, 'POST', '/locations', { name: 'While disabled' });
    for (let i = 0; i < 3; i++) await server.services.webhookDispatcher.runOnce();
    const before = at('/down').length;
    expect(before).toBe(failed?.attempts);
    receiver.on('/down', () => ({ status: 204 }));
    const enabled = await ok(api, 'PATCH', `/webhooks/${down.id}`, { enabled: true });
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
    const after = await ok(api, 'POST', '/locations', { name: 'After' });
    await deliverUntil(() => at('/down').length > before);
    expect(events(at('/down').slice(before)).map((e) => e.recordId)).toEqual([after.id]);
  });

  it('disable an endpoint after too many failed attempts in a row', async () => {
    const { api } = await team();
    receiver.on('/refusing', () => ({ status: 503 }));
    const hook = await createHook(api, '/refusing');
    // A dispatcher of its own, as any instance runs one: three failures in a row, and a long retry window.
    const strict = new WebhookDispatcher(
      { db: server.db, now: () => new Date(), events: server.services.events },
      { ...FAST, maxConsecutiveFailures: 3, retryWindowMs: 60_000 },
    );
    await ok(api, 'POST', '/cars', { year: 2001, make: 'Saab', model: '9-3' });
    await deliverUntil(async () => !(await ok(api, 'GET', `/webhooks/${hook.id}`)).enabled, strict);
    expect((await ok(api, 'GET', `/webhooks/${hook.id}`)).disabledReason).toBe(
      'disabled after 3 failed delivery attempts in a row: last error HTTP 503',
    );
    const [pending] = (await deliveries(api, hook.id)).data;
    expect(pending).toMatchObject({ status: 'pending', attempts: 3, lastResponseStatus: 503 });
  });

  it('send a key without read:customers no customer event', async () => {
    const { team: owner, api } = await team();
    const narrow = (await keyOf(owner.id, ['read:webhooks', 'write:webhooks', 'read:cars'])).api;
    const all = await createHook(narrow, '/narrow-all');
    const named = await createHook(narrow, '/narrow-named', ['customer.created', 'customer.updated', 'car.created']);
    const customer = await ok(api, 'POST', '/customers', { firstName: 'Ada', lastName: 'Lovelace' });
    await ok(api, 'PATCH', `/customers/${customer.id}`, { city: 'London' });
    const car = await ok(api, 'POST', '/cars', { year: 1972, make: 'Citroën', model: 'DS', customerId: customer.id });
    await deliverUntil(() => at('/narrow-all').length >= 1 && at('/narrow-named').length >= 1);
    for (let i = 0; i < 3; i++) await server.services.webhookDispatcher.runOnce();
    expect(events(at('/narrow-all')).map((e) => [e.type, e.recordId])).toEqual([['car.created', car.id]]);
    expect(events(at('/narrow-named')).map((e) => e.type)).toEqual(['car.created']);
    expect((await deliveries(narrow, all.id)).total).toBe(1);
    expect((await deliveries(narrow, named.id)).total).toBe(1);
    // Nor can a key that lacks one of its read scopes point an all-scope endpoint elsewhere.
    const wide = await createHook(api, '/wide');
    const res = await narrow('PATCH', `/webhooks/${wide.id}`, { body: { url: 'https://attacker.example.com/' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/^Missing scope: read:/);
    expect((await ok(api, 'GET', `/webhooks/${wide.id}`)).url).toBe(`${receiver.url}/wide`);
  });

  it('refuse a narrower key the DELETE it is refused as a PATCH; a delivery log shows a key only events it can read', async () => {
    const { team: owner, api } = await team();
    const narrow = (await keyOf(owner.id, ['read:webhooks', 'write:webhooks', 'read:cars'])).api;
    const wide = await createHook(api, '/log-wide');
    const customer = await ok(api, 'POST', '/customers', { firstName: 'Grace', lastName: 'Hopper' });
    await ok(api, 'POST', '/cars', { year: 1959, make: 'Cadillac', model: 'Eldorado' });
    await deliverUntil(async () => (await deliveries(api, wide.id)).total >= 2);
    // The owner sees both deliveries; the key without read:customers sees the car's only, and its total.
    expect((await deliveries(api, wide.id)).data.map((d) => d.eventType).sort()).toEqual([
      'car.created',
      'customer.created',
    ]);
    const seen = await deliveries(narrow, wide.id);
    expect(seen.total).toBe(1);
    expect(seen.data.map((d) => d.eventType)).toEqual(['car.created']);
    expect(JSON.stringify(seen)).not.toContain(customer.id);

    for (const [method, body] of [
      ['PATCH', { enabled: false }],
      ['DELETE', undefined],
    ] as const) {
      const res = await narrow(method, `/webhooks/${wide.id}`, body === undefined ? {} : { body });
      expect(res.status, method).toBe(403);
      expect(isApiError(res.body)).toBe(true);
      expect(res.body.error).toMatch(/^Missing scope: read:/);
    }
    expect(await ok(api, 'GET', `/webhooks/${wide.id}`)).toMatchObject({ enabled: true });
    // Its own endpoint (its scopes, no more) it may delete; the owner may delete any.
    const own = await createHook(narrow, '/log-own');
    expect((await narrow('DELETE', `/webhooks/${own.id}`)).status).toBe(200);
    expect((await api('DELETE', `/webhooks/${wide.id}`)).status).toBe(200);
  });

  it('never connect to a name that resolves to a private address', async () => {
    const { api } = await team();
    const hook = await ok(api, 'POST', '/webhooks', { url: 'https://internal.example.test/hook', eventTypes: ['*'] });
    const rebinding = new WebhookDispatcher(
      { db: server.db, now: () => new Date(), events: server.services.events, resolve: async () => ['10.1.2.3'] },
      FAST,
    );
    await ok(api, 'POST', '/locations', { name: 'Intranet' });
    await deliverUntil(async () => (await deliveries(api, hook.id)).data[0]?.attempts === 1, rebinding);
    expect((await deliveries(api, hook.id)).data[0]).toMatchObject({
      status: 'pending',
      lastResponseStatus: null,
      lastError: 'The URL points at a private, loopback, link-local or otherwise non-public address',
    });
  });
});

describe("an endpoint's standing is its key's", () => {
  const hookScopes = ['read:webhooks', 'write:webhooks', 'read:cars', 'read:customers'];
  const passes = async (n = 3) => {
    for (let i = 0; i < n; i++) await server.services.webhookDispatcher.runOnce();
  };

  it('a revoked key disables its endpoints, saying so; a key with the scopes enables them again', async () => {
    const { team: owner, api } = await team();
    const made = await keyOf(owner.id, hookScopes);
    const hook = await createHook(made.api, '/standing-revoked');
    await ok(api, 'POST', '/cars', { year: 1961, make: 'Jaguar', model: 'E-Type' });
    await deliverUntil(() => at('/standing-revoked').length === 1);

    expect((await server.admin('POST', `/keys/${made.id}/revoke`)).status).toBe(200);
    // Shown at once, before any dispatcher pass, in the record and in the list.
    const got = await ok(api, 'GET', `/webhooks/${hook.id}`);
    expect(got.enabled).toBe(false);
    expect(got.disabledReason).toMatch(
      /^disabled: the API key it acts for \(\S+\) was revoked; a key with its read scopes may enable it again/,
    );
    expect((await ok(api, 'GET', '/webhooks'))[0]).toEqual(got);
    const afterRevoke = await ok(api, 'POST', '/cars', { year: 1962, make: 'Jaguar', model: 'Mk 2' });
    await passes();
    expect(at('/standing-revoked')).toHaveLength(1);

    // A key without every read scope of the endpoint may not take it over; one with them may.
    const narrow = (await keyOf(owner.id, ['write:webhooks', 'read:cars'])).api;
    expect((await narrow('PATCH', `/webhooks/${hook.id}`, { body: { enabled: true } })).status).toBe(403);
    const other = await keyOf(owner.id, hookScopes);
    const enabled = await ok(other.api, 'PATCH', `/webhooks/${hook.id}`, { enabled: true });
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
    const next = await ok(api, 'POST', '/cars', { year: 1963, make: 'Jaguar', model: 'S-Type' });
    await deliverUntil(() => at('/standing-revoked').length === 2);
    expect(events(at('/standing-revoked')).map((e) => e.recordId)).toEqual([expect.any(String), next.id]);
    expect(events(at('/standing-revoked')).map((e) => e.recordId)).not.toContain(afterRevoke.id);
    // It acts for the key that enabled it now: that key's revocation takes it down again.
    await server.admin('POST', `/keys/${other.id}/revoke`);
    expect((await ok(api, 'GET', `/webhooks/${hook.id}`)).enabled).toBe(false);
  });

  it('an expired key disables its endpoints in a dispatcher pass too, with when it expired', async () => {
    const { team: owner, api } = await team();
    const made = await keyOf(owner.id, hookScopes);
    const hook = await createHook(made.api, '/standing-expired');
    await ok(api, 'POST', '/cars', { year: 1970, make: 'Lancia', model: 'Fulvia' });
    // Expired a second ago (the admin API refuses an expiry in the past; time passing does the same).
    const expiredAt = new Date(Date.now() - 1_000);
    await server.db('api_keys').where({ id: made.id }).update({ expires_at: expiredAt });
    await passes();
    expect(at('/standing-expired')).toHaveLength(0);
    const row = await server.db('webhooks').where({ id: hook.id }).first();
    expect(row.enabled).toBe(false);
    expect(row.disabled_reason).toContain(`expired at ${expiredAt.toISOString().slice(0, 19)}Z`);
    expect(await ok(api, 'GET', `/webhooks/${hook.id}`)).toMatchObject({ enabled: false });
  });

  it("a key's narrowed scopes narrow what its endpoint is sent, even a delivery already made", async () => {
    const { team: owner, api } = await team();
    const made = await keyOf(owner.id, hookScopes);
    receiver.on('/standing-scopes', ({ nth }) => (nth === 1 ? { status: 500 } : { status: 204 }));
    const hook = await createHook(made.api, '/standing-scopes', ['customer.created']);
    await ok(api, 'POST', '/customers', { firstName: 'Ada', lastName: 'Byron' });
    // The first attempt fails: the delivery is pending when the key loses read:customers.
    await deliverUntil(() => at('/standing-scopes').length === 1);
    await server
      .db('api_keys')
      .where({ id: made.id })
      .update({ scopes: JSON.stringify(['read:webhooks', 'write:webhooks', 'read:cars']) });
    await ok(api, 'POST', '/customers', { firstName: 'Charles', lastName: 'Babbage' });
    await sleep(300);
    await passes(5);
    expect(at('/standing-scopes')).toHaveLength(1);
    const log = await deliveries(api, hook.id);
    expect(log.data).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 1,
        lastError: 'Not sent: the API key the endpoint acts for no longer has read:customers',
      }),
    ]);
  });

  it("pauses while the team's API is off and resumes after, sending what happened before", async () => {
    const { team: owner, api } = await team();
    const hook = await createHook(api, '/standing-switch');
    const car = await ok(api, 'POST', '/cars', { year: 1955, make: 'Citroën', model: '2CV' });
    await server.admin('PATCH', `/teams/${owner.id}`, { apiEnabled: false });
    await passes(5);
    expect(at('/standing-switch')).toHaveLength(0);
    // Not disabled: nothing to enable again.
    expect((await server.db('webhooks').where({ id: hook.id }).first()).enabled).toBe(true);
    await server.admin('PATCH', `/teams/${owner.id}`, { apiEnabled: true });
    await deliverUntil(() => at('/standing-switch').length === 1);
    expect(events(at('/standing-switch'))[0]?.recordId).toBe(car.id);

    // A delivery already made pauses too: the endpoint fails first, then the switch goes off.
    receiver.on('/standing-switch', ({ nth }) => (nth === 1 ? { status: 503 } : { status: 204 }));
    await ok(api, 'POST', '/cars', { year: 1956, make: 'Citroën', model: 'DS' });
    await deliverUntil(async () => (await deliveries(api, hook.id)).data.some((d) => d.lastResponseStatus === 503));
    await server.admin('PATCH', `/teams/${owner.id}`, { apiEnabled: false });
    await sleep(300);
    await passes(5);
    const sent = at('/standing-switch').length;
    expect(sent).toBe(2);
    await server.admin('PATCH', `/teams/${owner.id}`, { apiEnabled: true });
    await deliverUntil(() => at('/standing-switch').length === 3);
  });
});

describe('fair delivery', () => {
  it("one team's 40 endpoints that never answer do not delay another team's healthy delivery (within 2 s)", async () => {
    const dead = await team();
    const healthy = await team();
    const deadPaths = Array.from({ length: 40 }, (_, n) => `/fair-dead-${n}`);
    // Held far past the 10 s timeout: each attempt holds its slot for the whole timeout.
    for (const path of deadPaths) receiver.on(path, () => ({ status: 200, delayMs: 60_000 }));
    for (const path of deadPaths) await createHook(dead.api, path);
    await createHook(healthy.api, '/fair-healthy');
    // A backlog first: every dead endpoint has deliveries due, older than anything of the healthy team.
    for (let i = 0; i < 5; i++) await ok(dead.api, 'POST', '/locations', { name: `Backlog ${i}` });
    const atDead = () => receiver.received.filter((r) => r.path.startsWith('/fair-dead-'));
    // The production timings (10 s timeout, default caps), with a short poll so the test need not wait a second.
    const options = { ...DEFAULT_WEBHOOK_OPTIONS, allowHttpLoopback: true, pollIntervalMs: 25, teams: ourTeams };
    const dispatcher = new WebhookDispatcher(
      { db: server.db, now: () => new Date(), events: server.services.events },
      options,
    );
    dispatcher.start();
    try {
      const busy = Date.now() + 10_000;
      while (atDead().length < options.perTeamConcurrency && Date.now() < busy) await sleep(10);
      const started = Date.now();
      const car = await ok(healthy.api, 'POST', '/cars', { year: 1964, make: 'Porsche', model: '911' });
      while (at('/fair-healthy').length === 0 && Date.now() - started < 5_000) await sleep(10);
      const took = Date.now() - started;
      expect(events(at('/fair-healthy')).map((e) => e.recordId)).toEqual([car.id]);
      expect(took).toBeLessThan(2_000);
      // The dead team holds its share of the attempts, a few per endpoint, and no more.
      const held = atDead();
      expect(held.length).toBe(options.perTeamConcurrency);
      const perEndpoint = new Map<string, number>();
      for (const r of held) perEndpoint.set(r.path, (perEndpoint.get(r.path) ?? 0) + 1);
      expect(Math.max(...perEndpoint.values())).toBeLessThanOrEqual(options.perEndpointConcurrency);
    } finally {
      await dispatcher.stop();
    }
    // Stopping cut the held attempts short and gave their deliveries back, untried.
    const log = await deliveries(dead.api, (await ok(dead.api, 'GET', '/webhooks'))[0].id);
    expect(log.data.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);
  });

  it("a team's due retries do not hold back its own first attempt (first attempts go first in its share)", async () => {
    const { api, team: created } = await team();
    const deadPaths = Array.from({ length: 12 }, (_, n) => `/retry-dead-${n}`);
    for (const path of deadPaths) receiver.on(path, () => ({ status: 200, delayMs: 60_000 }));
    for (const path of deadPaths) await createHook(api, path, ['location.created']);
    for (let i = 0; i < 2; i++) await ok(api, 'POST', '/locations', { name: `Retried ${i}` });
    const deps = { db: server.db, now: () => new Date(), events: server.services.events };
    const only = new Set([created.id]);
    // 24 deliveries whose first attempt failed a minute ago: retries due, older than anything new.
    expect((await fanOut(deps, only)).created).toBe(24);
    const past = new Date(Date.now() - 60_000);
    await server
      .db('webhook_deliveries')
      .where({ team_id: created.id })
      .update({ attempts: 1, first_attempt_at: past, next_attempt_at: past, last_error: 'timed out' });
    await createHook(api, '/retry-first-healthy', ['car.created']);
    const car = await ok(api, 'POST', '/cars', { year: 1971, make: 'Citroën', model: 'SM' });
    // Production timings (10 s timeout, 8 attempts under way per team): retries first would fill the team's
    // share with receivers that never answer, and the new delivery would wait a timeout for a slot.
    const options = { ...DEFAULT_WEBHOOK_OPTIONS, allowHttpLoopback: true, pollIntervalMs: 25, teams: only };
    const dispatcher = new WebhookDispatcher(deps, options);
    const started = Date.now();
    dispatcher.start();
    try {
      while (at('/retry-first-healthy').length === 0 && Date.now() - started < 5_000) await sleep(10);
      expect(events(at('/retry-first-healthy')).map((e) => e.recordId)).toEqual([car.id]);
      expect(Date.now() - started).toBeLessThan(2_000);
      // The retries still get the rest of the team's share.
      const end = Date.now() + 5_000;
      const retried = () => receiver.received.filter((r) => r.path.startsWith('/retry-dead-')).length;
      while (retried() < options.perTeamConcurrency - 1 && Date.now() < end) await sleep(10);
      // Seven beside the healthy delivery; once that one is answered its slot may go to an eighth, never more.
      expect(retried()).toBeGreaterThanOrEqual(options.perTeamConcurrency - 1);
      expect(retried()).toBeLessThanOrEqual(options.perTeamConcurrency);
    } finally {
      await dispatcher.stop();
    }
  });

  it(`a team has at most ${WEBHOOK_MAX_ENDPOINTS_PER_TEAM} endpoints: one more is a 409`, async () => {
    const { api } = await team();
    const made = [];
    for (let n = 0; n < WEBHOOK_MAX_ENDPOINTS_PER_TEAM; n++) {
      made.push(await ok(api, 'POST', '/webhooks', { url: `https://hooks.example.com/${n}`, eventTypes: ['*'] }));
    }
    await ok(api, 'PATCH', `/webhooks/${made[0].id}`, { enabled: false });
    const over = await api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/over', eventTypes: ['*'] } });
    expect(over.status).toBe(409);
    expect(isApiError(over.body)).toBe(true);
    expect(over.body).toMatchObject({
      code: 'conflict',
      details: { reason: 'webhook_endpoint_limit', limit: WEBHOOK_MAX_ENDPOINTS_PER_TEAM },
    });
    expect(over.body.error).toMatch(/delete one/);
    expect((await api('GET', '/webhooks')).body.total).toBe(WEBHOOK_MAX_ENDPOINTS_PER_TEAM);
    await ok(api, 'DELETE', `/webhooks/${made[1].id}`);
    expect(
      (await api('POST', '/webhooks', { body: { url: 'https://hooks.example.com/in', eventTypes: ['*'] } })).status,
    ).toBe(201);
  });
});

describe.skipIf(!databaseUrl)('waking on commit', () => {
  it("delivers a write through another instance at once, not at the dispatcher's next poll", async () => {
    const { api, team: created } = await team();
    await createHook(api, '/wake-on-commit', ['location.created']);
    // Its only poll is a minute away: a delivery within seconds is the commit's announcement waking it.
    const delivering = await startTestServer({
      databaseUrl,
      webhooks: { ...FAST, dispatch: true, pollIntervalMs: 60_000, teams: new Set([created.id]) },
    });
    try {
      // Its first pass found the team's endpoint and took the lease that makes the team's commits announced.
      const end = Date.now() + 10_000;
      const leased = async () =>
        Boolean(
          await server
            .db('team_event_heads')
            .where({ team_id: created.id })
            .where('watched_until', '>', server.db.fn.now())
            .first(),
        );
      while (!(await leased()) && Date.now() < end) await sleep(20);
      const took: number[] = [];
      for (let n = 0; n < 5; n++) {
        const sent = performance.now();
        const made = await ok(api, 'POST', '/locations', { name: `Woken ${n}` });
        while (!events(at('/wake-on-commit')).some((e) => e.recordId === made.id) && performance.now() - sent < 5_000)
          await sleep(2);
        took.push(performance.now() - sent);
      }
      console.info(`write-to-delivery through another instance: ${took.map((t) => t.toFixed(0)).join(', ')} ms`);
      expect(events(at('/wake-on-commit'))).toHaveLength(5);
      expect(Math.max(...took)).toBeLessThan(2_000);
    } finally {
      await delivering.close();
    }
  });
});

describe('two instances on one database', () => {
  it('deliver each event exactly once per endpoint, as one delivery', async () => {
    const { api, key } = await team();
    const pairAll = await createHook(api, '/pair-all');
    const pairCars = await createHook(api, '/pair-cars', ['car.created']);
    // Two servers on PostgreSQL, each with its background dispatcher; on PGlite (one process's database)
    // two dispatchers beside the one server. A generous timeout: a busy test process (PGlite blocks the
    // event loop) must not turn a slow 200 into a legitimate retry, which this test would count twice.
    const pair = { ...FAST, timeoutMs: 10_000 };
    const servers = databaseUrl
      ? await Promise.all([1, 2].map(() => startTestServer({ databaseUrl, webhooks: { ...pair, dispatch: true } })))
      : [];
    const dispatchers = databaseUrl
      ? []
      : [1, 2].map(
          () => new WebhookDispatcher({ db: server.db, now: () => new Date(), events: server.services.events }, pair),
        );
    for (const d of dispatchers) d.start();
    try {
      // Writes spread over the instances, as a balancer would.
      const writers = servers.length > 0 ? servers.map((s) => apiCaller(s.baseUrl, key)) : [api];
      const cars = await Promise.all(
        Array.from({ length: 24 }, (_, n) =>
          ok(writers[n % writers.length] as ApiCaller, 'POST', '/cars', {
            year: 1950 + n,
            make: 'Pair',
            model: `${n}`,
          }),
        ),
      );
      const deadline = Date.now() + 20_000;
      while ((at('/pair-all').length < 24 || at('/pair-cars').length < 24) && Date.now() < deadline) await sleep(50);
      // Both instances keep passing a while: nothing may go out twice.
      await sleep(500);
      for (const [path, hook] of [
        ['/pair-all', pairAll],
        ['/pair-cars', pairCars],
      ] as const) {
        const ids = at(path).map((r) => r.headers['vsf-event-id']);
        expect(ids).toHaveLength(24);
        expect(new Set(ids).size).toBe(24);
        expect(new Set(events(at(path)).map((e) => e.recordId))).toEqual(new Set(cars.map((c) => c.id)));
        const log = await deliveries(api, hook.id);
        expect(log.total).toBe(24);
        expect(new Set(log.data.map((d) => d.eventId))).toEqual(new Set(ids));
        expect(log.data.every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
      }
    } finally {
      await Promise.all([...dispatchers.map((d) => d.stop()), ...servers.map((s) => s.close())]);
    }
  });
});
