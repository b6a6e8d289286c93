import { ADMIN_TOKEN, type ReferenceServer } from './reference-server.js';

/** The admin API of the reference server, for the benchmarks that need teams and keys of their own. */
async function admin<T>(server: ReferenceServer, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server.origin}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin POST ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

export const createTeam = async (server: ReferenceServer, name: string) =>
  (await admin<{ id: string }>(server, '/teams', { name })).id;

export const createKey = async (server: ReferenceServer, teamId: string, scopes: readonly string[]) =>
  (await admin<{ key: string }>(server, `/teams/${teamId}/keys`, { name: 'bench', scopes })).key;
