import { ConnectionError, TimeoutError, VsfError } from '@vsf/sdk';
import { describe, expect, it } from 'vitest';
import { describeError } from './handle-error.js';
import { networkCause } from './network-cause.js';

const fetchFailed = (cause: unknown) =>
  new ConnectionError('GET http://x/api/v1/cars failed: connection refused', {
    cause: new TypeError('fetch failed', { cause }),
  });
const sysError = (code: string) => Object.assign(new Error(`${code} 127.0.0.1:3000`), { code });

describe('networkCause', () => {
  it("reads the SDK's reason for a connection that got no response", () => {
    // The words for each system error are the SDK's (connection-failure.test.ts); the CLI only reads them.
    expect(networkCause(fetchFailed(sysError('ECONNREFUSED')))).toBe('connection refused');
  });

  it('says the same words on Deno, whose fetch gives only its raw OS text', () => {
    const deno = new ConnectionError('GET http://x/api/v1/cars failed: connection refused', {
      cause: new TypeError(
        'error sending request for url (http://x/api/v1/cars): client error (Connect): tcp connect error: Connection refused (os error 111)',
      ),
    });
    expect(networkCause(deno)).toBe('connection refused');
    expect(describeError(deno, 'http://x/api/v1')).toEqual({
      message:
        'cannot reach http://x/api/v1: connection refused — is the server running? check --base-url / VSF_BASE_URL',
      exitCode: 3,
    });
  });

  it('reports a timeout, and nothing for an HTTP error', () => {
    expect(networkCause(new TimeoutError('GET http://x/cars timed out after 60000 ms'))).toBe(
      'timed out after 60000 ms',
    );
    expect(networkCause(new TimeoutError('GET http://x/cars timed out after 4000 ms waiting for the response'))).toBe(
      'no response within 4 s',
    );
    expect(networkCause(new VsfError('Validation failed', { status: 400 }))).toBeUndefined();
  });

  it('gives exit code 3 and the hint', () => {
    expect(describeError(fetchFailed(sysError('ENOTFOUND')), 'https://storage.example/api/v1')).toEqual({
      message:
        'cannot reach https://storage.example/api/v1: host not found (DNS) — is the server running? check --base-url / VSF_BASE_URL',
      exitCode: 3,
    });
  });
});
