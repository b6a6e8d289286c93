import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprintMatches, requestFingerprint } from './request-fingerprint.js';

describe('requestFingerprint', () => {
  it('ignores key order at every depth', () => {
    const a = { make: 'Subaru', year: 2020, owner: { first: 'Ada', last: 'L' }, tags: [{ x: 1, y: 2 }] };
    const b = { tags: [{ y: 2, x: 1 }], owner: { last: 'L', first: 'Ada' }, year: 2020, make: 'Subaru' };
    expect(requestFingerprint('', a)).toBe(requestFingerprint('', b));
  });

  it('tells apart bodies that differ only in value, type, nesting, order of array items or the query', () => {
    const bodies: unknown[] = [
      { a: '1' },
      { a: 1 },
      { a: true },
      { a: null },
      { a: ['1'] },
      { a: { b: '1' } },
      { a: '1', b: '' },
      { ab: '' },
      { a: 'b', c: '' },
      { a: '', bc: '' },
      [1, 2],
      [2, 1],
      [[1], 2],
      [1, [2]],
      'a',
      null,
      { a: '\ud800' },
      { a: '\ud801' },
    ];
    const prints = bodies.map((body) => requestFingerprint('', body));
    expect(new Set(prints).size).toBe(bodies.length);
    expect(requestFingerprint('?x=1', { a: 1 })).not.toBe(requestFingerprint('', { a: 1 }));
  });

  it('matches its own fingerprints, and those stored before v2 in their own form', () => {
    const body = { year: 2020, make: 'Subaru' };
    expect(fingerprintMatches(requestFingerprint('', body), '', { make: 'Subaru', year: 2020 })).toBe(true);
    expect(fingerprintMatches(requestFingerprint('', body), '', { make: 'Subaru', year: 2021 })).toBe(false);
    // What the server stored before v2: sha256 of JSON [query, body with sorted keys].
    const legacy = createHash('sha256')
      .update(JSON.stringify(['', { make: 'Subaru', year: 2020 }]))
      .digest('hex');
    expect(fingerprintMatches(legacy, '', { year: 2020, make: 'Subaru' })).toBe(true);
    expect(fingerprintMatches(legacy, '', { year: 2021, make: 'Subaru' })).toBe(false);
  });
});
