import type { ApiErrorCode, ValidationIssue } from '../generated/types.js';
import { type ConnectionFailureKind, describeConnectionFailure } from './connection-failure.js';

export type { ConnectionFailure, ConnectionFailureKind } from './connection-failure.js';

/** Body of every error the API returns. */
interface ErrorBody {
  error?: unknown;
  code?: unknown;
  details?: unknown;
}

/** The codes of errors the SDK raises itself, before or instead of a request. */
export type ClientErrorCode =
  | 'photo_too_large'
  | 'not_an_image'
  | 'image_type_mismatch'
  | 'missing_credential'
  | 'invalid_option'
  | 'missing_path_parameter'
  | 'file_path_unsupported';

export interface VsfErrorInit {
  status?: number | undefined;
  code?: ApiErrorCode | ClientErrorCode | undefined;
  details?: unknown;
  headers?: Headers | undefined;
  cause?: unknown;
}

/** Base of every error the SDK throws; HTTP failures carry the status, the API's code and the response headers. */
export class VsfError extends Error {
  readonly status: number | undefined;
  /** The API's `code` for an HTTP error (`not_found`), the SDK's for a refusal of its own (`photo_too_large`). */
  readonly code: ApiErrorCode | ClientErrorCode | undefined;
  readonly details: unknown;
  /** `x-request-id` of the failed response: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;

  constructor(message: string, init: VsfErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? null;
    this.headers = init.headers;
    this.requestId = init.headers?.get('x-request-id') ?? undefined;
  }
}

/** 400: the request was invalid; `details` lists each problem as `{path, message}` (empty for `invalid_json`). */
export class BadRequestError extends VsfError {
  declare readonly details: ValidationIssue[];

  constructor(message: string, init: VsfErrorInit = {}) {
    super(message, { ...init, details: Array.isArray(init.details) ? init.details : [] });
  }
}
/** 401: no key, or an invalid, expired or revoked one; the message says which. */
export class AuthenticationError extends VsfError {}
/** 403: the key lacks a scope (`missingScope`), or the API is disabled for the team. */
export class PermissionDeniedError extends VsfError {
  get missingScope(): string | undefined {
    return /^Missing scope: (\S+)$/.exec(this.message)?.[1];
  }
}
/** 404: no such record for this team. */
export class NotFoundError extends VsfError {}
/** 409: the request conflicts with the current state (e.g. an occupied spot, a reused idempotency key). */
export class ConflictError extends VsfError {}
/** 413: the body or photo is over its limit. */
export class PayloadTooLargeError extends VsfError {}
/** 429: too many requests; `retryAfter` is in seconds. */
export class RateLimitError extends VsfError {
  get retryAfter(): number | undefined {
    const seconds = parseRetryAfterMs(this.headers?.get('retry-after') ?? null);
    return seconds === undefined ? undefined : Math.ceil(seconds / 1000);
  }
}
/** 5xx: the server failed. */
export class InternalServerError extends VsfError {}
/** The server could not be reached, or the connection broke. */
export class ConnectionError extends VsfError {
  /** Why, in words (`connection refused`, `host not found (DNS)`), from the cause the runtime's fetch gave. */
  get reason(): string {
    return describeConnectionFailure(this.cause).reason;
  }

  /** What kind of failure (`refused`, `host_not_found`, `reset`, …), the same on every runtime. */
  get kind(): ConnectionFailureKind {
    return describeConnectionFailure(this.cause).kind;
  }
}
/** The request, including reading its response, took longer than the timeout. */
export class TimeoutError extends VsfError {}

/** A photo over the server's limit (3 MiB), refused before any request. */
export class PhotoTooLargeError extends VsfError {
  declare readonly code: 'photo_too_large';
  constructor(message: string) {
    super(message, { code: 'photo_too_large' });
  }
}

/**
 * Bytes that are not a JPEG, PNG, GIF, WebP, HEIC or AVIF (`not_an_image`), or a declared type they contradict
 * (`image_type_mismatch`), refused before any request.
 */
export class NotAnImageError extends VsfError {
  declare readonly code: 'not_an_image' | 'image_type_mismatch';
  constructor(message: string, code: 'not_an_image' | 'image_type_mismatch' = 'not_an_image') {
    super(message, { code });
  }
}

/** A client built without a credential (no option, no environment variable), or with an option out of range. */
export class ClientConfigurationError extends VsfError {
  declare readonly code: 'missing_credential' | 'invalid_option';
  constructor(message: string, code: 'missing_credential' | 'invalid_option') {
    super(message, { code });
  }
}

/** Maps an HTTP error response to the matching error class. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): VsfError {
  const b = (body && typeof body === 'object' ? body : {}) as ErrorBody;
  const message = typeof b.error === 'string' ? b.error : `HTTP ${status}`;
  const init: VsfErrorInit = {
    status,
    // The API's codes are a closed set (`ApiErrorCode`); a newer server's other code is kept as it came.
    code: typeof b.code === 'string' ? (b.code as ApiErrorCode) : undefined,
    details: b.details,
    headers,
  };
  if (status === 400) return new BadRequestError(message, init);
  if (status === 401) return new AuthenticationError(message, init);
  if (status === 403) return new PermissionDeniedError(message, init);
  if (status === 404) return new NotFoundError(message, init);
  if (status === 409) return new ConflictError(message, init);
  if (status === 413) return new PayloadTooLargeError(message, init);
  if (status === 429) return new RateLimitError(message, init);
  if (status >= 500) return new InternalServerError(message, init);
  return new VsfError(message, init);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
