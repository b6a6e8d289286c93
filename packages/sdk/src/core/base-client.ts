import ky, { TimeoutError as KyTimeoutError } from 'ky';
import pRetry, { AbortError } from 'p-retry';
import sdkPackage from '../../package.json' with { type: 'json' };
import { APIPromise, type WithResponse } from './api-promise.js';
import { type ClientOptions, env, type RequestOptions } from './client-options.js';
import type { DeclarationOf, EndpointPromise, RequestArgsFor, RouteLike } from './endpoint-types.js';
import { ConnectionError, errorFromResponse, TimeoutError, VsfError } from './errors.js';
import { consoleLogger, type Logger, levelledLogger, parseLogLevel } from './logger.js';
import { Page, type PageBody, PagePromise } from './page.js';
import { DEFAULT_MAX_RETRIES, isRetryable, retryDelayMs } from './retry-policy.js';
import { serializeQuery } from './serialize-query.js';

/**
 * A request body already serialised as JSON text, for bodies whose bulk is known to need no escaping (a
 * photo's base64): `JSON.stringify` of 4.4 M base64 characters takes ~19 ms, concatenating them ~0.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A request body of raw bytes with its media type (an image under the `binary-upload` extension). */
export class RawBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
  ) {}
}

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
/** From package.json, bundled in at build, so `changeset version` releases never send a stale User-Agent. */
const VERSION = sdkPackage.version;

/** The request pipeline every generated resource uses: auth, retries, idempotency, timeouts, errors. */
export class BaseClient {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly maxRetries: number;
  protected readonly credential: string;
  private readonly fetchImpl: typeof fetch;
  private readonly defaultHeaders: Record<string, string>;
  private readonly authHeader: 'bearer' | 'x-api-key';
  protected readonly log: Logger;
  /** Debug lines are built only when they will be written: each call writes two. */
  private readonly debug: boolean;
  /** The API's own path (`/api/v1`), from the default base URL: routes beside it swap it for theirs. */
  private readonly apiPath: string;

  constructor(options: ClientOptions & { credential?: string | undefined }, config: CredentialConfig) {
    const credential = options.credential ?? env(config.envName);
    if (!credential) {
      throw new VsfError(`No ${config.describe}: pass it to the constructor or set ${config.envName}`);
    }
    this.credential = credential;
    this.baseUrl = (options.baseUrl ?? env(config.baseUrlEnv) ?? config.defaultBaseUrl).replace(/\/+$/, '');
    this.apiPath = new URL(config.defaultBaseUrl).pathname.replace(/\/+$/, '');
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0) {
      throw new VsfError(`maxRetries must be a whole number ≥ 0, got ${options.maxRetries}`);
    }
    this.fetchImpl = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.defaultHeaders = options.headers ?? {};
    this.authHeader = options.authHeader ?? 'bearer';
    const level = options.logLevel ?? parseLogLevel(env('VSF_LOG')) ?? 'warn';
    this.log = levelledLogger(level, options.logger ?? consoleLogger, [credential]);
    this.debug = level === 'debug';
  }

  /**
   * Calls any endpoint of the contract, resolving exactly as its generated method does: a paginated endpoint
   * to a `Page`, any other to the record unwrapped from `data`. For code that handles endpoints generically:
   * `await client.request(apiEndpoints.listCars, { query: { limit: 200 } }).withResponse()`.
   */
  request<R extends RouteLike>(
    endpoint: R,
    ...rest: keyof PickRequired<RequestArgsFor<DeclarationOf<R>>> extends never
      ? [args?: RequestArgsFor<DeclarationOf<R>>, options?: RequestOptions]
      : [args: RequestArgsFor<DeclarationOf<R>>, options?: RequestOptions]
  ): EndpointPromise<DeclarationOf<R>>;
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
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = args.params?.[name];
      if (value === undefined || value === '')
        throw new VsfError(`Missing path parameter ${name} for ${endpoint.operationId}`);
      return encodeURIComponent(value);
    });
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

  private async send<T>(
    endpoint: RouteLike,
    args: RequestArgs,
    options: RequestOptions,
    parse: (body: unknown, response: Response) => T,
  ): Promise<WithResponse<T>> {
    const url = this.buildUrl(endpoint, args);
    const method = endpoint.method.toUpperCase();
    const headers: Record<string, string> = {
      accept: endpoint.binary ? '*/*' : 'application/json',
      'user-agent': `vsf-sdk/${VERSION}`,
      ...this.defaultHeaders,
      ...(this.authHeader === 'x-api-key'
        ? { 'x-api-key': this.credential }
        : { authorization: `Bearer ${this.credential}` }),
      ...options.headers,
    };
    // One key for the call, reused by every retry, so the server runs the write at most once.
    if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID();
    const timeout = options.timeout ?? this.timeout;
    const maxRetries = options.maxRetries ?? this.maxRetries;

    const attempt = async (attemptNumber: number): Promise<WithResponse<T>> => {
      // The URL carries no secret: the key travels in a header.
      if (this.debug) this.log.debug(`${method} ${url}`, { attempt: attemptNumber });
      const started = Date.now();
      try {
        // ky's own timeout covers the wait for the response; `readBody` the rest of it. Each abort signal
        // costs as much as a small request's parsing, so a call without one of its own makes one, ky's.
        const response = await ky(url, {
          method,
          headers,
          ...(args.body instanceof JsonText
            ? { body: args.body.text, headers: { ...headers, 'content-type': 'application/json' } }
            : args.body instanceof RawBody
              ? { body: args.body.bytes, headers: { ...headers, 'content-type': args.body.contentType } }
              : args.body !== undefined
                ? { json: args.body }
                : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          retry: 0,
          timeout,
          throwHttpErrors: false,
          fetch: this.fetchImpl,
        });
        this.noteExtensions(response);
        // Bytes are the caller's to read (or stream); only an error body is read here.
        if (endpoint.binary && response.ok) return { data: parse(undefined, response), response };
        const text = await readBody(response, timeout - (Date.now() - started), options.signal);
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
        if (error instanceof KyTimeoutError || error instanceof BodyTimeout) {
          throw new TimeoutError(`${method} ${url} timed out after ${timeout} ms`, { cause: error });
        }
        throw new ConnectionError(`${method} ${url} failed: ${(error as Error).message}`, { cause: error });
      }
    };

    return pRetry(attempt, {
      retries: maxRetries,
      // The delay is ours (Retry-After or jittered backoff), slept in onFailedAttempt.
      minTimeout: 0,
      maxTimeout: 0,
      factor: 1,
      randomize: false,
      ...(options.signal ? { signal: options.signal } : {}),
      shouldRetry: ({ error }) =>
        error instanceof VsfError && isRetryable(error) && retryDelayMs(1, error) !== undefined,
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
        const decision = retryDecision(error, attemptNumber, retriesLeft);
        const fields = { attempt: attemptNumber, status: (error as VsfError).status, reason: error.message };
        if (decision.delay === undefined) {
          this.log.debug(`not retrying ${method} ${url}: ${decision.why}`, fields);
          return;
        }
        const delay = decision.delay;
        this.log.info(`retrying ${method} ${url} in ${Math.round(delay)} ms after: ${error.message}`, {
          ...fields,
          delayMs: Math.round(delay),
        });
        await sleep(delay, options.signal);
      },
    });
  }
}

/** Whether a failed attempt is retried, and after how long; `why` says it for the debug log when not. */
function retryDecision(error: Error, attempt: number, retriesLeft: number): { delay?: number; why: string } {
  if (!(error instanceof VsfError) || !isRetryable(error)) return { why: 'the error is not retryable' };
  if (retriesLeft === 0) return { why: 'no retries left' };
  const delay = retryDelayMs(attempt, error);
  if (delay === undefined) return { why: 'the server asked to wait longer than 60 s' };
  return { delay, why: 'retryable' };
}

/** The time left for a call ran out while its body was being read. */
class BodyTimeout extends Error {}

/**
 * Reads the body, giving up after `ms` (what is left of the call's timeout) or when `signal` aborts, even if
 * the fetch implementation would keep reading.
 */
function readBody(response: Response, ms: number, signal: AbortSignal | undefined): Promise<string> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.reject(new BodyTimeout());
  return new Promise((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const stop = (reason: unknown) => {
      settle();
      response.body?.cancel().catch(() => {});
      reject(reason);
    };
    const onAbort = () => stop(signal?.reason);
    const timer = setTimeout(() => stop(new BodyTimeout()), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    response.text().then(
      (text) => {
        settle();
        resolve(text);
      },
      (error) => {
        settle();
        reject(error);
      },
    );
  });
}

function parseJson(text: string, response: Response): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: `Unexpected non-JSON response (HTTP ${response.status})` };
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const id = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(id);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
