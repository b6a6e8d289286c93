import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';

// Body parsing moves behind authentication in bind-endpoints.ts (read-json-body.ts, issue #15, "bad input"
// section); until that file exists the app still parses every body first and this suite cannot pass.
const bodyReadAfterAuth = existsSync(join(import.meta.dirname, '../src/http/read-json-body.ts'));

/**
 * POSTs a request announcing a 4 MB body but sends only its first kilobyte, and resolves with the status
 * the server answers before the rest arrives (or rejects after `ms`): an answer proves the body was not read.
 */
function answerBeforeBody(url: string, headers: Record<string, string>, ms = 3000): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(4_000_000), ...headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${ms} ms: the server waited for the body`));
    }, ms);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => {});
    req.write(`{"name":"${'x'.repeat(1000)}`);
  });
}

describe.skipIf(!bodyReadAfterAuth)('a large body is not read before authentication, rate limit and scopes', () => {
  let server: TestServer;
  let readOnly: string;
  let spent: string;
  beforeAll(async () => {
    server = await startTestServer({ rateLimit: { points: 1, failedAuthPoints: 1000, windowSeconds: 60 } });
    readOnly = (await server.createTeamWithKey(['read:cars'])).key;
    spent = (await server.createTeamWithKey(['read:locations', 'write:locations'])).key;
    await fetch(`${server.baseUrl}/locations`, { headers: { authorization: `Bearer ${spent}` } });
  });
  afterAll(() => server?.close());

  it.each([
    ['no key', {}, 401],
    ['an unknown key', { authorization: `Bearer vsf_${'0'.repeat(12)}.${'A'.repeat(43)}` }, 401],
  ])('answers %s at once', async (_label, headers, status) => {
    expect(await answerBeforeBody(`${server.baseUrl}/locations`, headers)).toBe(status);
  });

  it('answers a key without the scope, and a key over its limit, at once', async () => {
    expect(await answerBeforeBody(`${server.baseUrl}/locations`, { authorization: `Bearer ${readOnly}` })).toBe(403);
    expect(await answerBeforeBody(`${server.baseUrl}/locations`, { authorization: `Bearer ${spent}` })).toBe(429);
  });

  it('answers a wrong admin token at once', async () => {
    expect(await answerBeforeBody(`${server.adminBaseUrl}/teams`, { authorization: 'Bearer wrong-token-0123' })).toBe(
      401,
    );
  });
});
