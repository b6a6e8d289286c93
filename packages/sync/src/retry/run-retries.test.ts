import { AuthenticationError, ConnectionError, InternalServerError, NotFoundError } from '@vsf/sdk';
import { describe, expect, it } from 'vitest';
import { RunRetries, SyncAbortedError } from './run-retries.js';

const http = (status: number) =>
  status === 401
    ? new AuthenticationError('API key revoked', { status })
    : status === 404
      ? new NotFoundError('Not found', { status })
      : new InternalServerError(`HTTP ${status}`, { status, headers: new Headers() });
const refused = () =>
  new ConnectionError('GET http://x failed: fetch failed', {
    cause: new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
  });

/** A request that fails with `failures` in turn, then answers `ok`. */
function scripted(failures: Error[]) {
  let calls = 0;
  return {
    request: async () => {
      const failure = failures[calls++];
      if (failure) throw failure;
      return 'ok';
    },
    calls: () => calls,
  };
}

describe('RunRetries', () => {
  it('retries blips up to maxRetries in a row, counting each by reason', async () => {
    const retries = new RunRetries({ maxRetries: 3, maxDelayMs: 1 }, 'http://x');
    const request = scripted([http(503), http(502), refused()]);
    // A refused connection after the server has answered is a restart, not a wrong address: retried.
    await expect(retries.attempt('cars page 1', request.request)).resolves.toBe('ok');
    expect(retries.summary).toMatchObject({
      total: 3,
      reasons: { 'HTTP 503': 1, 'HTTP 502': 1, 'connection refused': 1 },
    });
  });

  it('stops the run when a request fails maxRetries + 1 times, and refuses every later request', async () => {
    const retries = new RunRetries({ maxRetries: 2, maxDelayMs: 1 }, 'http://x');
    await expect(retries.attempt('cars page 4', scripted(Array(5).fill(http(503))).request)).rejects.toThrow(
      /cars page 4 failed 3 times in a row \(last: HTTP 503\) at http:\/\/x/,
    );
    const later = scripted([]);
    await expect(retries.attempt('customers page 1', later.request)).rejects.toBeInstanceOf(SyncAbortedError);
    expect(later.calls()).toBe(0);
  });

  it('stops at once on a refused connection before the server ever answered', async () => {
    const retries = new RunRetries({ maxDelayMs: 1 }, 'http://x/api/v1');
    await expect(retries.attempt('cars page 1', scripted([refused()]).request)).rejects.toThrow(
      'cannot reach http://x/api/v1: connection refused — is the server running?',
    );
    expect(retries.summary.total).toBe(0);
  });

  it('says why on every runtime: a refusal Deno or Bun reports in words is a refusal too, not "connection failed"', async () => {
    const deno = new ConnectionError('GET http://x failed: connection refused', {
      cause: new TypeError(
        'error sending request for url (http://x/api/v1/cars): client error (Connect): tcp connect error: Connection refused (os error 111)',
      ),
    });
    const bun = new ConnectionError('GET http://x failed: connection refused', {
      cause: Object.assign(new Error('Unable to connect. Is the computer able to access the url?'), {
        code: 'ConnectionRefused',
      }),
    });
    for (const error of [deno, bun]) {
      const retries = new RunRetries({ maxDelayMs: 1 }, 'http://x/api/v1');
      await expect(retries.attempt('cars page 1', scripted([error]).request)).rejects.toThrow(
        'cannot reach http://x/api/v1: connection refused — is the server running?',
      );
    }
    // Later in a run it is a restart: retried, and counted under the same words as on Node.
    const retries = new RunRetries({ maxRetries: 3, maxDelayMs: 1 }, 'http://x');
    await retries.attempt('cars page 1', async () => 'ok');
    await expect(retries.attempt('cars page 2', scripted([deno, bun]).request)).resolves.toBe('ok');
    expect(retries.summary.reasons).toEqual({ 'connection refused': 2 });
  });

  it('stops at once on a port fetch refuses to connect to, naming it', async () => {
    const badPort = new ConnectionError('GET http://x:6000 failed', {
      cause: new TypeError('fetch failed', { cause: new Error('bad port') }),
    });
    const retries = new RunRetries({ maxDelayMs: 1 }, 'http://x:6000/api/v1');
    await expect(retries.attempt('cars page 1', scripted([badPort]).request)).rejects.toThrow(
      /cannot reach http:\/\/x:6000\/api\/v1: port blocked by fetch .* check the base URL/,
    );
  });

  it('shares a budget across the run: retries spend it, requests that succeed at once earn half back', async () => {
    const retries = new RunRetries({ maxRetries: 6, maxDelayMs: 1, runBudget: 2 }, 'http://x');
    // Each of these needs one retry: the budget of 2 covers two, two clean pages earn one more.
    await retries.attempt('p1', scripted([http(503)]).request);
    await retries.attempt('p2', scripted([]).request);
    await retries.attempt('p3', scripted([]).request);
    await retries.attempt('p4', scripted([http(503)]).request);
    await retries.attempt('p5', scripted([http(503)]).request);
    await expect(retries.attempt('p6', scripted([http(503)]).request)).rejects.toThrow(
      /retry budget is spent \(3 retries; last: HTTP 503 on p6\)/,
    );
  });

  it('does not retry what cannot succeed: a 404 fails the request only, a refused key stops the run', async () => {
    const retries = new RunRetries({ maxDelayMs: 1 }, 'http://x');
    await expect(retries.attempt('a', scripted([http(404)]).request)).rejects.toBeInstanceOf(NotFoundError);
    expect(retries.abortReason).toBeUndefined();
    await expect(retries.attempt('b', scripted([http(401)]).request)).rejects.toThrow('API key revoked');
    expect(retries.abortReason).toBeInstanceOf(SyncAbortedError);
    expect(retries.summary.total).toBe(0);
  });

  it('waits what Retry-After asks, and stops the run when it asks for more than two minutes', async () => {
    const retries = new RunRetries({ maxDelayMs: 1 }, 'http://x');
    const tooLong = new InternalServerError('HTTP 503', {
      status: 503,
      headers: new Headers({ 'retry-after': '600' }),
    });
    await expect(retries.attempt('cars page 1', scripted([tooLong]).request)).rejects.toThrow(
      /asked to wait 600 s before cars page 1/,
    );
  });
});
