import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/http/json-safety.js';
import type { TestServer } from '../src/testing/index.js';
import { type ApiCaller, isApiError } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';
import { snapshotTeamData } from './support/team-snapshot.js';

// Inputs an outside review found answering 500 (issue #15): each must be a 400 ApiError (or 404/413/415)
// that changes nothing. The fuzz suite generates these classes for every field; these name the cases.
let server: TestServer;
let api: ApiCaller;
let key: string;
let teamId: string;
let eventTypeId: string;

teamServer(async (team) => {
  ({ server, api, key, teamId } = team);
  eventTypeId = (await api('GET', '/event-types')).body.data[0].id;
});

const car = { year: 1967, make: 'Ford', model: 'Mustang' };

/** Sends the request and asserts the refusal: the status, the ApiError shape, and no row changed. */
async function expectRefused(
  status: number,
  send: () => Promise<{ status: number; body: unknown }>,
): Promise<{ status: number; body: { error: string; code: string; details: { path: string; message: string }[] } }> {
  const before = await snapshotTeamData(server.db, teamId);
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(isApiError(res.body), JSON.stringify(res.body)).toBe(true);
  expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  return res as never;
}

const paths = (body: { details: { path: string }[] }) => body.details.map((d) => d.path);

describe('integers the database cannot hold', () => {
  it.each([
    ['/cars', { ...car, mileage: 2 ** 31 }, 'mileage'],
    ['/cars', { ...car, mileage: -(2 ** 31) - 1 }, 'mileage'],
    ['/locations', { name: 'L', sortOrder: 2 ** 31 }, 'sortOrder'],
    ['/parking-zones', { name: 'Z', capacity: 2 ** 31 }, 'capacity'],
    ['/cars', { ...car, declaredValueCents: 2 ** 53 }, 'declaredValueCents'],
  ])('POST %s %j is 400 naming the field', async (path, body, field) => {
    const res = await expectRefused(400, () => api('POST', path, { body }));
    expect(paths(res.body)).toEqual([field]);
  });

  it('refuses durationMinutes past int4 and a page past int4', async () => {
    const res = await expectRefused(400, () =>
      api('POST', '/appointment-types', { body: { name: 'T', eventTypeId, durationMinutes: 2 ** 31 } }),
    );
    expect(paths(res.body)).toEqual(['durationMinutes']);
    await expectRefused(400, () => api('GET', '/cars', { query: { page: String(2 ** 31) } }));
  });

  it('stores the largest int4 and a bigint declared value', async () => {
    const res = await api('POST', '/cars', { body: { ...car, mileage: 2 ** 31 - 1, declaredValueCents: 2 ** 40 } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ mileage: 2 ** 31 - 1, declaredValueCents: 2 ** 40 });
    expect((await api('GET', '/cars', { query: { page: String(2 ** 31 - 1) } })).body.data).toEqual([]);
  });
});

describe('strings longer than their column or index holds', () => {
  it.each([
    ['/cars', 'vin', { ...car, vin: 'V'.repeat(3000) }],
    ['/cars', 'stockNumber', { ...car, stockNumber: 'S'.repeat(10_000) }],
    ['/customers', 'address', { firstName: 'A', lastName: 'B', address: 'x'.repeat(501) }],
  ])('POST %s with a long %s is 400', async (path, field, body) => {
    const res = await expectRefused(400, () => api('POST', path, { body }));
    expect(paths(res.body)).toEqual([field]);
  });

  it('refuses a 3 000-character spot name and a long filter', async () => {
    const zone = (await api('POST', '/parking-zones', { body: { name: 'Long names' } })).body.data.id;
    const res = await expectRefused(400, () =>
      api('POST', '/parking-spots', { body: { name: 'A'.repeat(3000), parkingZoneId: zone } }),
    );
    expect(paths(res.body)).toEqual(['name']);
    await expectRefused(400, () => api('GET', '/cars', { query: { vin: 'V'.repeat(3000) } }));
  });

  it('stores an indexed value at its limit in 4-byte characters', async () => {
    const vin = '😀'.repeat(200); // 200 code points, 800 bytes of UTF-8: well under a btree entry
    const res = await api('POST', '/cars', { body: { ...car, vin, stockNumber: '𝔖'.repeat(200) } });
    expect(res.status).toBe(201);
    expect((await api('GET', '/cars', { query: { vin } })).body.data.map((c: { id: string }) => c.id)).toEqual([
      res.body.data.id,
    ]);
  });
});

describe('NUL characters', () => {
  it('in a body string, a free-form value and a free-form key are 400 naming the path', async () => {
    let res = await expectRefused(400, () => api('POST', '/cars', { body: { ...car, make: 'Fo\u0000rd' } }));
    expect(paths(res.body)).toEqual(['make']);
    const form = await api('POST', '/marketing/forms', {
      body: { name: 'NUL', fields: [{ key: 'note', label: 'Note', type: 'text' }] },
    });
    const submit = (body: unknown) => api('POST', `/marketing/forms/${form.body.data.id}/submissions`, { body });
    res = await expectRefused(400, () => submit({ values: { note: 'a\u0000' } }));
    expect(paths(res.body)).toEqual(['values.note']);
    res = await expectRefused(400, () => submit({ values: {}, metadata: { page: { 'ref\u0000': 'x' } } }));
    expect(paths(res.body)).toEqual(['metadata.page.ref\\u0000']);
    res = await expectRefused(400, () => submit({ values: {}, metadata: { tags: ['ok', '\u0000'] } }));
    expect(paths(res.body)).toEqual(['metadata.tags.1']);
  });

  it('in a query filter is 400 naming the parameter', async () => {
    const res = await expectRefused(400, () => api('GET', '/cars', { query: { vin: 'A\u0000B' } }));
    expect(paths(res.body)).toEqual(['vin']);
    await expectRefused(400, () => api('GET', '/customers', { query: { email: '\u0000' } }));
  });

  it('in a path id is the 404 of any malformed id', async () => {
    await expectRefused(404, () => api('GET', '/cars/%00'));
  });
});

describe('dates the database or the sync cannot hold', () => {
  it.each(['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '-000001-01-01T00:00:00Z', '10000-01-01T00:00:00Z'])(
    '%s is 400 in updatedAfter, the calendar and an appointment',
    async (at) => {
      let res = await expectRefused(400, () => api('GET', '/cars', { query: { updatedAfter: at } }));
      expect(new Set(paths(res.body))).toEqual(new Set(['updatedAfter']));
      res = await expectRefused(400, () =>
        api('GET', '/marketing/calendar', { query: { from: at, to: '2026-01-01T00:00:00Z' } }),
      );
      expect(paths(res.body)).toContain('from');
      const carId = (await api('POST', '/cars', { body: car })).body.data.id;
      res = await expectRefused(400, () =>
        api('POST', '/appointments', {
          body: { eventTypeId, carId, startAt: at, endAt: '2026-01-01T01:00:00Z' },
        }),
      );
      expect(paths(res.body)).toContain('startAt');
    },
  );
});

describe('bodies that break a parser', () => {
  it(`refuses JSON nested 10 000 deep, and deeper than ${MAX_JSON_DEPTH}, with 400`, async () => {
    const deep = `{"year":1967,"make":"F","model":"M","trim":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await expectRefused(400, () => api('POST', '/cars', { rawBody: deep }));
    expect(res.body.details[0]?.message).toContain(`deeper than ${MAX_JSON_DEPTH}`);
    const justOver = `{"values":{},"metadata":{"a":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}}`;
    const form = (await api('POST', '/marketing/forms', { body: { name: 'Deep', fields: [] } })).body.data.id;
    await expectRefused(400, () => api('POST', `/marketing/forms/${form}/submissions`, { rawBody: justOver }));
    const fits = `{"values":{},"metadata":{"a":${'['.repeat(MAX_JSON_DEPTH - 3)}${']'.repeat(MAX_JSON_DEPTH - 3)}}}`;
    expect((await api('POST', `/marketing/forms/${form}/submissions`, { rawBody: fits })).status).toBe(201);
  });

  const post = (body: string | Uint8Array, headers: Record<string, string>, withKey = true) =>
    fetch(`${server.baseUrl}/cars`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(withKey ? { authorization: `Bearer ${key}` } : {}),
        ...headers,
      },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: { model: string } } }));

  it.each(['gzip', 'br', 'deflate'])('refuses Content-Encoding %s over a plain body with 400', async (encoding) => {
    const res = await expectRefused(400, () => post(JSON.stringify(car), { 'content-encoding': encoding }));
    expect(res.body).toMatchObject({ code: 'invalid_json' });
    expect(res.body.error).toContain(encoding);
  });

  it('accepts a gzip-encoded JSON body', async () => {
    const res = await post(gzipSync(JSON.stringify({ ...car, model: 'Gzipped' })), { 'content-encoding': 'gzip' });
    expect(res.status).toBe(201);
    expect(res.body.data.model).toBe('Gzipped');
  });

  it('refuses an unknown Content-Encoding and a non-UTF-8 charset with 415', async () => {
    let res = await expectRefused(415, () => post(JSON.stringify(car), { 'content-encoding': 'compress' }));
    expect(res.body).toMatchObject({ code: 'unsupported_media_type', details: null });
    res = await expectRefused(415, () =>
      post(JSON.stringify(car), { 'content-type': 'application/json; charset=latin1' }),
    );
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('refuses a gzip body that inflates past 5 MB with 413', async () => {
    const bomb = gzipSync(JSON.stringify({ ...car, trim: 'x'.repeat(6 * 1024 * 1024) }));
    expect(bomb.byteLength).toBeLessThan(100_000);
    const res = await expectRefused(413, () => post(bomb, { 'content-encoding': 'gzip' }));
    expect(res.body.code).toBe('payload_too_large');
  });

  it('answers an unauthenticated or unauthorised 5 MB body without parsing it', async () => {
    const garbage = `{${'x'.repeat(5 * 1024 * 1024 - 10)}`; // invalid JSON: parsed, it would be a 400
    expect((await expectRefused(401, () => post(garbage, {}, false))).body.error).toBe('API key required');
    expect(
      (await expectRefused(401, () => post(garbage, { authorization: 'Bearer vsf_nope.nope' }, false))).status,
    ).toBe(401);
    const readOnly = await server.createKey(teamId, ['read:cars']);
    const res = await expectRefused(403, () => post(garbage, { authorization: `Bearer ${readOnly.key}` }, false));
    expect(res.body.code).toBe('forbidden');
    const admin = await fetch(`${server.adminBaseUrl}/teams`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer wrong-token-wrong-token' },
      body: garbage,
    });
    expect(admin.status).toBe(401);
  });
});

describe('object-prototype names', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'GET /admin/assets/%s is 404',
    async (name) => {
      const res = await fetch(`${server.origin}/admin/assets/${name}`);
      expect(res.status).toBe(404);
      expect(isApiError(await res.json())).toBe(true);
    },
  );

  it('a form field named constructor is answered only by the submission', async () => {
    const form = await api('POST', '/marketing/forms', {
      body: { name: 'Proto', fields: [{ key: 'constructor', label: 'Builder', type: 'text', required: true }] },
    });
    const res = await expectRefused(400, () =>
      api('POST', `/marketing/forms/${form.body.data.id}/submissions`, { body: { values: {} } }),
    );
    expect(res.body.details).toEqual([{ path: 'values.constructor', message: 'Builder is required' }]);
  });
});
