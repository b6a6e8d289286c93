import { ALL_SCOPES, type Scope } from '@vsf/contract';
import { startTestServer } from '@vsf/server/testing';
import { createMockApi } from '@vsf/testing';
import { setupServer } from 'msw/node';

/**
 * The keys the suite uses, declared once for both targets: `a` is the team under test, `b` another team,
 * `off` a team whose API is turned off; `revoked` is revoked before the suite runs.
 */
export const KEYS = {
  all: { team: 'a', scopes: ALL_SCOPES },
  carsOnly: { team: 'a', scopes: ['read:cars', 'write:cars'] },
  reader: { team: 'a', scopes: ['read:cars', 'read:customers'] },
  other: { team: 'b', scopes: ALL_SCOPES },
  revoked: { team: 'a', scopes: ['read:cars'] },
  off: { team: 'off', scopes: ['read:cars'] },
} as const satisfies Record<string, { team: string; scopes: readonly Scope[] }>;
export type KeyName = keyof typeof KEYS;

/** Where the suite runs: a base URL, a token per key, and how to stop. */
export interface Target {
  readonly name: 'server' | 'mock';
  readonly baseUrl: string;
  readonly keys: Record<KeyName, string>;
  close(): Promise<void>;
}

/** The reference server on its embedded database, with the teams and keys made through its admin API. */
export async function serverTarget(): Promise<Target> {
  const server = await startTestServer();
  const teams = new Map<string, string>();
  const keys = {} as Record<KeyName, string>;
  for (const [name, spec] of Object.entries(KEYS) as [KeyName, (typeof KEYS)[KeyName]][]) {
    if (!teams.has(spec.team)) teams.set(spec.team, (await server.createTeam()).id);
    const teamId = teams.get(spec.team) as string;
    const created = await server.createKey(teamId, spec.scopes, { name });
    keys[name] = created.key;
    if (name === 'revoked') await expectOk(server.admin('POST', `/keys/${created.id}/revoke`));
  }
  await expectOk(server.admin('PATCH', `/teams/${teams.get('off')}`, { apiEnabled: false }));
  return { name: 'server', baseUrl: server.baseUrl, keys, close: () => server.close() };
}

/** `@vsf/testing`'s mock behind msw, with the same keys, at an address nothing listens on. */
export async function mockTarget(): Promise<Target> {
  const baseUrl = 'http://conformance.vsf.test/api/v1';
  const api = createMockApi({ keys: KEYS, baseUrl });
  api.revokeKey('revoked');
  api.setApiEnabled(false, 'off');
  const msw = setupServer(...api.handlers);
  msw.listen({ onUnhandledRequest: 'error' });
  return {
    name: 'mock',
    baseUrl,
    keys: api.keys as Record<KeyName, string>,
    close: async () => msw.close(),
  };
}

async function expectOk(response: Promise<Response>): Promise<void> {
  const res = await response;
  if (!res.ok) throw new Error(`admin call failed: ${res.status} ${await res.text()}`);
}
