import { TimeoutError as KyTimeoutError } from 'ky';
import { AbortError } from 'p-retry';
import { SDK_VERSION } from '../generated/constants.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { AttemptTimeout } from './attempt-timeout.js';
import { type ClientOptions, env, type RequestOptions } from './client-options.js';
import { connectionFailure } from './connection-failure.js';
import type { EndpointPromise, RequestArgsFor, Route, RouteLike, TypesOf } from './endpoint-types.js';
import { ClientConfigurationError, ConnectionError, errorFromResponse, TimeoutError, VsfError } from './errors.js';
import { exchangeThroughKy } from './exchange-through-ky.js';
import { type AttemptLimits, type Exchange, exchangeWithin } from './exchange-within.js';
import { expandPath } from './expand-path.js';
import { consoleLogger, type Logger, levelledLogger, parseLogLevel } from './logger.js';
import { Page, type PageBody, PagePromise } from './page.js';
import { type JsonText, type RawBody, sentBody } from './request-body.js';
import { type BaseHeaders, baseHeaders } from './request-headers.js';
import { retryAfterFirstAttempt } from './retry-after-first-attempt.js';
import { retryOptions } from './retry-options.js';
import { DEFAULT_MAX_RETRIES } from './retry-policy.js';
import { serializeQuery } from './serialize-query.js';
import { uploadAllowance } from './upload-allowance.js';

/** The header naming the extensions a server implements, on every API response (DESIGN.md). */
const EXTENSIONS_HEADER = 'vsf-extensions';

export interface RequestArgs {
  params?: Record<string, string> | undefined;
  query?: object | undefined;
  body?: unknown;
}

export interface CredentialConfig {
  /** Environment variable holding the credential. */
  envName: string;
  /** Default base URL when neither the option nor `VSF_BASE_URL` gives one. */
  defaultBaseUrl: string;
  /** Environment variable for the base URL. */
  baseUrlEnv: string;
  describe: string;
}

/** The keys of `T` a caller must give. */
type PickRequired<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] };

const DEFAULT_TIMEOUT_MS = 60_000;
/** A few seconds: an API answers in well under one; a dead link should not hold staff for a minute. */
const DEFAULT_RESPONSE_TIMEOUT_MS = 10_000;
/** Generated from package.json (not imported: a bundle would carry the whole manifest); a build checks it. */
const VERSION = SDK_VERSION;

/** The request pipeline every generated resource uses: auth, retries, idempotency, timeouts, errors. */
/** What one call sends and how its parsed body becomes the call's result. */
type SendCall<T> = [
  endpoint: RouteLike,
  args: RequestArgs,
  options: RequestOptions,
  parse: (body: unknown, response: Response) => T,
];

export class BaseClient {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly responseTimeout: number;
  readonly maxRetries: number;
  private readonly onRetry: ClientOptions['onRetry'];
  protected readonly credential: string;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: BaseHeaders;
  protected readonly log: Logger;
  /** Debug lines are built only when they will be written: each call writes two. */
  private readonly debug: boolean;
  /** The API's own path (`/api/v1`), from the default base URL: routes beside it swap it for theirs. */
  private readonly apiPath: string;

  constructor(options: ClientOptions & { credential?: string | undefined }, config: CredentialConfig) {
    const credential = options.credential ?? env(config.envName);
    if (!credential) {
      throw new ClientConfigurationError(
        `No ${config.describe}: pass it to the constructor or set ${config.envName}`,
        'missing_credential',
      );
    }
    this.credential = credential;
    this.baseUrl = (options.baseUrl ?? env(config.baseUrlEnv) ?? config.defaultBaseUrl).replace(/\/+$/, '');
    this.apiPath = new URL(config.defaultBaseUrl).pathname.replace(/\/+$/, '');
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.responseTimeout = options.responseTimeout ?? DEFAULT_RESPONSE_TIMEOUT_MS;
    if (!(this.responseTimeout > 0)) {
      throw new ClientConfigurationError(
        `responseTimeout must be a number of milliseconds > 0, got ${options.responseTimeout}`,
        'invalid_option',
      );
    }
    this.onRetry = options.onRetry;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0) {
      throw new ClientConfigurationError(
        `maxRetries must be a whole number ≥ 0, got ${options.maxRetries}`,
        'invalid_option',
      );
    }
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.headers = baseHeaders(
      `vsf-sdk/${VERSION}`,
      options.headers ?? {},
      options.authHeader === 'x-api-key' ? { 'x-api-key': credential } : { authorization: `Bearer ${credential}` },
    );
    const level = options.logLevel ?? parseLogLevel(env('VSF_LOG')) ?? 'warn';
    this.log = levelledLogger(level, options.logger ?? consoleLogger, [credential]);
    this.debug = level === 'debug';
  }

  /**
   * Calls any endpoint of the API, resolving exactly as its generated method does: a paginated endpoint
   * to a `Page`, any other to the record unwrapped from `data`. For code that handles endpoints generically:
   * `await client.request(apiEndpoints.listCars, { query: { limit: 200 } }).withResponse()`.
   */
  request<R extends Route>(
    endpoint: R,
    ...rest: keyof PickRequired<RequestArgsFor<TypesOf<R>>> extends never
      ? [args?: RequestArgsFor<TypesOf<R>>, options?: RequestOptions]
      : [args: RequestArgsFor<TypesOf<R>>, options?: RequestOptions]
  ): EndpointPromise<TypesOf<R>>;
  /**
   * The same call with a result type of your own, `client.request<MyType>(endpoint, args)`, for endpoints only
   * known at run time. Only with an explicit type argument, so the typed form above stays strict.
   */
  request<T = never>(
    endpoint: RouteLike,
    args: [T] extends [never] ? never : RequestArgs,
    options?: RequestOptions,
  ): APIPromise<T>;
  request(endpoint: RouteLike, args: RequestArgs = {}, options: RequestOptions = {}): APIPromise<unknown> {
    if (endpoint.binary) return this.requestBinary(endpoint, args, options);
    if (endpoint.envelope) return this.requestBody(endpoint, args, options);
    return endpoint.paginated ? this.requestPage(endpoint, args, options) : this.requestData(endpoint, args, options);
  }

  /**
   * Endpoints whose body is bytes (`GET /api/media/{id}`) resolve to the raw `Response`, unread, as
   * openai-node does for files: stream `response.body`, or `await response.arrayBuffer()`. Errors are
   * thrown as for every other call.
   */
  /** @internal Used by generated resources. */
  requestBinary(endpoint: RouteLike, args: RequestArgs, options: RequestOptions = {}): APIPromise<Response> {
    return new APIPromise(this.send(endpoint, args, options, (_body, response) => response));
  }

  /** Endpoints whose response carries more than `data` (a cursor) resolve to the whole body. */
  /** @internal Used by generated resources. */
  requestBody<T>(endpoint: RouteLike, args: RequestArgs, options: RequestOptions = {}): APIPromise<T> {
    return new APIPromise(this.send(endpoint, args, options, (body) => body as T));
  }

  /** Single-record endpoints resolve to the record itself, unwrapped from `data`. */
  /** @internal Used by generated resources. */
  requestData<T>(endpoint: RouteLike, args: RequestArgs, options: RequestOptions = {}): APIPromise<T> {
    return new APIPromise(this.send(endpoint, args, options, (body) => (body as { data: T }).data));
  }

  /** @internal Used by generated resources. */
  requestPage<T>(endpoint: RouteLike, args: RequestArgs, options: RequestOptions = {}): PagePromise<T> {
    const fetchPage = (page: number): Promise<WithResponse<Page<T>>> =>
      this.send(
        endpoint,
        { ...args, query: { ...(args.query ?? {}), page } },
        options,
        (body, response) => new Page<T>(body as PageBody<T>, response, fetchPage),
      );
    const firstPage = (args.query as { page?: number } | undefined)?.page ?? 1;
    return new PagePromise(fetchPage(firstPage));
  }

  /** Every record of a list endpoint, 200 a page, fetched lazily page by page. */
  /** @internal Used by generated resources. */
  async *requestAll<T>(endpoint: RouteLike, args: RequestArgs, options: RequestOptions = {}) {
    const query = { limit: 200, ...(args.query ?? {}) };
    yield* this.requestPage<T>(endpoint, { ...args, query }, options);
  }

  private extensions: ReadonlySet<string> = new Set();

  /**
   * The extensions the server announced in its last response (`Vsf-Extensions`); empty until a response
   * came, and for a server that implements only the spec. The client uses one only while it is announced.
   */
  get serverExtensions(): ReadonlySet<string> {
    return this.extensions;
  }

  private extensionsHeader = '';

  private noteExtensions(response: Response): void {
    const header = response.headers.get(EXTENSIONS_HEADER) ?? '';
    if (header === this.extensionsHeader && this.extensions.size > 0) return;
    this.extensionsHeader = header;
    this.extensions = new Set(
      header
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    );
  }

  private buildUrl(endpoint: RouteLike, args: RequestArgs): string {
    const path = expandPath(endpoint.path, args.params, endpoint.operationId);
    const query = args.query ? serializeQuery(args.query).toString() : '';
    const base = endpoint.basePath ? this.baseBeside(endpoint.basePath) : this.baseUrl;
    return `${base}${path}${query ? `?${query}` : ''}`;
  }

  /**
   * The base URL of a route that lives beside the API's base (`/api` for `/api/media/{id}` next to
   * `/api/v1`): the client's base with its API path swapped, so a prefix in front of it (a proxy's
   * `/vsf/api/v1`) is kept; a base URL not ending in the API path falls back to its origin.
   */
  private baseBeside(basePath: string): string {
    const url = new URL(this.baseUrl);
    if (url.pathname.endsWith(this.apiPath)) {
      url.pathname = `${url.pathname.slice(0, -this.apiPath.length)}${basePath}`;
      return url.href.replace(/\/+$/, '');
    }
    return `${url.origin}${basePath}`;
  }

  /** The headers of one call: the client's own object as is, unless this call adds to it. */
  private headersFor(endpoint: RouteLike, method: string, options: RequestOptions): Record<string, string> {
    const base = endpoint.binary ? this.headers.binary : this.headers.json;
    if (method !== 'POST' && !options.headers) return base;
    const headers = { ...base, ...options.headers };
    // One key for the call, reused by every retry, so the server runs the write at most once.
    if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID();
    return headers;
  }

  /**
   * One attempt's response and its body, unread for bytes. Body-less calls (every GET and DELETE) go
   * straight to `fetch` (`exchangeWithin` says why); calls with a body go through ky.
   */
  private exchange(
    endpoint: RouteLike,
    url: string,
    init: { method: string; headers: Record<string, string>; body: JsonText | RawBody | undefined },
    limits: AttemptLimits,
    signal: AbortSignal | undefined,
  ): Promise<Exchange> {
    const keepsBody = endpoint.binary ? isOk : never;
    const { body } = init;
    if (body === undefined) return exchangeWithin(this.fetchImpl, url, init, limits, signal, keepsBody);
    return exchangeThroughKy(this.fetchImpl, url, { ...init, body }, limits, signal, keepsBody);
  }

  /** Not `async`, so the request leaves before this returns; anything thrown still becomes a rejection. */
  private send<T>(...call: SendCall<T>): Promise<WithResponse<T>> {
    try {
      return this.sendOrThrow(...call);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private sendOrThrow<T>(...[endpoint, args, options, parse]: SendCall<T>): Promise<WithResponse<T>> {
    const url = this.buildUrl(endpoint, args);
    const method = endpoint.method.toUpperCase();
    const headers = this.headersFor(endpoint, method, options);
    const sent = sentBody(args.body);
    // A caller's own timeout is exact; the client's grows with the body, so a slow uplink can still send it.
    const allowance = uploadAllowance(sent);
    const timeout = options.timeout ?? this.timeout + allowance;
    // The headers cannot come before the body has gone: the response wait gets the same allowance. A call
    // that gives its own timeout and no response timeout waits for its answer that long (a long poll does).
    const responseTimeout =
      options.responseTimeout ?? (options.timeout === undefined ? this.responseTimeout : options.timeout);
    const limits = { ms: timeout, responseMs: Math.min(timeout, responseTimeout + allowance) };
    const maxRetries = options.maxRetries ?? this.maxRetries;

    const attempt = async (attemptNumber: number): Promise<WithResponse<T>> => {
      // The URL carries no secret: the key travels in a header.
      if (this.debug) this.log.debug(`${method} ${url}`, { attempt: attemptNumber });
      const started = Date.now();
      try {
        const { response, text } = await this.exchange(
          endpoint,
          url,
          { method, headers, body: sent },
          limits,
          options.signal,
        );
        this.noteExtensions(response);
        // Bytes are the caller's to read (or stream); only an error body is read.
        if (text === undefined) return { data: parse(undefined, response), response };
        if (this.debug)
          this.log.debug(`${method} ${url} -> ${response.status} in ${Date.now() - started} ms`, {
            attempt: attemptNumber,
            status: response.status,
            durationMs: Date.now() - started,
            requestId: response.headers.get('x-request-id'),
          });
        const body = text ? parseJson(text, response) : undefined;
        if (!response.ok) throw errorFromResponse(response.status, body, response.headers);
        return { data: parse(body, response), response };
      } catch (error) {
        if (options.signal?.aborted) throw new AbortError(options.signal.reason ?? new Error('Request aborted'));
        if (error instanceof VsfError) throw error;
        this.log.debug(
          `${method} ${url} -> no response after ${Date.now() - started} ms: ${(error as Error).message}`,
          {
            attempt: attemptNumber,
            durationMs: Date.now() - started,
          },
        );
        if (error instanceof KyTimeoutError || error instanceof AttemptTimeout) {
          // ky's timeout is the response wait; ours says which limit ran out.
          const waited = error instanceof AttemptTimeout ? error.phase : 'response';
          const ms = waited === 'response' ? limits.responseMs : timeout;
          const what = waited === 'response' && ms < timeout ? ' waiting for the response' : '';
          throw new TimeoutError(`${method} ${url} timed out after ${ms} ms${what}`, { cause: error });
        }
        throw new ConnectionError(`${method} ${url} failed: ${connectionFailure(error)}`, { cause: error });
      }
    };

    return retryAfterFirstAttempt(attempt, maxRetries, options.signal, () =>
      retryOptions(this.log, method, url, options.signal, this.onRetry),
    );
  }
}

const isOk = (response: Response) => response.ok;
const never = () => false;

function parseJson(text: string, response: Response): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: `Unexpected non-JSON response (HTTP ${response.status})` };
  }
}
