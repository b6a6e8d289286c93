import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { openSink, type ResourceSpec, selectResources } from '@vsf/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CutProxy, startCutProxy } from './support/cut-proxy.js';
import { spawnVsf } from './support/run-vsf.js';

// `vsf sync --follow`, the built bin, while writers create, update, soft- and hard-delete records: the
// follower is SIGKILLed and restarted at random and its network cut and restored; at the end the mirror
// equals the server row by row, no row ever went back to an older version, and SIGTERM ends it with 0.
const ROUNDS = process.env.VSF_STRESS ? 240 : 60;
const names = ['cars', 'customers', 'locations'];
const home = mkdtempSync(join(tmpdir(), 'vsf-follow-'));
let server: TestServer;
let proxy: CutProxy;
let client: VsfClient;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  proxy = await startCutProxy(server.baseUrl);
  env = { ...process.env, VSF_API_KEY: key, VSF_BASE_URL: proxy.baseUrl, XDG_CONFIG_HOME: home };
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

interface Follower {
  child: ChildProcess;
  stderr: string;
  exited: Promise<number | null>;
}

function startFollower(to: string): Follower {
  const child = spawnVsf(['sync', '--follow', '--to', to, '--resources', names.join(',')], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const follower: Follower = { child, stderr: '', exited: new Promise((resolve) => child.once('exit', resolve)) };
  child.stderr?.on('data', (chunk: Buffer) => {
    follower.stderr += chunk.toString();
  });
  return follower;
}

async function serverRows(resource: ResourceSpec): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  const query = { limit: 200, ...(resource.includeDeleted ? { includeDeleted: true } : {}) };
  for await (const row of client.requestAll<Record<string, unknown>>(resource.route, { query })) {
    rows.push(Object.fromEntries(resource.columns.map((c) => [c.field, row[c.field] ?? null])));
  }
  return rows.sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

describe('vsf sync --follow', () => {
  it(`keeps the mirror equal to the server through ${ROUNDS} rounds of writes, kills and network cuts`, async () => {
    const to = `sqlite:${join(home, 'mirror.db')}`;
    const resources = selectResources(names);
    const reader = openSink(to);
    let follower = startFollower(to);
    let kills = 0;
    let cuts = 0;
    let regressions = 0;
    // Watches the mirror as it goes: a row's updatedAt never moves back (no change applied out of order).
    const seen = new Map<string, string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const resource of resources) {
          if (!(await reader.hasMirror(resource).catch(() => false))) continue;
          for (const row of await reader.readAll(resource).catch(() => [])) {
            const key = `${resource.name}/${row.id}`;
            const at = String(row.updatedAt ?? '');
            if ((seen.get(key) ?? '') > at) regressions++;
            seen.set(key, at);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const cars: string[] = [];
    const customers: string[] = [];
    const locations: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      cars.push((await client.cars.create({ year: 1950 + (round % 70), make: 'Follow', model: `M${round}` })).id);
      customers.push((await client.customers.create({ firstName: 'F', lastName: `L${round}` })).id);
      locations.push((await client.locations.create({ name: `Lot ${round}` })).id);
      await client.cars.update(cars[Math.floor(Math.random() * cars.length)] as string, { color: `c${round}` });
      if (round % 3 === 0) await client.customers.delete(customers[round] as string); // soft
      if (round % 4 === 0) await client.locations.delete(locations.splice(0, 1)[0] as string); // hard
      if (round % 5 === 0) await client.cars.update(cars[0] as string, { mileage: round });
      if (round % 15 === 7) {
        follower.child.kill('SIGKILL');
        await follower.exited;
        kills++;
        follower = startFollower(to);
      }
      if (round % 15 === 12) {
        await proxy.down();
        cuts++;
        await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700));
        await proxy.restore();
      }
    }

    // Caught up: the mirror equals the server.
    const deadline = Date.now() + 60_000;
    let equal = false;
    while (!equal && Date.now() < deadline) {
      equal = true;
      for (const resource of resources) {
        const mirror = (await reader.readAll(resource).catch(() => [])).sort((a, b) =>
          String(a.id).localeCompare(String(b.id)),
        );
        if (JSON.stringify(mirror) !== JSON.stringify(await serverRows(resource))) equal = false;
      }
      if (!equal) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    watching = false;
    await watcher;
    for (const resource of resources) {
      const mirror = (await reader.readAll(resource)).sort((a, b) => String(a.id).localeCompare(String(b.id)));
      expect(mirror, resource.name).toEqual(await serverRows(resource));
    }
    expect(regressions).toBe(0);

    follower.child.kill('SIGTERM');
    const code = await Promise.race([
      follower.exited,
      new Promise((resolve) => setTimeout(() => resolve('hung'), 10_000)),
    ]);
    await reader.close();
    console.log(
      `sync --follow: ${ROUNDS} rounds, ${kills} SIGKILLs, ${cuts} network cuts; ${seen.size} rows watched, regressions = ${regressions}`,
    );
    expect(code, follower.stderr).toBe(0);
    expect(follower.stderr).not.toMatch(/does not announce/);
  });
});
