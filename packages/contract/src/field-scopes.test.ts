import { describe, expect, it } from 'vitest';
import { triggeredFieldScopes, waitsForRecord } from './endpoint.js';
import { createCarEvent, updateCar } from './generated/endpoints.js';

const fields = (endpoint: Parameters<typeof triggeredFieldScopes>[0], body: unknown) =>
  triggeredFieldScopes(endpoint, body).map((rule) => rule.field);

describe('triggeredFieldScopes', () => {
  it('fires for a declared field sent with any value, null included, and not for an absent one', () => {
    expect(fields(updateCar, { color: 'red' })).toEqual([]);
    expect(fields(updateCar, { parkingSpotId: null })).toEqual(['parkingSpotId']);
    expect(fields(updateCar, { parkingSpotId: undefined, parkingZoneId: 'z' })).toEqual(['parkingZoneId']);
  });

  it('fires for a value-restricted field only with one of its values', () => {
    expect(fields(createCarEvent, { activityType: 'inspection' })).toEqual([]);
    expect(fields(createCarEvent, { activityType: 'pick_up' })).toEqual(['activityType']);
  });

  it('lets the values that only free what a record holds wait for the record', () => {
    const waits = (endpoint: Parameters<typeof triggeredFieldScopes>[0], body: Record<string, unknown>) =>
      triggeredFieldScopes(endpoint, body)
        .filter((rule) => waitsForRecord(rule, body))
        .map((rule) => rule.field);
    expect(waits(createCarEvent, { activityType: 'pick_up' })).toEqual(['activityType']);
    expect(waits(createCarEvent, { activityType: 'drop_off', parkingSpotId: 's' })).toEqual([]);
    expect(waits(updateCar, { parkingSpotId: null, parkingZoneId: 'z' })).toEqual(['parkingSpotId']);
    expect(waits(updateCar, { parkingSpotId: 's' })).toEqual([]);
  });

  it('ignores bodies that are not objects', () => {
    expect(fields(updateCar, undefined)).toEqual([]);
    expect(fields(updateCar, 'parkingSpotId')).toEqual([]);
  });
});
