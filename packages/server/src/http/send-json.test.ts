import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { sendJson } from './send-json.js';

const BODY = { data: { id: 'c1', make: 'Škoda', note: '“quoted” ✓'.repeat(80) } };

/** The same body through Express's res.json and through sendJson, for one request shape. */
async function bothWays(method: string, headers: Record<string, string> = {}) {
  const app = express();
  app.get('/express', (_req, res) => {
    res.set({ Location: '/cars/c1' }).status(200).json(BODY);
  });
  app.get('/ours', (req, res) => sendJson(req, res, { status: 200, body: BODY, headers: { Location: '/cars/c1' } }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // node:http rather than fetch: fetch adds `Cache-Control: no-cache` to a conditional request.
  const call = (path: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      request(`${origin}${path}`, { method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const { date: _date, ...seen } = response.headers;
          resolve({ status: response.statusCode ?? 0, headers: seen, body: Buffer.concat(chunks).toString() });
        });
      })
        .on('error', reject)
        .end();
    });
  try {
    return [await call('/express'), await call('/ours')] as const;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('sendJson', () => {
  it('answers exactly as res.json does: status, headers, ETag and body', async () => {
    const [expected, actual] = await bothWays('GET');
    expect(actual).toEqual(expected);
    expect(JSON.parse(actual.body)).toEqual(BODY);
    expect(actual.headers.etag).toMatch(/^W\//);
  });

  it('answers a matching If-None-Match with an empty 304, and HEAD with headers only, as res.json does', async () => {
    const [first] = await bothWays('GET');
    const [expected, actual] = await bothWays('GET', { 'if-none-match': first.headers.etag as string });
    expect(actual).toEqual(expected);
    expect(actual.status).toBe(304);
    const [expectedHead, actualHead] = await bothWays('HEAD');
    expect(actualHead).toEqual(expectedHead);
    expect(actualHead.body).toBe('');
  });
});
