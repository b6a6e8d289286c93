import { type ApiEndpoints, apiEndpoints } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import type { HandlerMap } from '../handler.js';
import { standardHandlers } from '../standard-handlers.js';
import { apiHandlers, specialHandlers } from './api-handlers.js';

describe('apiHandlers', () => {
  it('has a handler for every endpoint of the contract', () => {
    expect(Object.keys(apiHandlers).sort()).toEqual(Object.keys(apiEndpoints).sort());
  });

  it('is complete by type: the derived handlers alone leave the special operations missing', () => {
    // @ts-expect-error: cancelAppointment, sendCommunicationMessage, … are no standard operation.
    const derivedOnly: HandlerMap<ApiEndpoints> = { ...standardHandlers(apiEndpoints) };
    const { cancelAppointment: _, ...withoutOne } = specialHandlers;
    // @ts-expect-error: one hand-written handler missing is a compile error, not a failure at start.
    const oneMissing: HandlerMap<ApiEndpoints> = { ...standardHandlers(apiEndpoints), ...withoutOne };
    expect(Object.keys(derivedOnly).length + Object.keys(oneMissing).length).toBeGreaterThan(0);
  });
});
