import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.js';
import { bindRequestLog, requestLog } from './request-log.js';

interface LogLine {
  msg: string;
  level: number;
  req: { id: string; method: string; url: string };
  responseTime?: number;
  [field: string]: unknown;
}

const ADMIN = 'request-log-admin-token-0123456789';

/** An app with the request log and three routes, the lines it wrote, and a way to call it. */
async function withLoggedApp(
  run: (get: (path: string, headers?: Record<string, string>) => Promise<Response>) => Promise<void>,
) {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger('info', { secrets: [ADMIN], destination: sink });
  const app = express();
  app.use(requestLog(logger, { secrets: [ADMIN] }));
  app.get('/cars/:id', (req, res) => {
    bindRequestLog(req, { teamId: 'team-1', keyPrefix: 'vsf_abc' });
    req.log?.warn('looked twice');
    res.json({ id: req.params.id });
  });
  app.get('/bound', (req, res) => {
    bindRequestLog(req, { key: 'plain-secret-value', grant: { key: 'nested-secret-value' } });
    res.json({});
  });
  app.get('/boom', (_req, res) => {
    res.status(503).json({ error: 'down' });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await run((path, headers = {}) => fetch(`${origin}${path}`, { headers }));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return lines;
}

describe('requestLog', () => {
  it('writes one completion line per request, with its id, redacted URL, status, caller and time', async () => {
    const lines = await withLoggedApp(async (get) => {
      const response = await get(`/cars/1?token=${ADMIN}&limit=2`, { 'x-request-id': 'trace-42' });
      expect(response.headers.get('x-request-id')).toBe('trace-42');
      await get('/boom');
    });
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toHaveLength(2);
    const [read, failed] = completed as [LogLine, LogLine];
    expect(read.req).toEqual({ id: 'trace-42', method: 'GET', url: '/cars/1?token=[redacted]&limit=2' });
    expect(read).toMatchObject({ level: 30, teamId: 'team-1', keyPrefix: 'vsf_abc', res: { statusCode: 200 } });
    expect(typeof read.responseTime).toBe('number');
    // A server-side failure is an error line; the client's request id is made up when it sent none.
    expect(failed).toMatchObject({ level: 50, res: { statusCode: 503 } });
    expect(failed.req.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(lines)).not.toContain(ADMIN);
  });

  it('gives handlers a logger whose lines carry the request and its caller', async () => {
    const lines = await withLoggedApp(async (get) => {
      await get('/cars/7', { 'x-request-id': 'trace-7' });
    });
    const own = lines.find((line) => line.msg === 'looked twice') as LogLine;
    expect(own).toMatchObject({ level: 40, teamId: 'team-1', keyPrefix: 'vsf_abc' });
    expect(own.req).toEqual({ id: 'trace-7', method: 'GET', url: '/cars/7' });
  });

  it('still redacts by path a caller field the logger redacts, on the completion line too', async () => {
    const lines = await withLoggedApp(async (get) => {
      await get('/bound');
    });
    const completed = lines.find((line) => line.msg === 'request completed') as LogLine;
    expect(completed).toMatchObject({ key: '[redacted]', grant: { key: '[redacted]' } });
    expect(JSON.stringify(lines)).not.toContain('secret-value');
  });
});
