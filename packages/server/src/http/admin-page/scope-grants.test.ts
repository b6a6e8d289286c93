import { SCOPE_RESOURCES } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { SCOPE_GRANTS } from './scope-grants.js';

describe('SCOPE_GRANTS', () => {
  it('says, for every scope, the records it covers, read off the declarations', () => {
    expect(Object.keys(SCOPE_GRANTS).sort()).toEqual([...SCOPE_RESOURCES].sort());
    expect(SCOPE_GRANTS.cars).toBe('Cars, car events and car photos; read also lists event types');
    expect(SCOPE_GRANTS.parking).toBe('Parking spots, parking zones and parking assignments');
    expect(SCOPE_GRANTS.communications).toBe('Threads and messages');
    expect(SCOPE_GRANTS['social-events']).toMatch(
      /^Social events, .*RSVP options.*; read also covers the marketing calendar$/,
    );
    for (const [scope, text] of Object.entries(SCOPE_GRANTS)) expect(text, scope).toMatch(/^[A-Z]/);
  });
});
