import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { plainToolCall } from './plain-tool-call.js';

const request = (headers: Record<string, string> = {}) =>
  ({
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
  }) as unknown as IncomingMessage;

const call = (over: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'get_car', arguments: { carId: 'c1' } },
  ...over,
});

describe('plainToolCall', () => {
  it('takes a single well-formed tools/call the SDK transport would accept', () => {
    expect(plainToolCall(request(), call())).toEqual({ id: 7, name: 'get_car', args: { carId: 'c1' } });
    expect(plainToolCall(request({ 'mcp-protocol-version': '2025-06-18' }), call({ id: 'x' }))).toMatchObject({
      id: 'x',
    });
    expect(plainToolCall(request(), call({ params: { name: 'list_cars' } }))).toEqual({
      id: 7,
      name: 'list_cars',
      args: {},
    });
  });

  it('leaves everything else to the SDK, which owns the protocol and its errors', () => {
    const cases: [string, IncomingMessage, unknown][] = [
      ['another method', request(), call({ method: 'tools/list' })],
      ['a notification (no id)', request(), { jsonrpc: '2.0', method: 'tools/call', params: { name: 'x' } }],
      ['a fractional id', request(), call({ id: 1.5 })],
      ['a batch', request(), [call()]],
      ['no jsonrpc', request(), call({ jsonrpc: '1.0' })],
      ['no name', request(), call({ params: { arguments: {} } })],
      ['arguments not an object', request(), call({ params: { name: 'get_car', arguments: [1] } })],
      ['an unsupported protocol version', request({ 'mcp-protocol-version': '1999-01-01' }), call()],
      ['Accept without event streams', request({ accept: 'application/json' }), call()],
      ['a form body', request({ 'content-type': 'application/x-www-form-urlencoded' }), call()],
    ];
    for (const [what, req, body] of cases) expect(plainToolCall(req, body), what).toBeUndefined();
  });
});
