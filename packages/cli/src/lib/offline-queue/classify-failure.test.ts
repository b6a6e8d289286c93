import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  VsfError,
} from '@vsf/sdk';
import { describe, expect, it } from 'vitest';
import { CliError } from '../exit-codes.js';
import { classifyFailure, failureMessage } from './classify-failure.js';
import { CorruptCopyError } from './queue-store.js';

describe('classifyFailure', () => {
  it('queues only when the API cannot be reached: refused, reset, DNS, timeout', () => {
    expect(classifyFailure(new ConnectionError('fetch failed'))).toBe('unreachable');
    expect(classifyFailure(new TimeoutError('timed out'))).toBe('unreachable');
  });

  it('keeps entries queued on 5xx, 408, 429 and a key still in flight', () => {
    expect(classifyFailure(new InternalServerError('x', { status: 503 }))).toBe('transient');
    expect(classifyFailure(new RateLimitError('x', { status: 429 }))).toBe('transient');
    expect(classifyFailure(new VsfError('x', { status: 408 }))).toBe('transient');
    expect(classifyFailure(new ConflictError('x', { status: 409, details: { reason: 'idempotency_in_flight' } }))).toBe(
      'transient',
    );
  });

  it('marks other 4xx, unknown cars and changed copies for attention; 401/403 blame the key', () => {
    expect(classifyFailure(new ConflictError('occupied', { status: 409 }))).toBe('permanent');
    expect(classifyFailure(new NotFoundError('gone', { status: 404 }))).toBe('permanent');
    expect(classifyFailure(new BadRequestError('bad', { status: 400 }))).toBe('permanent');
    expect(classifyFailure(new CliError('No car with id, VIN or stock number "X"'))).toBe('permanent');
    expect(classifyFailure(new CorruptCopyError('changed'))).toBe('permanent');
    expect(classifyFailure(new AuthenticationError('API key revoked', { status: 401 }))).toBe('auth');
  });

  it('describes a refusal with its status and field details', () => {
    const error = new BadRequestError('Validation failed', {
      status: 400,
      details: [{ path: 'occurredAt', message: 'Invalid datetime' }],
    });
    expect(failureMessage(error)).toBe('HTTP 400: Validation failed — occurredAt: Invalid datetime');
  });
});
