import type { Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/connect-database.js';
import { ApiHttpError } from '../src/errors/api-http-error.js';
import { createApp } from '../src/http/create-app.js';
import type { KeyRateLimiter } from '../src/rate-limit/key-rate-limiter.js';
import { createLogger } from '../src/runtime/logger.js';
import { openTestDatabase } from './support/test-database.js';

/** A limiter whose `consume` answers as `answer` says: the limit's 429, or its store failing. */
function limiter(answer: () => Error | undefined): KeyRateLimiter {
  return {
    consume: async (_id: string, _res: Response) => {
      const error = answer();
      if (error) throw error;
    },
    countFailedAuth: async () => {},
    refuseBlockedAddress: () => {},
  } as unknown as KeyRateLimiter;
}

let database: Database;
let origin = '';
let close: () => Promise<void>;
let next: () => Error | undefined = () => undefined;

beforeAll(async () => {
  database = await openTestDatabase();
  const app = createApp({ db: database.knex, rateLimiter: limiter(() => next()), logger: createLogger('silent') });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  origin = `http://127.0.0.1:${port}`;
  app.locals.publicUrl = origin;
  close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.close();
  };
});
afterAll(() => close?.());

const register = () =>
  fetch(`${origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Probe', redirect_uris: ['http://127.0.0.1:9/cb'] }),
  });

describe("the connector's per-address limit", () => {
  it('answers 429 with Retry-After only when the limit refuses', async () => {
    next = () => new ApiHttpError(429, 'rate_limited', 'over', null, { 'Retry-After': '7' });
    const res = await register();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toMatchObject({ error: 'too_many_requests' });
  });

  it('answers a failing limit store as the server’s fault (500), not as the client being over its limit', async () => {
    next = () => new Error('rate-limit store unreachable');
    const res = await register();
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(await res.json()).toMatchObject({ code: 'internal_error' });
  });

  it('registers when the limit lets the request through', async () => {
    next = () => undefined;
    expect((await register()).status).toBe(201);
  });
});
