import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../src/testing/index.js';
import type { ApiCaller } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';

// N concurrent clients send mixed reads and writes for a fixed, bounded time. Every acknowledged write
// is remembered; afterwards each record must hold, in the database, exactly the values of its last
// acknowledged write, and no request may have answered 5xx (or any other error: every request is
// valid). Each client only changes records it created, so "last acknowledged" is well defined.
// Latencies are printed, never asserted. VSF_STRESS=1 runs more clients for longer.
const STRESS = Boolean(process.env.VSF_STRESS);
const CLIENTS = STRESS ? 32 : 16;
const DURATION_MS = STRESS ? 30_000 : 3_000;
/** Every client does at least this much even on a machine too busy to do it in time (two creates first). */
const MIN_OPS = 6;

let server: TestServer;
let teamId: string;
let api: ApiCaller;

teamServer((team) => {
  ({ server, api, teamId } = team);
});

type Values = Record<string, string | number | null>;

interface Ledger {
  /** Record id → the values its last acknowledged write set (API field names). */
  cars: Map<string, Values>;
  customers: Map<string, Values>;
  latencies: number[];
  counts: Record<string, number>;
  errors: string[];
}

async function client(n: number, deadline: number, ledger: Ledger) {
  const mine = { cars: [] as string[], customers: [] as string[] };
  const timed = async (op: string, method: string, path: string, options: Parameters<ApiCaller>[2] = {}) => {
    const started = performance.now();
    const res = await api(method, path, options);
    ledger.latencies.push(performance.now() - started);
    ledger.counts[op] = (ledger.counts[op] ?? 0) + 1;
    if (res.status >= 300) ledger.errors.push(`${op} ${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  /** The response must echo what was written; then it counts as acknowledged. */
  const acknowledge = (table: Map<string, Values>, id: string, values: Values, echoed: Record<string, unknown>) => {
    for (const [field, value] of Object.entries(values)) {
      if (echoed[field] !== value) ledger.errors.push(`${id}.${field}: wrote ${value}, response says ${echoed[field]}`);
    }
    table.set(id, { ...table.get(id), ...values });
  };
  const pick = (ids: string[], i: number) => ids[i % ids.length] as string;

  for (let i = 0; Date.now() < deadline || i < MIN_OPS; i++) {
    const roll = (i * 7 + n) % 10;
    if (roll === 0 || mine.customers.length === 0) {
      const values = { firstName: `Load${n}`, lastName: `L${i}`, city: null };
      const res = await timed('createCustomer', 'POST', '/customers', { body: values });
      if (res.status === 201) {
        mine.customers.push(res.body.data.id);
        acknowledge(ledger.customers, res.body.data.id, values, res.body.data);
      }
    } else if (roll <= 2 || mine.cars.length === 0) {
      const values = { year: 1990 + (i % 30), make: `Make${n}`, model: `M${i}`, color: null, mileage: null };
      const customerId = pick(mine.customers, i);
      const res = await timed('createCar', 'POST', '/cars', { body: { ...values, customerId } });
      if (res.status === 201) {
        mine.cars.push(res.body.data.id);
        acknowledge(ledger.cars, res.body.data.id, { ...values, customerId }, res.body.data);
      }
    } else if (roll <= 4) {
      const id = pick(mine.cars, i);
      const values = { color: `c${n}-${i}`, mileage: i };
      const res = await timed('updateCar', 'PATCH', `/cars/${id}`, { body: values });
      if (res.status === 200) acknowledge(ledger.cars, id, values, res.body.data);
    } else if (roll === 5) {
      const id = pick(mine.customers, i);
      const values = { city: `City ${n}-${i}` };
      const res = await timed('updateCustomer', 'PATCH', `/customers/${id}`, { body: values });
      if (res.status === 200) acknowledge(ledger.customers, id, values, res.body.data);
    } else if (roll <= 7) {
      await timed('listCars', 'GET', '/cars', { query: { limit: '50', page: String(1 + (i % 3)) } });
    } else if (roll === 8) {
      await timed('listCustomers', 'GET', '/customers', { query: { limit: '50' } });
    } else {
      const res = await timed('getCar', 'GET', `/cars/${pick(mine.cars, i)}`);
      if (res.status === 200 && res.body.data.id !== pick(mine.cars, i))
        ledger.errors.push('getCar returned another car');
    }
  }
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

describe('load', () => {
  it(`${CLIENTS} clients for ${DURATION_MS / 1000} s: no 5xx, every acknowledged write stored with its last value`, async () => {
    const ledger: Ledger = { cars: new Map(), customers: new Map(), latencies: [], counts: {}, errors: [] };
    const started = Date.now();
    const deadline = started + DURATION_MS;
    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n, deadline, ledger)));
    const seconds = (Date.now() - started) / 1000;

    // Read back from the database, not the API: the claim is about what was stored.
    let compared = 0;
    let lost = 0;
    for (const [table, written] of [
      ['cars', ledger.cars],
      ['customers', ledger.customers],
    ] as const) {
      const rows = new Map(
        ((await server.db(table).where({ team_id: teamId })) as Record<string, unknown>[]).map((r) => [r.id, r]),
      );
      for (const [id, values] of written) {
        compared++;
        const row = rows.get(id);
        if (!row) {
          lost++;
          ledger.errors.push(`${table} ${id} acknowledged but not stored`);
          continue;
        }
        for (const [field, value] of Object.entries(values)) {
          const stored = row[snake(field)];
          if (stored !== value) {
            lost++;
            ledger.errors.push(`${table} ${id}.${field}: last acknowledged ${value}, stored ${stored}`);
          }
        }
      }
      expect(rows.size, `${table}: rows nobody acknowledged`).toBe(written.size);
    }

    const sorted = [...ledger.latencies].sort((a, b) => a - b);
    const fivexx = ledger.errors.filter((e) => / → 5\d\d /.test(e)).length;
    console.log(
      `load (${server.engine}): ${sorted.length} requests by ${CLIENTS} clients in ${seconds.toFixed(1)} s ` +
        `(${Math.round(sorted.length / seconds)}/s; ${Object.entries(ledger.counts)
          .map(([op, c]) => `${op} ${c}`)
          .join(
            ', ',
          )}); p50 ${percentile(sorted, 0.5)?.toFixed(1)} ms, p99 ${percentile(sorted, 0.99)?.toFixed(1)} ms; ` +
        `${compared} acknowledged records compared; 5xx=${fivexx}, losses=${lost}`,
    );
    expect(ledger.errors.slice(0, 20)).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(2 * CLIENTS);
  }, 120_000);
});
