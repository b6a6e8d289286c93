import { AuthenticationError, apiEndpoints, ConflictError, InternalServerError, VsfClient } from '@vsf/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../src/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const tomorrow = new Date(Date.now() + 86_400_000).toISOString();

function mock() {
  const api = createMockApi({
    keys: {
      all: ['read:cars', 'write:cars', 'read:customers', 'write:customers'],
      cars: ['read:cars'],
      shortLived: { scopes: ['read:cars'], expiresAt: tomorrow },
      elsewhere: { scopes: ['read:cars', 'write:cars'], team: 'other' },
    },
  });
  server.use(...api.handlers);
  const client = (key: string) => new VsfClient({ apiKey: api.keys[key], logLevel: 'off', maxRetries: 0 });
  return { api, client };
}

describe('the events feed', () => {
  it('lists writes in order, only of resources the key can read, and follow waits for the next', async () => {
    const { client } = mock();
    const all = client('all');
    const { nextCursor } = await all.events.list({ limit: 0 });
    const car = await all.cars.create({ year: 1967, make: 'Ford', model: 'Mustang' });
    await all.customers.create({ firstName: 'Ada', lastName: 'Lovelace' });
    await all.cars.update(car.id, { color: 'red' });
    const seen = await client('cars').events.list({ after: nextCursor });
    expect(seen.data.map((e) => [e.type, e.recordId])).toEqual([
      ['car.created', car.id],
      ['car.updated', car.id],
    ]);
    expect(seen.data[1]?.data).toMatchObject({ color: 'red' });

    const followed: string[] = [];
    const follower = (async () => {
      for await (const event of client('cars').events.follow({ after: seen.nextCursor })) {
        followed.push(event.type);
        break;
      }
    })();
    await all.cars.create({ year: 1990, make: 'Mazda', model: 'Miata' });
    await follower;
    expect(followed).toEqual(['car.created']);
  });
});

describe('keys', () => {
  it('expire on the mock clock, and keep other teams’ ids unknown', async () => {
    const { api, client } = mock();
    expect((await client('shortLived').auth.getKey()).expiresAt).toBe(tomorrow);
    api.clock.advance(2 * 86_400_000);
    const expired = await client('shortLived')
      .cars.list()
      .catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(AuthenticationError);
    expect((expired as AuthenticationError).message).toContain('API key expired');
    const theirs = await client('elsewhere').cars.create({ year: 1999, make: 'Other', model: 'Team' });
    expect(
      (await client('all')
        .cars.get(theirs.id)
        .catch((e: unknown) => e)) as Error,
    ).toMatchObject({
      status: 404,
      message: expect.stringContaining('Car not found'),
    });
  });

  it('refuses unknown scopes and keys by name', () => {
    expect(() => createMockApi({ keys: { bad: ['read:boats' as never] } })).toThrow(/unknown scopes read:boats/);
    expect(() => createMockApi({ keys: { a: [] } }).revokeKey('b')).toThrow(/no key "b"; declared: a/);
  });
});

describe('idempotency and failures', () => {
  it('replays a key with the same body and refuses it with another', async () => {
    const { client } = mock();
    const cars = client('all').cars;
    const one = await cars.create({ year: 1955, make: 'A', model: 'B' }, { idempotencyKey: 'k1' });
    expect((await cars.create({ year: 1955, make: 'A', model: 'B' }, { idempotencyKey: 'k1' })).id).toBe(one.id);
    const reused = await cars.create({ year: 1956, make: 'A', model: 'B' }, { idempotencyKey: 'k1' }).catch((e) => e);
    expect(reused).toBeInstanceOf(ConflictError);
    expect((reused as ConflictError).details).toEqual({ reason: 'idempotency_key_reused' });
  });

  it('injects network errors and delays, and answers 501 naming what it does not model', async () => {
    const { api, client } = mock();
    api.failNext(1, { networkError: true });
    await expect(client('cars').cars.list()).rejects.toThrow();
    api.failNext(1, { delayMs: 20 });
    expect((await client('cars').cars.list()).total).toBe(0);
    const media = await client('all')
      .request(apiEndpoints.downloadMedia, { params: { mediaId: crypto.randomUUID() } })
      .catch((e: unknown) => e);
    expect(media).toBeInstanceOf(InternalServerError);
    expect((media as InternalServerError).status).toBe(501);
    expect((media as Error).message).toContain(
      "downloadMedia (the mock keeps no image bytes) is not implemented by @vsf/testing's mock API",
    );
  });

  it('refuses a seed that is not a record', () => {
    const { api } = mock();
    expect(() => api.seed('cars', [{ make: 'No year' }])).toThrow(/seed\('cars'\): record 0 is not a Car: year/);
    expect(() => api.seed('boats', [])).toThrow(/No resource "boats"/);
  });
});
