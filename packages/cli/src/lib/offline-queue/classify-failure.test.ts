import { ConnectionError, errorFromResponse, TimeoutError } from '@vsf/sdk';
import { describe, expect, it } from 'vitest';
import { CliError } from '../exit-codes.js';
import { classifyFailure, failureMessage } from './classify-failure.js';
import { CorruptCopyError } from './queue-store.js';

/** The error the SDK throws for an API answer of `status` (its class by status, as a real call gets it). */
const answered = (status: number, error = 'x', details: unknown = null) =>
  errorFromResponse(status, { error, details }, new Headers());

describe('classifyFailure', () => {
  it('queues only when the API cannot be reached: refused, reset, DNS, timeout', () => {
    expect(classifyFailure(new ConnectionError('fetch failed'))).toBe('unreachable');
    expect(classifyFailure(new TimeoutError('timed out'))).toBe('unreachable');
  });

  it('keeps entries queued on 5xx, 408, 429 and a key still in flight', () => {
    expect(classifyFailure(answered(503))).toBe('transient');
    expect(classifyFailure(answered(429))).toBe('transient');
    expect(classifyFailure(answered(408))).toBe('transient');
    expect(classifyFailure(answered(409, 'x', { reason: 'idempotency_in_flight' }))).toBe('transient');
  });

  it('marks other 4xx, unknown cars and changed copies for attention; 401/403 blame the key', () => {
    expect(classifyFailure(answered(409, 'occupied'))).toBe('permanent');
    expect(classifyFailure(answered(404, 'gone'))).toBe('permanent');
    expect(classifyFailure(answered(400, 'bad'))).toBe('permanent');
    expect(classifyFailure(new CliError('No car with id, VIN or stock number "X"'))).toBe('permanent');
    expect(classifyFailure(new CorruptCopyError('changed'))).toBe('permanent');
    expect(classifyFailure(answered(401, 'API key revoked'))).toBe('auth');
  });

  it('describes a refusal with its status and field details', () => {
    const error = answered(400, 'Validation failed', [{ path: 'occurredAt', message: 'Invalid datetime' }]);
    expect(failureMessage(error)).toBe('HTTP 400: Validation failed — occurredAt: Invalid datetime');
  });
});
