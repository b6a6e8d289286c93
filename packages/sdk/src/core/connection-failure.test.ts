import { describe, expect, it } from 'vitest';
import { connectionFailure, describeConnectionFailure } from './connection-failure.js';

const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });
const sysError = (code: string) => Object.assign(new Error(`${code} 127.0.0.1:3000`), { code });

describe('connectionFailure', () => {
  it('names the system cause undici nests under "fetch failed"', () => {
    expect(connectionFailure(fetchFailed(sysError('ECONNREFUSED')))).toBe('connection refused');
    expect(connectionFailure(fetchFailed(sysError('ENOTFOUND')))).toBe('host not found (DNS)');
    expect(connectionFailure(fetchFailed(sysError('ECONNRESET')))).toBe('connection reset');
    // localhost resolves to ::1 and 127.0.0.1: both refusals arrive in an AggregateError.
    const both = Object.assign(new AggregateError([sysError('ECONNREFUSED'), sysError('ECONNREFUSED')]), {
      code: 'ECONNREFUSED',
    });
    expect(connectionFailure(fetchFailed(both))).toBe('connection refused');
    expect(connectionFailure(fetchFailed(new AggregateError([sysError('ECONNREFUSED')])))).toBe('connection refused');
  });

  it('says the same words on Deno, Bun and Windows, which give no Node code', () => {
    const deno = (text: string) =>
      new TypeError(
        `error sending request for url (http://127.0.0.1:3000/api/v1/cars): client error (Connect): ${text}`,
      );
    const cases: [unknown, string, string][] = [
      [deno('tcp connect error: Connection refused (os error 111)'), 'refused', 'connection refused'],
      [deno('tcp connect error: Connection refused (os error 61)'), 'refused', 'connection refused'],
      [
        deno(
          'tcp connect error: No connection could be made because the target machine actively refused it. (os error 10061)',
        ),
        'refused',
        'connection refused',
      ],
      [
        deno('dns error: failed to lookup address information: Name or service not known'),
        'host_not_found',
        'host not found (DNS)',
      ],
      [
        deno('dns error: failed to lookup address information: Temporary failure in name resolution'),
        'dns_failed',
        'host not found (DNS lookup failed)',
      ],
      [deno('connection error: Connection reset by peer (os error 104)'), 'reset', 'connection reset'],
      [deno('tcp connect error: No route to host (os error 113)'), 'host_unreachable', 'host unreachable'],
      [deno('tcp connect error: Network is unreachable (os error 101)'), 'network_unreachable', 'network unreachable'],
      // Bun names the failure in `code` on the error itself, with its own words in the message.
      [
        Object.assign(new Error('Unable to connect. Is the computer able to access the url?'), {
          code: 'ConnectionRefused',
        }),
        'refused',
        'connection refused',
      ],
      [
        Object.assign(new Error('The socket connection was closed unexpectedly.'), { code: 'ConnectionClosed' }),
        'reset',
        'connection reset',
      ],
    ];
    for (const [error, kind, reason] of cases) {
      expect(describeConnectionFailure(error), String(error)).toEqual({ kind, reason });
      expect(connectionFailure(error)).toBe(reason);
    }
  });

  it("names a port fetch refuses to connect to (the Fetch standard's bad ports), from Node's real fetch", async () => {
    const error = await fetch('http://127.0.0.1:6000/').catch((e: unknown) => e);
    expect(describeConnectionFailure(error).kind).toBe('port_blocked');
  });

  it('keeps the words of a failure it does not know, and an unknown nested reason', () => {
    expect(connectionFailure(new TypeError('error sending request: something else'))).toBe(
      'error sending request: something else',
    );
    expect(describeConnectionFailure(fetchFailed(new Error('other side closed'))).kind).toBe('other');
    expect(connectionFailure(fetchFailed(new Error('other side closed')))).toBe('other side closed');
    expect(connectionFailure('plain')).toBe('plain');
  });
});
