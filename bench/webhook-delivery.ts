import { createKey, createTeam } from './lib/admin-keys.js';
import type { BenchContext } from './lib/bench-context.js';
import { type Figure, figure } from './lib/figure.js';
import { type BenchReceiver, startBenchReceiver } from './lib/webhook-receiver.js';

/** Writes timed one at a time, each to its delivery. */
const WRITES = 60;
/** The other team's endpoints that never answer (the starvation scenario; the cap is 50 a team). */
const DEAD_ENDPOINTS = 40;
/** Writes of the other team before the healthy team's: a backlog of deliveries due at every dead endpoint. */
const DEAD_BACKLOG_WRITES = 5;
/** The dispatcher looks up the teams with endpoints every 10 s; their commits wake it from then on. */
const WATCH_CHECK_MS = 10_000;
const SCOPES = ['read:cars', 'write:cars', 'read:webhooks', 'write:webhooks'];

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)] as number;
};

/**
 * Webhook deliveries as a receiver sees them, from the write's request to the event's arrival, one write at a
 * time on a server otherwise idle (the dispatcher wakes on the team's commit, not on its one-second poll):
 * p50 and p99 against the write's own latency; then the same while another team has 40 endpoints that never
 * answer, each attempt holding a slot until its 10 s timeout, with a backlog due at every one of them.
 */
export async function webhookDelivery(ctx: BenchContext): Promise<Figure[]> {
  const { server } = ctx;
  const receiver = await startBenchReceiver();
  const hooks: { key: string; id: string }[] = [];
  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as { data: { id: string } }).data : undefined;
  };
  const hook = async (key: string, path: string, eventTypes: string[]) => {
    const made = await call(key, 'POST', '/webhooks', { url: `${receiver.url}${path}`, eventTypes });
    hooks.push({ key, id: (made as { id: string }).id });
  };
  try {
    const healthy = await createKey(server, await createTeam(server, 'Bench webhooks'), SCOPES);
    await hook(healthy, '/healthy', ['car.created']);
    const timed = (n: number) => deliveries(n, receiver, (body) => call(healthy, 'POST', '/cars', body));
    await timed(3); // the endpoint works
    await new Promise((resolve) => setTimeout(resolve, WATCH_CHECK_MS + 1_000));
    const idle = await timed(WRITES);
    ctx.log(
      `webhook delivery, idle: p50 ${idle.p50.toFixed(0)} ms, p99 ${idle.p99.toFixed(0)} ms (write p50 ${idle.writeP50.toFixed(0)} ms)`,
    );

    const dead = await createKey(server, await createTeam(server, 'Bench dead receivers'), SCOPES);
    for (let n = 0; n < DEAD_ENDPOINTS; n++) await hook(dead, `/dead/${n}`, ['*']);
    for (let n = 0; n < DEAD_BACKLOG_WRITES; n++)
      await call(dead, 'POST', '/cars', { year: 2000, make: 'Dead', model: `Backlog ${n}` });
    // The dead team's attempts hold their slots before the healthy team writes.
    const busy = Date.now() + 30_000;
    while (receiver.held < 8 && Date.now() < busy) await new Promise((resolve) => setTimeout(resolve, 50));
    const starved = await timed(WRITES / 2);
    ctx.log(
      `webhook delivery beside ${DEAD_ENDPOINTS} dead endpoints: p50 ${starved.p50.toFixed(0)} ms, p99 ${starved.p99.toFixed(0)} ms (${receiver.held} attempts held)`,
    );
    const floorIs = (p: string) =>
      `the write’s own ${p} (POST /cars, request to response), in the same loop; the delivery is timed from that request`;
    return [
      figure({
        id: 'webhook-delivery-p50',
        title: `Webhook write-to-delivery p50 of ${WRITES}, healthy receiver, idle server`,
        unit: 'ms',
        value: idle.p50,
        floor: idle.writeP50,
        comparison: '<=',
        target: 100,
        targetOn: 'value',
        floorIs: floorIs('p50'),
        details: idle.details,
      }),
      figure({
        id: 'webhook-delivery-p99',
        title: `Webhook write-to-delivery p99 of ${WRITES}, healthy receiver, idle server`,
        unit: 'ms',
        value: idle.p99,
        floor: idle.writeP99,
        comparison: '<=',
        target: 500,
        targetOn: 'value',
        floorIs: floorIs('p99'),
        details: idle.details,
      }),
      figure({
        id: 'webhook-fair-p99',
        title: `A healthy team's webhook delivery p99 while another team has ${DEAD_ENDPOINTS} endpoints that never answer`,
        unit: 'ms',
        value: starved.p99,
        floor: idle.p99,
        comparison: '<=',
        target: 2000,
        targetOn: 'value',
        floorIs: 'the same delivery on the idle server, measured just before',
        details: { ...starved.details, attemptsHeldByDeadEndpoints: receiver.held },
      }),
    ];
  } finally {
    // Nothing of this stage may keep the dispatcher busy in the next.
    for (const { key, id } of hooks) await call(key, 'DELETE', `/webhooks/${id}`).catch(() => {});
    await receiver.close();
  }
}

/** `n` writes one at a time, each timed from its request to its event's arrival at the receiver. */
async function deliveries(
  n: number,
  receiver: BenchReceiver,
  write: (body: unknown) => Promise<{ id: string } | undefined>,
) {
  const delivered: number[] = [];
  const writes: number[] = [];
  for (let i = 0; i < n; i++) {
    const sent = performance.now();
    const car = await write({ year: 2020, make: 'Bench', model: `Delivered ${i}` });
    writes.push(performance.now() - sent);
    delivered.push((await receiver.arrival((car as { id: string }).id)) - sent);
  }
  const p50 = percentile(delivered, 0.5);
  const p99 = percentile(delivered, 0.99);
  return {
    p50,
    p99,
    writeP50: percentile(writes, 0.5),
    writeP99: percentile(writes, 0.99),
    details: {
      p50Ms: Math.round(p50),
      p99Ms: Math.round(p99),
      maxMs: Math.round(Math.max(...delivered)),
      writeP50Ms: Math.round(percentile(writes, 0.5)),
      writes: n,
    },
  };
}
