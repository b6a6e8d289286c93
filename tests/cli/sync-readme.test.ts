import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVsf } from './support/run-vsf.js';

// Every `vsf` command of the README's sync walkthrough (step 5 and what follows it up to
// "Conventions"), read from the README itself and run in order as written, so the walkthrough cannot
// show a command no test runs. `postgres://localhost/mirror` becomes a schema of the test database;
// without TEST_DATABASE_URL that one line is skipped with a notice.
const home = mkdtempSync(join(tmpdir(), 'vsf-readme-sync-'));
const schema = `vsf_readme_${Math.random().toString(36).slice(2, 8)}`;
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ key } = await server.createTeamWithKey(ALL_SCOPES));
  const client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
  await client.cars.create({ year: 1965, make: 'Shelby', model: 'Cobra' });
  await client.customers.create({ firstName: 'Carroll', lastName: 'Shelby' });
  if (process.env.TEST_DATABASE_URL) await server.db.raw(`create schema ${schema}`);
});
afterAll(async () => {
  if (process.env.TEST_DATABASE_URL) await server?.db.raw(`drop schema if exists ${schema} cascade`);
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

/** The `vsf …` lines of the sh blocks in the README's sync walkthrough, comments removed. */
function walkthroughCommands(): string[][] {
  const readme = readFileSync(join(import.meta.dirname, '../../packages/cli/README.md'), 'utf8');
  const start = readme.search(/\*\*\d+\. Sync\*\*/);
  // To the next section's heading: the walkthrough's last step.
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('vsf '))
    .map((line) => line.split(/\s+/).slice(1));
}

describe('the README sync walkthrough', () => {
  it('runs every command it shows, each exiting 0', async () => {
    const commands = walkthroughCommands();
    expect(commands.length).toBeGreaterThanOrEqual(9);
    expect(commands.map((c) => c.slice(0, 2).join(' '))).toContain('sync verify');
    const ran: string[] = [];
    for (const args of commands) {
      const pg = args.indexOf('postgres://localhost/mirror');
      if (pg !== -1) {
        if (!process.env.TEST_DATABASE_URL) {
          console.log(`README sync walkthrough: skipped without TEST_DATABASE_URL: vsf ${args.join(' ')}`);
          continue;
        }
        args[pg] = `${process.env.TEST_DATABASE_URL}?options=-c%20search_path%3D${schema}`;
      }
      const res = await runVsf(args, {
        env: { ...process.env, XDG_CONFIG_HOME: home, VSF_BASE_URL: server.baseUrl, VSF_API_KEY: key, NO_COLOR: '1' },
        cwd: home,
      });
      expect(res.code, `vsf ${args.join(' ')}\n${res.stdout}${res.stderr}`).toBe(0);
      ran.push(`vsf ${args.join(' ')}`);
    }
    console.log(`README sync walkthrough: ${ran.length} commands run`);
  }, 120_000);
});
