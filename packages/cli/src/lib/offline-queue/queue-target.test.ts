import { describe, expect, it } from 'vitest';
import { otherTargetReason } from './queue-target.js';

const here = { baseUrl: 'http://garage:3000/api/v1', keyId: 'vsf_abc' };

describe('otherTargetReason', () => {
  it('names what differs: the server, the key, or both', () => {
    expect(otherTargetReason(here, { ...here, baseUrl: 'http://localhost:3000/api/v1' })).toBe(
      'queued for http://garage:3000/api/v1, not http://localhost:3000/api/v1; flush with --base-url http://garage:3000/api/v1',
    );
    expect(otherTargetReason(here, { ...here, keyId: 'vsf_other' })).toBe(
      'queued for key vsf_abc; flush with that key (VSF_API_KEY)',
    );
    expect(otherTargetReason(here, { baseUrl: 'http://localhost:3000/api/v1', keyId: 'vsf_other' })).toBe(
      'queued for key vsf_abc at http://garage:3000/api/v1; flush with that key and --base-url http://garage:3000/api/v1',
    );
  });
});
