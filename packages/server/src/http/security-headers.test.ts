import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { HELMET_OPTIONS, securityHeaders } from './security-headers.js';

async function headersFrom(middleware: RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.use(middleware);
  app.get('/', (_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const headers = Object.fromEntries(response.headers);
    delete headers.date;
    return headers;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('securityHeaders', () => {
  it('answers with exactly the headers helmet sets, and removes what helmet removes', async () => {
    const computed = await headersFrom(securityHeaders());
    expect(computed).toEqual(await headersFrom(helmet(HELMET_OPTIONS)));
    expect(computed['content-security-policy']).toContain("default-src 'self'");
    expect(computed['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(computed['x-powered-by']).toBeUndefined();
  });
});
