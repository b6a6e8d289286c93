import { describe, expect, it } from 'vitest';
import { connectionFailure } from './connection-failure.js';

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

  it("keeps another runtime's own words, and an unknown nested reason", () => {
    // Deno and Bun say it in the error itself.
    expect(connectionFailure(new TypeError('error sending request: Connection refused (os error 111)'))).toBe(
      'error sending request: Connection refused (os error 111)',
    );
    expect(connectionFailure(fetchFailed(new Error('other side closed')))).toBe('other side closed');
    expect(connectionFailure('plain')).toBe('plain');
  });
});
