import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';

interface Page {
  data: { id: string; updatedAt: string; model: string }[];
  page: number;
  limit: number;
  total: number;
}

let server: TestServer;
let api: ApiCaller;
const created: { id: string; updatedAt: string }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const { key } = await server.createTeamWithKey(['read:cars', 'write:cars']);
  api = apiCaller(server.baseUrl, key);
  for (let i = 0; i < 7; i++) {
    const res = await api('POST', '/cars', { body: { year: 2000 + i, make: 'Make', model: `M${i}` } });
    created.push(res.body.data);
  }
});
afterAll(() => server?.close());

describe('list endpoints', () => {
  it('order most recently updated first with a stable tiebreak, and page until page*limit >= total', async () => {
    const seen: string[] = [];
    let page = 1;
    for (;;) {
      const res = await api<Page>('GET', '/cars', { query: { page: String(page), limit: '3' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ page, limit: 3, total: 7 });
      seen.push(...res.body.data.map((c) => c.id));
      if (page * 3 >= res.body.total) break;
      page++;
    }
    expect(page).toBe(3);
    const expected = [...created]
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id))
      .map((c) => c.id);
    expect(seen).toEqual(expected);
  });

  it('defaults to page 1 and limit 50', async () => {
    const res = await api<Page>('GET', '/cars');
    expect(res.body).toMatchObject({ page: 1, limit: 50, total: 7 });
  });

  it('moves an updated record to the front and bumps updatedAt', async () => {
    const target = created[0]!;
    const res = await api('PATCH', `/cars/${target.id}`, { body: { color: 'green' } });
    expect(res.body.data.updatedAt > target.updatedAt).toBe(true);
    const first = await api<Page>('GET', '/cars', { query: { limit: '1' } });
    expect(first.body.data[0]?.id).toBe(target.id);
  });

  it('treats updatedAfter as inclusive and requires a timezone offset', async () => {
    const list = await api<Page>('GET', '/cars', { query: { limit: '200' } });
    const pivot = list.body.data[3]!;
    const after = await api<Page>('GET', '/cars', { query: { updatedAfter: pivot.updatedAt } });
    expect(after.body.data.map((c) => c.id)).toContain(pivot.id);
    expect(after.body.data.every((c) => c.updatedAt >= pivot.updatedAt)).toBe(true);
    const offset = new Date(pivot.updatedAt);
    const withOffset = `${new Date(offset.getTime() + 2 * 3600_000).toISOString().slice(0, 23)}+02:00`;
    const same = await api<Page>('GET', '/cars', { query: { updatedAfter: withOffset } });
    expect(same.body.total).toBe(after.body.total);
    const local = await api('GET', '/cars', { query: { updatedAfter: '2026-01-01T00:00:00' } });
    expect(local.status).toBe(400);
    expect(local.body).toMatchObject({ code: 'validation_error', details: [{ path: 'updatedAfter' }] });
  });

  it('fetches specific records by ids, silently leaving out unknown ones', async () => {
    const ids = [created[1]!.id, created[2]!.id, '00000000-0000-4000-8000-000000000000'];
    const res = await api<Page>('GET', '/cars', { query: { ids: ids.join(',') } });
    expect(res.body.total).toBe(2);
    expect(res.body.data.map((c) => c.id).sort()).toEqual([created[1]!.id, created[2]!.id].sort());
  });

  // Decimal digits only: Number() would read 0x10, 1e3, ' 2' and 0b11 as 16, 1000, 2 and 3, and '' as 0.
  const badPages = ['0', '-1', 'two', '0x10', '1e3', ' 2'];
  const badLimits = ['', '0b11', '0', '201'];
  it.each<[query: Record<string, string>, path: string]>([
    ...badPages.map((page) => [{ page }, 'page'] as [Record<string, string>, string]),
    ...badLimits.map((limit) => [{ limit }, 'limit'] as [Record<string, string>, string]),
    [{ updatedAfter: 'yesterday' }, 'updatedAfter'],
    [{ ids: 'not-a-uuid' }, 'ids.0'],
    [{ ids: Array(201).fill('00000000-0000-4000-8000-000000000000').join(',') }, 'ids'],
    [{ colour: 'red' }, ''],
  ])('rejects %o with 400 validation_error', async (query, path) => {
    const res = await api('GET', '/cars', { query });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Validation failed', code: 'validation_error' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('accepts exactly 200 ids and limit 200', async () => {
    const res = await api<Page>('GET', '/cars', {
      query: { limit: '200', ids: Array(200).fill(created[0]!.id).join(',') },
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
  });

  it('returns an empty page past the end', async () => {
    const res = await api<Page>('GET', '/cars', { query: { page: '99' } });
    expect(res.body).toMatchObject({ data: [], page: 99, total: 7 });
  });
});

// Pages after the first are found by a keyset seek (team-scoped-table.ts); these pin it to exactly
// what OFFSET over the documented order returns, including where that order has ties.
describe('deep pages', () => {
  const TIES = ['2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.001Z', '2026-03-02T08:30:00.000Z'];
  interface Car {
    id: string;
    updatedAt: string;
    customerId: string | null;
  }
  let seekApi: ApiCaller;
  let customerId: string;
  let cars: Car[];

  const documentedOrder = (list: Car[]) =>
    [...list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id)).map((c) => c.id);

  async function allPages(limit: number, query: Record<string, string> = {}) {
    const pages: string[][] = [];
    for (let page = 1; ; page++) {
      const res = await seekApi<Page>('GET', '/cars', {
        query: { ...query, page: String(page), limit: String(limit) },
      });
      expect(res.status).toBe(200);
      pages.push(res.body.data.map((c) => c.id));
      if (page * limit >= res.body.total) return { pages, total: res.body.total };
    }
  }

  beforeAll(async () => {
    const { team, key } = await server.createTeamWithKey([
      'read:cars',
      'write:cars',
      'read:customers',
      'write:customers',
    ]);
    seekApi = apiCaller(server.baseUrl, key);
    customerId = (await seekApi('POST', '/customers', { body: { firstName: 'Tie', lastName: 'Breaker' } })).body.data
      .id;
    for (let i = 0; i < 23; i++) {
      const body = { year: 2010 + (i % 10), make: 'Make', model: `T${i}`, ...(i % 2 ? { customerId } : {}) };
      expect((await seekApi('POST', '/cars', { body })).status).toBe(201);
    }
    // Most cars share one of three timestamps, so page boundaries fall inside runs of equal updatedAt.
    const ids: { id: string }[] = await server.db('cars').where({ team_id: team.id }).select('id').orderBy('id');
    for (const [i, { id }] of ids.entries()) {
      if (i % 6 === 5) continue;
      await server
        .db('cars')
        .where({ id })
        .update({ updated_at: new Date(TIES[i % TIES.length]!) });
    }
    const list = await seekApi<{ data: Car[] }>('GET', '/cars', { query: { limit: '200' } });
    cars = list.body.data;
    expect(cars).toHaveLength(23);
  });

  it.each([1, 2, 4, 5, 7, 22, 23])(
    'at limit %i return every car once, in updatedAt desc, id desc order',
    async (limit) => {
      const { pages, total } = await allPages(limit);
      expect(total).toBe(23);
      expect(pages.flat()).toEqual(documentedOrder(cars));
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    },
  );

  it('returns an empty page with the true total one page past the end and far past it', async () => {
    for (const [page, limit] of [
      ['5', '5'],
      ['6', '5'],
      ['24', '1'],
      ['1000', '200'],
    ] as const) {
      const res = await seekApi<Page>('GET', '/cars', { query: { page, limit } });
      expect(res.status).toBe(200);
      const expected = documentedOrder(cars).slice((Number(page) - 1) * Number(limit), Number(page) * Number(limit));
      expect(res.body).toMatchObject({ page: Number(page), limit: Number(limit), total: 23 });
      expect(res.body.data.map((c) => c.id)).toEqual(expected);
    }
  });

  it('pages a filter combined with updatedAfter in the same order, with the filtered total', async () => {
    const updatedAfter = TIES[1]!;
    const expected = documentedOrder(cars.filter((c) => c.customerId === customerId && c.updatedAt >= updatedAfter));
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.length).toBeLessThan(cars.filter((c) => c.customerId === customerId).length);
    const { pages, total } = await allPages(3, { customerId, updatedAfter });
    expect(total).toBe(expected.length);
    expect(pages.flat()).toEqual(expected);
  });

  it('pages a list narrowed by ids', async () => {
    const ids = documentedOrder(cars).filter((_, i) => i % 3 === 0);
    const { pages, total } = await allPages(2, { ids: ids.join(',') });
    expect(total).toBe(ids.length);
    expect(pages.flat()).toEqual(ids);
  });
});
