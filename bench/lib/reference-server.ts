import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, spawnTs, stop, waitForLine } from './child-process.js';

export interface ReferenceServer {
  origin: string;
  baseUrl: string;
  pid: number;
  child: ChildProcess;
  createTeamWithKey(name: string): Promise<{ teamId: string; key: string }>;
  close(): Promise<void>;
}

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/**
 * `vsf-server start` in its own process, as deployed: auth, validation, pino request logging at the
 * default `info` level (to /dev/null, so the terminal is not the bottleneck) and the per-key rate limit
 * stay on; the limit is raised so the load generator measures the server rather than its 429s.
 */
export async function startReferenceServer(databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<ReferenceServer> {
  const child = spawnTs(join(ROOT, 'packages/server/src/bin/vsf-server.ts'), ['start'], {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    VSF_ADMIN_TOKEN: ADMIN_TOKEN,
    VSF_RATE_LIMIT: '100000000',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    ...env,
  });
  const [, origin] = await waitForLine(child, /listening on (http:\/\/[^\s]+)/);
  const base = origin!.replace('localhost', '127.0.0.1');
  const admin = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${base}/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`admin POST ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: T }).data;
  };
  return {
    origin: base,
    baseUrl: `${base}/api/v1`,
    pid: child.pid!,
    child,
    async createTeamWithKey(name) {
      const team = await admin<{ id: string }>('/teams', { name });
      const key = await admin<{ key: string }>(`/teams/${team.id}/keys`, {
        name: 'bench',
        scopes: ['read:cars', 'write:cars', 'read:customers', 'read:locations'],
      });
      return { teamId: team.id, key: key.key };
    },
    close: () => stop(child),
  };
}
