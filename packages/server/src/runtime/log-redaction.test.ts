import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactPathSegments, redactUrl } from './log-redaction.js';

const options = { secrets: ['admin-token-0123456789'] };
const KEY = 'vsf_abcdefghij12.ABCDEFGHIJKLMNOPqrstuv';

describe('redactUrl', () => {
  it('redacts a segment carrying a key, a known secret or a credential, raw or percent-encoded', () => {
    expect(redactUrl(`/api/v1/cars/${KEY}`, options)).toBe(`/api/v1/cars/${REDACTED}`);
    expect(redactUrl(`/x/${encodeURIComponent('admin-token-0123456789')}/y`, options)).toBe(`/x/${REDACTED}/y`);
    expect(redactUrl('/x/Bearer%20abc/y', options)).toBe(`/x/${REDACTED}/y`);
    expect(redactUrl('/api/v1/cars/123?token=abc&limit=5', options)).toBe(`/api/v1/cars/123?token=${REDACTED}&limit=5`);
    expect(redactUrl('/api/v1/cars/5f0c?limit=5', options)).toBe('/api/v1/cars/5f0c?limit=5');
  });

  // The whole-path check must never call a path clean that the per-segment check would redact.
  it('redacts every path as the per-segment check does', () => {
    const segment = fc.oneof(
      fc.constantFrom(KEY, encodeURIComponent(KEY), 'admin-token-0123456789', 'ADMIN-TOKEN-0123456789'),
      fc.constantFrom('Bearer%20abc', 'basic+xyz', '%E2%82%AC', '%E2', '%', '%zz', '+', 'cars', 'a%2Fb', 'vsf_'),
      fc.constantFrom('admin-token', '0123456789', 'bearer', '%20abc', 'abcdefghij12.ABCDEF', 'GHIJKLMNOPqrstuv'),
      fc.string({ unit: fc.constantFrom('a', '%', '2', '0', '+', 'B', 'e', '.', '_') }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (segments) => {
        const path = `/${segments.join('/')}`;
        expect(redactUrl(path, options)).toBe(redactPathSegments(path, options));
      }),
      { numRuns: 3000 },
    );
  });
});
