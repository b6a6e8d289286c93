import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { openSink, selectResources } from '@vsf/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVsf, spawnVsf } from './support/run-vsf.js';

// `vsf sync` is killed with SIGKILL at random moments; every rerun must complete with a mirror
// identical to the server. VSF_STRESS=1 kills it many more times.
const KILLS = process.env.VSF_STRESS ? 25 : 4;
const home = mkdtempSync(join(tmpdir(), 'vsf-crash-'));

let server: TestServer;
let env: NodeJS.ProcessEnv;
let client: VsfClient;
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

beforeAll(async () => {
  server = await startTestServer();
  const { key, team } = await server.createTeamWithKey(ALL_SCOPES);
  env = { ...process.env, VSF_API_KEY: key, VSF_BASE_URL: server.baseUrl, XDG_CONFIG_HOME: home };
  client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  // Seeded straight into the server's database: 3 000 cars would take long through the API.
  const now = Date.now();
  const rows = Array.from({ length: 3000 }, (_, i) => ({
    id: randomUUID(),
    team_id: team.id,
    year: 1950 + (i % 70),
    make: 'Seed',
    model: `M${i}`,
    is_for_sale: i % 2 === 0,
    created_at: new Date(now - i * 1000),
    updated_at: new Date(now - i * 1000),
  }));
  for (let i = 0; i < rows.length; i += 500) await server.db('cars').insert(rows.slice(i, i + 500));
}, 120_000);

function killedSync(to: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawnVsf(['sync', '--to', to, '--resources', 'cars', '--quiet'], { env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('sync killed with SIGKILL', () => {
  it(`completes after ${KILLS} kills with a mirror identical to the server`, async () => {
    const to = `sqlite:${join(home, 'mirror.db')}`;
    const killedAt: number[] = [];
    for (let i = 0; i < KILLS; i++) {
      // Between the built bin's start (~0.3 s) and the end of a full run.
      const afterMs = 400 + Math.floor(Math.random() * 1800);
      killedAt.push(afterMs);
      await killedSync(to, afterMs);
      // Writers keep changing records between runs.
      const page = await client.cars.list({ limit: 3, page: 1 + i });
      for (const car of page.data) await client.cars.update(car.id, { color: `c${i}` });
    }
    const final = await runVsf(['sync', '--to', to, '--resources', 'cars', '--json', '--quiet'], { env });
    const summary = JSON.parse(final.stdout);
    expect(summary.ok).toBe(true);

    const sink = openSink(to);
    const mirror = await sink.readAll(selectResources(['cars'])[0]!);
    await sink.close();
    const serverCars: Record<string, unknown>[] = [];
    for await (const car of client.cars.listAll()) serverCars.push(car);
    serverCars.sort((a, b) => String(a.id).localeCompare(String(b.id)));
    console.log(
      `crash-resume: ${KILLS} SIGKILLs at ${killedAt.join(', ')} ms; ${mirror.length} rows compared, losses = ${serverCars.length - mirror.length}`,
    );
    expect(mirror).toEqual(serverCars);
  }, 300_000);
});
