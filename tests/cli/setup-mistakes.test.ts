// Issue 32 item 7 through the built `vsf`: setup mistakes are caught where they are made — a base URL
// without the API's path is completed or refused with the fix, and a key rotation onto the key in use is
// refused instead of being called safe with advice to revoke that very key.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVsf } from './support/run-vsf.js';

const home = mkdtempSync(join(tmpdir(), 'vsf-setup-'));
const env = {
  ...process.env,
  XDG_CONFIG_HOME: home,
  NO_COLOR: '1',
  VSF_API_KEY: '',
  VSF_BASE_URL: '',
  VSF_PROFILE: '',
};
const vsf = (args: string[], extra: NodeJS.ProcessEnv = {}) => runVsf(args, { env: { ...env, ...extra }, cwd: home });
const savedProfile = (name: string) =>
  (JSON.parse(readFileSync(join(home, 'vsf', 'config.json'), 'utf8')) as { profiles: Record<string, unknown> })
    .profiles[name];

let server: TestServer;
let key: string;
let teamId: string;

beforeAll(async () => {
  server = await startTestServer();
  const created = await server.createTeamWithKey(ALL_SCOPES);
  key = created.key;
  teamId = created.team.id;
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('config set --base-url', () => {
  it('completes a bare origin to the API root and says so; the profile then works', async () => {
    const origin = new URL(server.baseUrl).origin;
    const saved = await vsf(['config', 'set', '--profile', 'bare', '--api-key', key, '--base-url', `${origin}/`]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toContain(`--base-url ${origin}/ has no /api/v1; saving the API root ${origin}/api/v1`);
    expect(savedProfile('bare')).toMatchObject({ baseUrl: `${origin}/api/v1` });
    const status = await vsf(['auth', 'status', '--profile', 'bare', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).valid).toBe(true);
  });

  it('completes /api, and keeps an API root as given (without a trailing slash), silently', async () => {
    const api = await vsf(['config', 'set', '--profile', 'api', '--base-url', 'https://storage.example.com/api']);
    expect(api.code, api.stderr).toBe(0);
    expect(savedProfile('api')).toMatchObject({ baseUrl: 'https://storage.example.com/api/v1' });
    const root = await vsf(['config', 'set', '--profile', 'root', '--base-url', 'https://x.example.com/vsf/api/v1/']);
    expect(root.code, root.stderr).toBe(0);
    expect(root.stderr).not.toContain('has no /api/v1');
    expect(savedProfile('root')).toMatchObject({ baseUrl: 'https://x.example.com/vsf/api/v1' });
  });

  it('refuses another path or a text that is not a URL, with the fix, and saves nothing', async () => {
    const other = await vsf(['config', 'set', '--profile', 'other', '--base-url', 'https://x.example.com/vsf']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(
      'pass https://x.example.com/vsf/api/v1 if the API is served under /vsf, else https://x.example.com/api/v1',
    );
    const notUrl = await vsf(['config', 'set', '--profile', 'other', '--base-url', 'storage.example.com']);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain('is not a URL; pass the API root, e.g. https://storage.example.com/api/v1');
    expect(savedProfile('other')).toBeUndefined();
  });
});

describe('auth rotate-check --new-key', () => {
  it('with the key in use says so (exit 2) rather than advising to revoke it', async () => {
    const same = await vsf(['auth', 'rotate-check', '--new-key', key], {
      VSF_API_KEY: key,
      VSF_BASE_URL: server.baseUrl,
    });
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--new-key is the key in use');
    expect(same.stderr).toContain('create a new key, then run vsf auth rotate-check --new-key <new key>');
    expect(same.stdout).not.toContain('revoke');
  });

  it('with another key of the team passes, so the refusal above is about the key and nothing else', async () => {
    const next = await server.createKey(teamId, ALL_SCOPES);
    const ok = await vsf(['auth', 'rotate-check', '--new-key', next.key], {
      VSF_API_KEY: key,
      VSF_BASE_URL: server.baseUrl,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^OK: /);
  });
});
