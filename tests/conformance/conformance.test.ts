import { isDeepStrictEqual } from 'node:util';
import { apiEndpoints } from '@vsf/contract';
import { UNIMPLEMENTED_OPERATIONS } from '@vsf/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalize } from './normalize.js';
import { client, covered, crudOf, refusal, urlOf } from './suite.js';
import { mockTarget, serverTarget, type Target } from './targets.js';

// One suite, run against the reference server and then against @vsf/testing's mock: each check asserts what
// a spec-following client relies on, and records what it saw (normalized); the last test requires the two
// runs to have seen the same. An operation the mock leaves out (501) is skipped on both and printed.
const seen: Record<Target['name'], Record<string, unknown>> = { server: {}, mock: {} };

function conformance(name: Target['name'], start: () => Promise<Target>) {
  describe(`conformance against the ${name}`, () => {
    let target: Target;
    const observe = (check: string, value: unknown) => {
      // As JSON: a page object also holds the function that fetches the next page.
      seen[name][check] = normalize(JSON.parse(JSON.stringify(value ?? null)));
    };
    beforeAll(async () => {
      target = await start();
    });
    afterAll(() => target?.close());

    it("every implemented resource's CRUD, generated from the contract", async () => {
      const api = client(target, 'all');
      for (const resource of covered) await crudOf(api, resource, observe);
      expect(Object.keys(seen[name]).filter((k) => k.endsWith('.create')).length).toBeGreaterThan(10);
    });

    it('answers authentication in the documented order, with the exact messages', async () => {
      const url = urlOf(target, apiEndpoints.listCars);
      const bare = await fetch(url);
      expect(bare.status).toBe(401);
      observe('no key', { body: await bare.json(), challenge: bare.headers.get('www-authenticate') });
      const malformed = await fetch(url, { headers: { authorization: 'Bearer not-a-key' } });
      observe('malformed key', await malformed.json());
      const revoked = await client(target, 'revoked').cars.list().catch(refusal);
      expect(revoked).toMatchObject({ status: 401, message: 'API key revoked' });
      const off = await client(target, 'off').cars.list().catch(refusal);
      expect(off).toMatchObject({ status: 403, message: 'API is disabled for this team' });
      const scope = await client(target, 'reader').cars.create({ year: 1967, make: 'Ford', model: 'T' }).catch(refusal);
      expect(scope).toMatchObject({ status: 403, message: 'Missing scope: write:cars' });
      const car = await client(target, 'carsOnly').cars.create({ year: 1967, make: 'Ford', model: 'T' });
      const field = await client(target, 'carsOnly')
        .cars.events.create(car.id, { activityType: 'drop_off', parkingZoneId: car.id })
        .catch(refusal);
      expect(field).toMatchObject({ status: 403, message: 'Missing scope: write:parking' });
      observe('auth', { revoked, off, scope, field });
    });

    it("answers validation errors with the server's details, and 404 for other teams' ids", async () => {
      const api = client(target, 'all');
      const body = await api.cars.create({ year: 1800, make: '', model: 'T', color: 3 } as never).catch(refusal);
      expect(body).toMatchObject({ status: 400, code: 'validation_error' });
      const unknown = await api.cars.create({ year: 1967, make: 'A', model: 'B', wings: 2 } as never).catch(refusal);
      const query = await api.cars.list({ limit: 500 }).catch(refusal);
      const reference = await api.cars
        .create({ year: 1967, make: 'A', model: 'B', customerId: crypto.randomUUID() })
        .catch(refusal);
      const theirs = await client(target, 'other').cars.create({ year: 1999, make: 'Other', model: 'Team' });
      const hidden = await api.cars.get(theirs.id).catch(refusal);
      expect(hidden).toMatchObject({ status: 404, message: 'Car not found' });
      const malformed = await api.cars.get('not-a-uuid').catch(refusal);
      observe('validation', { body, unknown, query, reference, hidden, malformed });
    });

    it('lists newest first, pages with page/limit/total, and filters by ids and updatedAfter', async () => {
      const api = client(target, 'other');
      const made = [];
      for (const make of ['One', 'Two', 'Three']) made.push(await api.cars.create({ year: 2001, make, model: 'List' }));
      const all = await api.cars.list({ limit: 2 });
      expect(all.data.map((c) => c.make)).toEqual(['Three', 'Two']);
      const second = await api.cars.list({ limit: 2, page: 2 });
      expect(second.data.map((c) => c.make)).toEqual(['One', 'Other']);
      const since = await api.cars.list({ updatedAfter: made[1]?.updatedAt as string });
      expect(since.data.map((c) => c.make)).toEqual(['Three', 'Two']);
      const ids = await api.cars.list({ ids: [made[0]?.id as string, crypto.randomUUID()] });
      const customer = await api.customers.create({ firstName: 'Gone', lastName: 'Soon' });
      await api.customers.delete(customer.id);
      const hiddenDeleted = await api.customers.list({ ids: [customer.id] });
      const withDeleted = await api.customers.list({ ids: [customer.id], includeDeleted: true });
      const sync = await api.customers.list({ updatedAfter: customer.createdAt as string });
      expect(sync.data[0]?.deletedAt).not.toBeNull();
      observe('lists', { all, second, since, ids, hiddenDeleted, withDeleted, sync });
    });

    it('replays an Idempotency-Key and refuses it with another body', async () => {
      const api = client(target, 'all');
      const body = { year: 1955, make: 'Idem', model: 'Potent' };
      const first = await api.cars.create(body, { idempotencyKey: 'conformance-1' }).withResponse();
      const again = await api.cars.create(body, { idempotencyKey: 'conformance-1' }).withResponse();
      expect(again.data.id).toBe(first.data.id);
      expect(again.response.headers.get('idempotent-replayed')).toBe('true');
      const other = await api.cars
        .create({ ...body, model: 'Other' }, { idempotencyKey: 'conformance-1' })
        .catch(refusal);
      expect(other).toMatchObject({ status: 409, details: { reason: 'idempotency_key_reused' } });
      observe('idempotency', { first: first.data, again: again.data, other });
    });

    it('parks one car per spot, frees it on pick-up, and records the moves as events', async () => {
      const api = client(target, 'other');
      const { nextCursor } = await api.events.list({ limit: 0 });
      const zone = await api.parking.zones.create({ name: 'Hall C' });
      const spot = await api.parking.spots.create({ name: 'C-1', parkingZoneId: zone.id });
      const [one, two] = [
        await api.cars.create({ year: 1990, make: 'Park', model: 'One' }),
        await api.cars.create({ year: 1990, make: 'Park', model: 'Two' }),
      ];
      const dropOff = await api.cars.events.create(one.id, { activityType: 'drop_off', parkingSpotId: spot.id });
      const taken = await api.cars.events
        .create(two.id, { activityType: 'drop_off', parkingSpotId: spot.id })
        .catch(refusal);
      expect(taken).toMatchObject({ status: 409, details: { carId: one.id } });
      const parked = await api.cars.get(one.id);
      await api.cars.events.create(one.id, { activityType: 'pick_up' });
      const freed = await api.parking.spots.get(spot.id);
      expect(freed.carId).toBeNull();
      const stays = await api.parking.assignments.list({ carId: one.id });
      const events = await api.events.list({ after: nextCursor });
      observe('parking', { dropOff, taken, parked, freed, stays, events: events.data.map((e) => e.type) });
    });

    it('keeps message drafts editable and discardable', async () => {
      const api = client(target, 'other');
      const customer = await api.customers.create({ firstName: 'Dee', lastName: 'Raft', email: 'dee@example.com' });
      const thread = await api.communicationThreads.create({
        customerId: customer.id,
        channel: 'email',
        subject: 'Hi',
      });
      const draft = await api.communicationThreads.messages.create(thread.id, { body: 'Hello' });
      expect(draft.status).toBe('draft');
      const edited = await api.communicationThreads.messages.update(thread.id, draft.id, { body: 'Hello again' });
      const discarded = await api.communicationThreads.messages.delete(thread.id, draft.id);
      observe('drafts', { draft, edited, discarded });
    });
  });
}

conformance('server', serverTarget);
conformance('mock', mockTarget);

describe('the two runs', () => {
  it('saw the same answers from the server and from the mock', () => {
    const left = Object.keys(UNIMPLEMENTED_OPERATIONS);
    console.log(`Operations the mock answers 501 (${left.length}), skipped on both:\n  ${left.join('\n  ')}`);
    const unsampled = Object.keys(seen.server).filter((check) => check.endsWith(': no sample'));
    console.log(
      `Resources whose create body no sample could be built for (${unsampled.length}): ${unsampled.join(', ')}`,
    );
    expect(Object.keys(seen.mock)).toEqual(Object.keys(seen.server));
    const differ = Object.keys(seen.server).filter((check) => !isDeepStrictEqual(seen.mock[check], seen.server[check]));
    for (const check of differ) {
      console.log(`${check} differs:\n${differences(seen.server[check], seen.mock[check]).join('\n')}`);
    }
    expect(differ).toEqual([]);
  });
});

/** `path: server value ≠ mock value`, for each leaf where the two answers differ. */
function differences(server: unknown, mock: unknown, path = ''): string[] {
  if (isDeepStrictEqual(server, mock)) return [];
  if (server && mock && typeof server === 'object' && typeof mock === 'object') {
    const keys = new Set([...Object.keys(server), ...Object.keys(mock)]);
    return [...keys].flatMap((key) =>
      differences((server as Record<string, unknown>)[key], (mock as Record<string, unknown>)[key], `${path}.${key}`),
    );
  }
  return [`  ${path || '(whole)'}: server ${JSON.stringify(server)} ≠ mock ${JSON.stringify(mock)}`];
}
