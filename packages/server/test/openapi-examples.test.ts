import { ALL_SCOPES, buildOpenApiDocument } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';
import { createWorld } from './support/endpoint-fixtures.js';

// Generated from the served OpenAPI document: every request example is one the server accepts, so "Try it
// out" in /docs works with the example as shown. Example ids are swapped for real records of the team
// (by field name: `customerId` gets the world's customer); the only 4xx allowed is a record that does not
// exist, and with every id a real one even that does not happen here.

interface Media {
  example?: unknown;
}
interface Operation {
  requestBody?: { content: Record<string, Media> };
}

/** The bytes a user picks for an image example: the smallest file of the type the example names. */
const IMAGE_BYTES: Record<string, Uint8Array> = {
  'image/jpeg': new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]),
  'image/png': Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
};
const BYTES_PLACEHOLDER = /^\(the (image|file)’s bytes\)$/;

const document = buildOpenApiDocument('v1') as unknown as { paths: Record<string, Record<string, Operation>> };
const examples = Object.entries(document.paths).flatMap(([path, operations]) =>
  Object.entries(operations).flatMap(([method, operation]) =>
    Object.entries(operation.requestBody?.content ?? {})
      .filter(([, media]) => media.example !== undefined)
      .map(([mediaType, media]) => ({ method, path, mediaType, example: media.example })),
  ),
);

let server: TestServer;
let api: ApiCaller;
let key: string;
let world: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const NEW_CUSTOMER = { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '+15555550111' };
const teams = new Map<string, { key: string; world: Record<string, string> }>();

/**
 * A team of its own for each method: creates only add records, and each update changes another record, so
 * no example meets another's writes (a create and an update naming one unique value would).
 */
async function teamFor(method: string): Promise<void> {
  let team = teams.get(method);
  if (!team) {
    const created = (await server.createTeamWithKey(ALL_SCOPES)).key;
    const caller = apiCaller(server.baseUrl, created);
    const ids = await createWorld(caller);
    // The world's customer is already invited to its event; a user inviting someone names another.
    if (method === 'post') ids.customerId = (await caller('POST', '/customers', { body: NEW_CUSTOMER })).body.data.id;
    team = { key: created, world: ids };
    teams.set(method, team);
  }
  ({ key, world } = team);
  api = apiCaller(server.baseUrl, key);
}

/** The world's record for an id field: `customerId` and `customerIds` items name a customer. */
function realId(field: string): string {
  const id = world[field] ?? world[field.replace(/Ids$/, 'Id')];
  if (!id) throw new Error(`no record for ${field}: add a record factory to test/support/endpoint-fixtures.ts`);
  return id;
}

/** Any uuid in a request example is an example id: nothing else in a body has that form. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function withRealIds(value: unknown, field = ''): unknown {
  if (typeof value === 'string' && UUID.test(value)) return realId(field);
  if (Array.isArray(value)) return value.map((item) => withRealIds(item, field));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withRealIds(v, k)]));
  return value;
}

function pathOf(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => realId(name));
}

/** A multipart example as a form: the file part gets real bytes of the type the example names. */
function formOf(example: Record<string, unknown>): FormData {
  const form = new FormData();
  const type = String(example.contentType ?? 'image/png');
  for (const [name, value] of Object.entries(example)) {
    if (typeof value === 'string' && BYTES_PLACEHOLDER.test(value)) {
      const bytes = IMAGE_BYTES[type] ?? (IMAGE_BYTES['image/png'] as Uint8Array);
      form.append(name, new Blob([bytes], { type }), String(example.filename ?? 'example'));
    } else form.append(name, String(value));
  }
  return form;
}

async function send(method: string, path: string, mediaType: string, example: unknown) {
  if (mediaType === 'application/json') return api(method, pathOf(path), { body: withRealIds(example) });
  const url = `${server.baseUrl}${pathOf(path)}`;
  const res = await fetch(url, {
    method: method.toUpperCase(),
    headers: { authorization: `Bearer ${key}` },
    body: formOf(withRealIds(example) as Record<string, unknown>),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** A record the request names that does not exist: the one 4xx a correct example may meet. */
function isMissingRecord(status: number, body: unknown): boolean {
  const { code, details } = body as { code?: string; details?: { path: string; message: string }[] };
  if (status === 404 && code === 'not_found') return true;
  return (
    status === 400 &&
    code === 'validation_error' &&
    (details ?? []).length > 0 &&
    (details ?? []).every((d) => /Ids?$/.test(d.path) && /not found/i.test(d.message))
  );
}

describe('request examples of the served OpenAPI document', () => {
  it('are the ones the server serves', async () => {
    const served = await fetch(`${server.baseUrl}/openapi.json`);
    expect(await served.json()).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('cover every request body', () => {
    const bodies = Object.values(document.paths).flatMap((ops) =>
      Object.values(ops).flatMap((op) => Object.keys(op.requestBody?.content ?? {})),
    );
    expect(examples).toHaveLength(bodies.length);
  });

  for (const { method, path, mediaType, example } of examples) {
    // Raw image bytes have no example beyond a placeholder: the bytes are the caller's file.
    if (mediaType === 'image/*') continue;
    it(`${method.toUpperCase()} ${path} (${mediaType}) is accepted as shown`, async () => {
      await teamFor(method);
      const res = await send(method, path, mediaType, example);
      if (res.status >= 400 && res.status < 500 && isMissingRecord(res.status, res.body)) return;
      expect(res.status, `${JSON.stringify(example)} → ${JSON.stringify(res.body)}`).toBeLessThan(300);
    });
  }
});
