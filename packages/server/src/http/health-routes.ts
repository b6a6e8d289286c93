import type { Express, Response } from 'express';
import type { Knex } from 'knex';

/** Seconds a load balancer is asked to wait before asking `/healthz` again after a 503. */
export const HEALTH_RETRY_AFTER_SECONDS = 5;
/** A database that has not answered `select 1` within this is as good as unreachable for a request. */
const DATABASE_PING_TIMEOUT_MS = 2_000;
/** One ping serves every health check within this: many balancers polling cost the database one query. */
const PING_REUSE_MS = 1_000;

export interface HealthDeps {
  db: Knex;
  /** False until migrations have run. */
  isReady?: (() => boolean) | undefined;
}

/**
 * `/livez`: the process answers (restart it when it does not). `/healthz`: this instance can serve the API
 * now: migrations have run and its database answers; 503 with `Retry-After` otherwise, so a load balancer
 * takes it out of rotation instead of sending it requests that would all be 500s.
 */
export function mountHealthRoutes(app: Express, deps: HealthDeps): void {
  const ping = reusedPing(deps.db);
  app.get('/livez', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  app.get('/healthz', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    if (deps.isReady && !deps.isReady()) return unavailable(res, 'starting', 'Migrations are still running');
    if (!(await ping())) {
      return unavailable(res, 'unavailable', 'The database does not answer: this instance cannot serve requests');
    }
    res.json({ status: 'ok' });
  });
}

function unavailable(res: Response, status: string, error: string): void {
  res.status(503).set('Retry-After', String(HEALTH_RETRY_AFTER_SECONDS)).json({ status, error });
}

/** `select 1` with a deadline, shared by the checks that arrive while one runs or just ran. */
function reusedPing(db: Knex): () => Promise<boolean> {
  let last: { at: number; result: Promise<boolean> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= PING_REUSE_MS) last = { at: now, result: pingDatabase(db) };
    return last.result;
  };
}

async function pingDatabase(db: Knex): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), DATABASE_PING_TIMEOUT_MS);
  });
  try {
    return await Promise.race([db.raw('select 1').then(() => true as const), timedOut]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
