import { describe, expect, it, vi } from 'vitest';
import { VsfClient } from '../generated/vsf-client.js';
import type { ClientOptions } from './client-options.js';
import { TimeoutError } from './errors.js';
import { JsonText, RawBody } from './request-body.js';
import { MIN_UPLOAD_BYTES_PER_SECOND, uploadAllowance } from './upload-allowance.js';

// A body gets time to be sent at the minimum upload rate on top of the client's timeout: a photo on a slow
// uplink must not time out on every attempt. A fake fetch stands in for the network: it reads the body it
// was handed (counting what was actually sent), then answers after `ms`, or never.

const BASE = 'http://vsf.test/api/v1';
const KEY = 'vsf_abcdefghijkl.SECRETSECRETSECRETSECRETSECRETSECRETSECRET123';
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A JPEG of `size` bytes: the magic bytes, then padding. */
const photoOf = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set(JPEG);
  return bytes;
};

/** Resolves after `ms` (never when `Infinity`), or rejects when `signal` aborts (the SDK's timeout aborts it). */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined;
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * A client whose fetch records the bytes of each request body, then answers after `ms` (never when
 * `Infinity`); a GET answers at once when `announce` names an extension, so the client learns it.
 */
function network(ms: number, options: Partial<ClientOptions> & { announce?: string } = {}) {
  const sent: number[] = [];
  const { announce, ...clientOptions } = options;
  const client = new VsfClient({
    apiKey: KEY,
    baseUrl: BASE,
    logLevel: 'off',
    maxRetries: 0,
    ...clientOptions,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (announce && request.method === 'GET') return json({ data: {} }, 200, { 'vsf-extensions': announce });
      sent.push((await request.arrayBuffer()).byteLength);
      await pause(ms, request.signal);
      return json({ data: { id: 'n' } }, request.method === 'POST' ? 201 : 200);
    },
  });
  return { client, sent };
}

/** What the attempt was allowed, as its TimeoutError says. */
const allowedMs = (error: unknown) => {
  expect(error).toBeInstanceOf(TimeoutError);
  return Number(/timed out after (\d+) ms$/.exec((error as TimeoutError).message)?.[1]);
};
const allowance = (bytes: number) => Math.ceil((bytes / MIN_UPLOAD_BYTES_PER_SECOND) * 1000);

describe('a body gets time to be sent on top of the client timeout', () => {
  it('so a large upload slower than the timeout succeeds, while a small body or a GET still times out', async () => {
    // 16 KiB as base64 JSON: ~2.7 s of allowance, against an answer after 300 ms and a 50 ms timeout.
    const { client, sent } = network(300, { timeout: 50 });
    const photo = await client.cars.photos.upload('car1', { sessionId: 's1', file: photoOf(16 * 1024) });
    expect(photo).toEqual({ id: 'n' });
    expect(sent[0]).toBeGreaterThan(16 * 1024);

    const create = await client.cars.create({ year: 2000, make: 'A', model: 'B' }).catch((e: unknown) => e);
    expect(allowedMs(create)).toBe(50 + allowance(sent[1] as number));
    expect(allowedMs(create)).toBeLessThan(60);
    expect(allowedMs(await client.cars.get('c').catch((e: unknown) => e))).toBe(50);
  });

  it("respects a call's own timeout exactly, however large the body", async () => {
    const { client } = network(300, { timeout: 50 });
    const error = await client.cars.photos
      .upload('car1', { sessionId: 's1', file: photoOf(16 * 1024) }, { timeout: 40 })
      .catch((e: unknown) => e);
    expect(allowedMs(error)).toBe(40);
  });

  it('counts the bytes actually sent: UTF-8 of JSON, base64 of a photo as JSON, the bytes of a raw photo', async () => {
    const { client, sent } = network(Number.POSITIVE_INFINITY, { timeout: 20 });
    // Two to four bytes a character in UTF-8: counting characters would allow too little.
    const make = 'Citroën 🚗'.repeat(100);
    const create = await client.cars.create({ year: 2000, make, model: 'B' }).catch((e: unknown) => e);
    expect(sent[0]).toBe(Buffer.byteLength(JSON.stringify({ year: 2000, make, model: 'B' })));
    expect(sent[0]).toBeGreaterThan(make.length + 30);
    expect(allowedMs(create)).toBe(20 + allowance(sent[0] as number));

    const asJson = await client.cars.photos
      .upload('car1', { sessionId: 's1', file: photoOf(600) })
      .catch((e: unknown) => e);
    expect(sent[1]).toBeGreaterThan(800);
    expect(allowedMs(asJson)).toBe(20 + allowance(sent[1] as number));

    const { client: binary, sent: rawSent } = network(Number.POSITIVE_INFINITY, {
      timeout: 20,
      announce: 'binary-upload',
    });
    await binary.cars.get('c');
    const raw = await binary.cars.photos
      .upload('car1', { sessionId: 's1', file: photoOf(600) })
      .catch((e: unknown) => e);
    expect(rawSent).toEqual([600]);
    expect(allowedMs(raw)).toBe(20 + allowance(600));
  });
});

describe('uploadAllowance', () => {
  it("is the ms to send the bytes at the minimum rate, rounded up, counted alike with or without Node's Buffer", () => {
    const text = new JsonText(`"${'é'.repeat(MIN_UPLOAD_BYTES_PER_SECOND / 2)}"`);
    expect(uploadAllowance(text)).toBe(1_001);
    expect(uploadAllowance(new RawBody(new Uint8Array(MIN_UPLOAD_BYTES_PER_SECOND * 3), 'image/png'))).toBe(3_000);
    expect(uploadAllowance(undefined)).toBe(0);
    vi.stubGlobal('Buffer', undefined);
    try {
      expect(uploadAllowance(text)).toBe(1_001);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
