import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ASSISTANT_TOOLS, callIdempotencyKey } from '@vsf/contract/assistant-tools';
import { describe, expect, it } from 'vitest';
import { callTool, serverRoot } from './mcp-server.js';

// The two tools these tests call.
const tools = new Map(ASSISTANT_TOOLS.map((t) => [t.name, t]));
const createCar = tools.get('create_car')!;
const listCars = tools.get('list_cars')!;

describe('serverRoot', () => {
  it('is the base URL without the API path, keeping a proxy prefix', () => {
    expect(serverRoot('https://storage.example.com/api/v1')).toBe('https://storage.example.com');
    expect(serverRoot('http://localhost:3000/api/v1/')).toBe('http://localhost:3000');
    expect(serverRoot('https://example.com/vsf/api/v1')).toBe('https://example.com/vsf');
    expect(serverRoot('https://example.com/elsewhere')).toBe('https://example.com');
  });
});

describe('callIdempotencyKey', () => {
  it('is the server connector’s key for the same call, whatever the arguments’ order', () => {
    // The value packages/server/src/mcp/connector-call.ts gives for this call.
    const key = 'mcp-c5aafdaf3c61a13217e63e3103e5d3efbe98b6abd836e77f';
    expect(callIdempotencyKey(createCar, { year: 1967, make: 'Ford', tags: ['a', { z: 1, a: null }] })).toBe(key);
    expect(callIdempotencyKey(createCar, { tags: ['a', { a: null, z: 1 }], make: 'Ford', year: 1967 })).toBe(key);
    expect(callIdempotencyKey(createCar, { year: 1968, make: 'Ford' })).not.toBe(key);
  });
});

describe('callTool', () => {
  it('sends the tool’s request with the key, and an idempotency key for a POST', async () => {
    const seen: {
      method: string | undefined;
      url: string | undefined;
      headers: Record<string, unknown>;
      body: string;
    }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"data":{"id":"c1"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/vsf`;
    try {
      const args = { year: 1967, make: 'Ford', model: 'Mustang' };
      const result = await callTool(createCar, args, { root, apiKey: 'vsf_k', userAgent: 'test' });
      expect(result).toEqual({
        content: [{ type: 'text', text: '{"data":{"id":"c1"}}' }],
        structuredContent: { data: { id: 'c1' } },
      });
      expect(seen[0]).toMatchObject({ method: 'POST', url: '/vsf/api/v1/cars', body: JSON.stringify(args) });
      expect(seen[0]?.headers).toMatchObject({
        authorization: 'Bearer vsf_k',
        'idempotency-key': callIdempotencyKey(createCar, args),
        'content-type': 'application/json',
      });
      await callTool(listCars, { limit: 2 }, { root, apiKey: 'vsf_k', userAgent: 'test' });
      expect(seen[1]).toMatchObject({ method: 'GET', url: '/vsf/api/v1/cars?limit=2' });
      expect(seen[1]?.headers).not.toHaveProperty('idempotency-key');
    } finally {
      server.close();
    }
  });

  it('gives an unreachable server as an error result naming the cause, not a crash', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise((resolve) => server.close(resolve));
    const result = await callTool(listCars, {}, { root, apiKey: 'vsf_k', userAgent: 'test' });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({
      status: null,
      code: 'network_error',
      error: expect.stringContaining('connection refused'),
    });
  });
});
