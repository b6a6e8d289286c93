import { createHash } from 'node:crypto';
import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer } from '../../src/testing/start-test-server.js';
import { type ApiCaller, apiCaller } from './api-caller.js';
import { TINY_PNG } from './endpoint-fixtures.js';

/** A valid PNG of a few bytes. */
export const PNG = Buffer.from(TINY_PNG, 'base64');

export interface PhotoSession {
  server: TestServer;
  /** A key with every scope. */
  key: string;
  api: ApiCaller;
  carId: string;
  /** The drop-off's photo session. */
  sessionId: string;
}

/** A server, a team and a car dropped off into a zone: where the photo upload suites start. */
export async function startPhotoSession(): Promise<PhotoSession> {
  const server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  const api = apiCaller(server.baseUrl, key);
  const carId = (await api('POST', '/cars', { body: { year: 2001, make: 'Honda', model: 'S2000' } })).body.data.id;
  const parkingZoneId = (await api('POST', '/parking-zones', { body: { name: 'Hall A' } })).body.data.id;
  const dropOff = { activityType: 'drop_off', parkingZoneId };
  const sessionId = (await api('POST', `/cars/${carId}/events`, { body: dropOff })).body.data.sessionId;
  return { server, key, api, carId, sessionId };
}

/** A photo session started before the suite's tests (the object is filled in then), closed after them. */
export function usePhotoSession(): PhotoSession {
  const session = {} as PhotoSession;
  beforeAll(async () => {
    Object.assign(session, await startPhotoSession());
  });
  afterAll(() => session.server?.close());
  return session;
}

/** How many photos the car has. */
export const photoCount = async ({ api, carId }: PhotoSession) =>
  (await api('GET', `/cars/${carId}/photos`)).body.total as number;

/** A 201 for the car's photo, with its `Location`, and the media URL serving `bytes` back as sent. */
export async function expectPhotoStored(
  { server, key, carId }: PhotoSession,
  res: { status: number; headers: Headers; body: { data: { id: string; url: string; sizeBytes: number } } },
  bytes: Uint8Array,
): Promise<void> {
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.headers.get('location')).toMatch(new RegExp(`/cars/${carId}/photos/${res.body.data.id}$`));
  expect(res.body.data.sizeBytes).toBe(bytes.length);
  const media = await fetch(`${server.origin}${res.body.data.url}`, { headers: { authorization: `Bearer ${key}` } });
  // By digest: a deep equality of 3 MiB blocks the process (and the in-process server) for seconds.
  expect(sha256(new Uint8Array(await media.arrayBuffer()))).toBe(sha256(bytes));
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
