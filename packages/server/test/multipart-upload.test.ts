import { randomUUID } from 'node:crypto';
import { PHOTO_MAX_BYTES } from '@vsf/contract';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from './support/api-caller.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';
import { expectPhotoStored, photoCount, PNG as png, usePhotoSession } from './support/photo-session.js';

// The `binary-upload` extension's form: a photo or asset sent as multipart/form-data, as a browser's
// FormData or `curl -F file=@front.jpg` sends it, the image in a `file` part and the other fields beside it.
const session = usePhotoSession();
/** The drop-off's photo session, which most forms send. */
let sessionId: string;

type Part = { name: string; value: string } | { name: string; file: Uint8Array; filename?: string; type?: string };

/** A form as fetch sends it (boundary and part headers by undici, as a browser's). */
function formOf(parts: Part[]): FormData {
  const form = new FormData();
  for (const part of parts) {
    if ('value' in part) form.append(part.name, part.value);
    else form.append(part.name, new Blob([part.file], { type: part.type ?? '' }), part.filename ?? 'blob');
  }
  return form;
}

/** A form built byte for byte, for what FormData will not send (text that is not UTF-8, an untyped image). */
const textPart = (name: string, value: string | Buffer) =>
  Buffer.concat([Buffer.from(`Content-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value)]);
/** The image part, its filename as given (`filename*=UTF-8''…` when `extended`). */
const filePart = (filename: string | Buffer, extended = false) =>
  Buffer.concat([
    Buffer.from(`Content-Disposition: form-data; name="file"; ${extended ? "filename*=UTF-8''" : 'filename="'}`),
    Buffer.from(filename),
    Buffer.from(`${extended ? '' : '"'}\r\nContent-Type: image/png\r\n\r\n`),
    png,
  ]);
function rawForm(parts: Buffer[]) {
  const body = Buffer.concat([
    ...parts.flatMap((p) => [Buffer.from('--b\r\n'), p, Buffer.from('\r\n')]),
    Buffer.from('--b--\r\n'),
  ]);
  return { body: new Uint8Array(body), headers: { 'content-type': 'multipart/form-data; boundary=b' } };
}

async function post(
  path: string,
  body: FormData | Uint8Array | string,
  headers: Record<string, string> = {},
  query = '',
) {
  const res = await fetch(`${session.server.baseUrl}${path}${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.key}`, ...headers },
    body,
  });
  // biome-ignore lint/suspicious/noExplicitAny: each assertion states the shape it expects
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const photos = () => `/cars/${session.carId}/photos`;
const countPhotos = () => photoCount(session);
const image = (file: Uint8Array = png, filename = 'front.png', type = 'image/png'): Part => ({
  name: 'file',
  file,
  filename,
  type,
});

beforeAll(() => {
  ({ sessionId } = session);
});

describe('binary-upload as multipart/form-data', () => {
  it('stores a photo sent as a form, named by its file part, and serves its bytes back', async () => {
    const res = await post(photos(), formOf([{ name: 'sessionId', value: sessionId }, image()]));
    await expectPhotoStored(session, res, png);
    expect(res.body.data).toMatchObject({
      carId: session.carId,
      sessionId,
      filename: 'front.png',
      contentType: 'image/png',
    });
  });

  it('takes filename and contentType fields over the file part’s own (a part curl sends untyped)', async () => {
    const res = await post(
      photos(),
      formOf([
        { name: 'sessionId', value: sessionId },
        { name: 'filename', value: 'rear.png' },
        { name: 'contentType', value: 'image/png' },
        image(png, 'IMG_0001', 'application/octet-stream'),
      ]),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ filename: 'rear.png', contentType: 'image/png' });
  });

  it('stores a marketing asset sent as a form, with its name and folder as fields', async () => {
    const folder = (await session.api('POST', '/marketing/asset-folders', { body: { name: 'Spring' } })).body.data;
    const res = await post(
      '/marketing/assets',
      formOf([{ name: 'name', value: 'Banner' }, { name: 'folderId', value: folder.id }, image(png, 'banner.png')]),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Banner', folderId: folder.id, filename: 'banner.png' });
  });

  const sessionField = () => ({ name: 'sessionId', value: sessionId });
  const big = new Uint8Array(PHOTO_MAX_BYTES + 1);
  big.set(png);
  const cases: [
    string,
    () => { body: FormData | Uint8Array | string; headers?: Record<string, string>; query?: string },
    number,
    string?,
  ][] = [
    ['no file part', () => ({ body: formOf([sessionField()]) }), 400, ''],
    [
      'the image in a part not named file',
      () => ({ body: formOf([sessionField(), { ...image(), name: 'photo' }]) }),
      400,
      '',
    ],
    ['two images', () => ({ body: formOf([sessionField(), image(), image(png, 'b.png')]) }), 400, ''],
    [
      'an untyped part and no contentType field',
      () => ({ body: formOf([sessionField(), image(png, 'a', 'application/octet-stream')]) }),
      415,
    ],
    [
      'bytes that are not the declared type',
      () => ({ body: formOf([sessionField(), image(png, 'a.jpg', 'image/jpeg')]) }),
      400,
      'contentType',
    ],
    [
      'bytes that are no image',
      () => ({ body: formOf([sessionField(), image(Buffer.from('%PDF-1.7'), 'a.png')]) }),
      400,
      'contentType',
    ],
    ['no sessionId', () => ({ body: formOf([image()]) }), 400, 'sessionId'],
    [
      'a session of no event of the car',
      () => ({ body: formOf([{ name: 'sessionId', value: randomUUID() }, image()]) }),
      400,
      'sessionId',
    ],
    [
      'a field the JSON body does not have',
      () => ({ body: formOf([sessionField(), { name: 'base64', value: TINY_PNG }, image()]) }),
      400,
      '',
    ],
    ['a field sent twice', () => ({ body: formOf([sessionField(), sessionField(), image()]) }), 400, ''],
    [
      'a field of 10 000 characters',
      () => ({ body: formOf([sessionField(), { name: 'filename', value: 'x'.repeat(10_000) }, image()]) }),
      400,
      '',
    ],
    [
      'fields in the query as well',
      () => ({ body: formOf([sessionField(), image()]), query: `?sessionId=${sessionId}` }),
      400,
      '',
    ],
    ['an image over 3 MiB', () => ({ body: formOf([sessionField(), image(big)]) }), 413],
    ['a form without its boundary', () => ({ body: 'x', headers: { 'content-type': 'multipart/form-data' } }), 400, ''],
    [
      'a form cut short',
      () => ({
        body: `--b\r\nContent-Disposition: form-data; name="sessionId"\r\n\r\n${sessionId}\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${png.toString('latin1')}`,
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
      }),
      400,
      '',
    ],
    [
      'a NUL in the filename field',
      () => ({ body: formOf([sessionField(), { name: 'filename', value: 'a\u0000b.png' }, image()]) }),
      400,
      'filename',
    ],
    [
      'a NUL in the file part’s filename',
      () => rawForm([textPart('sessionId', sessionId), filePart('a%00b.png', true)]),
      400,
      'filename',
    ],
    [
      // busboy reads `name=""` as no name at all; two of them once crashed the duplicate check (a 500).
      'two fields with an empty name',
      () => ({ body: formOf([sessionField(), { name: '', value: 'a' }, { name: '', value: 'b' }, image()]) }),
      400,
      '',
    ],
    ['a file part with an empty name', () => ({ body: formOf([sessionField(), { ...image(), name: '' }]) }), 400, ''],
    [
      'a field named __proto__',
      () => ({ body: formOf([sessionField(), { name: '__proto__', value: 'x' }, image()]) }),
      400,
      '',
    ],
    [
      'a field that is not UTF-8',
      () =>
        rawForm([
          textPart('sessionId', sessionId),
          textPart('filename', Buffer.from([0x61, 0xc3, 0x28])),
          filePart('a.png'),
        ]),
      400,
      'filename',
    ],
    [
      'a file part’s filename that is not UTF-8',
      () => rawForm([textPart('sessionId', sessionId), filePart(Buffer.from([0x61, 0xff, 0x2e, 0x70, 0x6e, 0x67]))]),
      400,
      'filename',
    ],
    [
      'the image as a text part (curl -F file=<front.png)',
      () => rawForm([textPart('sessionId', sessionId), textPart('file', png)]),
      400,
      '',
    ],
    [
      'a contentType field that is no image type',
      () => ({ body: formOf([sessionField(), { name: 'contentType', value: `image/${'a'.repeat(5000)}` }, image()]) }),
      400,
      'contentType',
    ],
  ];
  it.each(cases)('refuses %s with an ApiError and stores nothing', async (_case, make, status, path) => {
    const before = await countPhotos();
    const { body, headers, query } = make();
    const res = await post(photos(), body, headers, query);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(isApiError(res.body)).toBe(true);
    if (path !== undefined) expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await countPhotos()).toBe(before);
  });

  it('refuses a form declared over the limit by its Content-Length, and a compressed one, unread', async () => {
    const before = await countPhotos();
    const huge = await post(photos(), 'x'.repeat(PHOTO_MAX_BYTES + 128 * 1024), {
      'content-type': 'multipart/form-data; boundary=b',
    });
    expect([huge.status, huge.body.code]).toEqual([413, 'payload_too_large']);
    const gzip = await post(photos(), formOf([sessionField(), image()]), { 'content-encoding': 'gzip' });
    expect([gzip.status, gzip.body.code]).toEqual([415, 'unsupported_media_type']);
    expect(await countPhotos()).toBe(before);
  });

  it('replays a retry that switches between raw bytes, a form and base64 under the same Idempotency-Key', async () => {
    const idem = { 'idempotency-key': randomUUID() };
    const raw = await post(`${photos()}?sessionId=${sessionId}&filename=switch.png`, png, {
      ...idem,
      'content-type': 'image/png',
    });
    const form = await post(photos(), formOf([sessionField(), image(png, 'switch.png')]), idem);
    const json = await session.api('POST', photos(), {
      body: { sessionId, filename: 'switch.png', contentType: 'image/png', base64: TINY_PNG },
      headers: idem,
    });
    expect([raw.status, form.status, json.status]).toEqual([201, 201, 201]);
    expect(form.headers.get('idempotent-replayed')).toBe('true');
    expect([form.body.data.id, json.body.data.id]).toEqual([raw.body.data.id, raw.body.data.id]);
    const other = await post(
      photos(),
      formOf([sessionField(), image(Buffer.concat([png, Buffer.from([0])]), 'switch.png')]),
      idem,
    );
    expect(other.status).toBe(409);
  });

  it('is refused before the form is read to a key without write:cars', async () => {
    const teamId = (await session.api('GET', '/auth/key')).body.data.teamId;
    const readOnly = (await session.server.createKey(teamId, ['read:cars'])).key;
    const res = await fetch(`${session.server.baseUrl}${photos()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${readOnly}` },
      body: formOf([sessionField(), image()]),
    });
    expect(res.status).toBe(403);
  });

  it('stores an image of exactly 3 MiB, as raw bytes and base64 would', async () => {
    const exact = new Uint8Array(PHOTO_MAX_BYTES);
    exact.set(png);
    const res = await post(photos(), formOf([sessionField(), image(exact, 'exact.png')]));
    await expectPhotoStored(session, res, exact);
  });

  it('names an asset after a long filename within the name’s 200 characters, so the name can be sent back', async () => {
    const filename = `${'é'.repeat(199)}😀${'x'.repeat(40)}.png`;
    const res = await post('/marketing/assets', formOf([image(png, filename)]));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.filename).toBe(filename);
    expect(res.body.data.name).toBe('é'.repeat(199));
    const renamed = await session.api('PATCH', `/marketing/assets/${res.body.data.id}`, {
      body: { name: res.body.data.name },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  });

  it('never answers 5xx to generated forms, cut anywhere, and stores a photo only when it answers 201', async () => {
    const name = fc.oneof(fc.constantFrom('file', 'sessionId', 'filename', 'contentType', 'base64', ''), fc.string());
    const value = fc.oneof(
      fc.constant('SESSION'),
      fc.string(),
      fc.constantFrom('front.png', 'image/png', 'image/jpeg', '\u0000', '😀'.repeat(300)),
    );
    const part = fc.record({
      name,
      value,
      file: fc.option(fc.constantFrom('png', 'pdf', 'empty'), { nil: undefined }),
      type: fc.option(fc.constantFrom('image/png', 'image/jpeg', 'application/octet-stream', 'text/plain', ''), {
        nil: undefined,
      }),
    });
    type GenPart = {
      name: string;
      value: string;
      file?: 'png' | 'pdf' | 'empty' | undefined;
      type?: string | undefined;
    };
    const valid: GenPart[] = [
      { name: 'sessionId', value: 'SESSION' },
      { name: 'file', value: 'front.png', file: 'png', type: 'image/png' },
    ];
    // Around a valid form, so the generated ones reach success as well as every kind of refusal.
    const forms = fc.oneof(
      fc.constant(valid),
      fc.array(part, { minLength: 1, maxLength: 2 }).map((extra) => [...valid, ...extra]),
      fc.tuple(fc.nat(1), part).map(([i, p]) => valid.map((v, j) => (i === j ? p : v))),
      fc.array(part, { maxLength: 5 }),
    );
    const bytes = { png, pdf: Buffer.from('%PDF-1.7 not an image'), empty: Buffer.alloc(0) };
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(forms, fc.option(fc.nat(), { nil: undefined, freq: 3 }), async (parts, cut) => {
        const chunks: Buffer[] = [];
        for (const p of parts) {
          const filename = p.file ? `; filename="${p.value.replace(/["\r\n]/g, '')}"` : '';
          chunks.push(
            Buffer.from(
              `--fuzz\r\nContent-Disposition: form-data; name="${p.name.replace(/["\r\n]/g, '')}"${filename}\r\n${
                p.type === undefined ? '' : `Content-Type: ${p.type}\r\n`
              }\r\n`,
            ),
            p.file ? bytes[p.file] : Buffer.from(p.value === 'SESSION' ? sessionId : p.value),
            Buffer.from('\r\n'),
          );
        }
        chunks.push(Buffer.from('--fuzz--\r\n'));
        const whole = Buffer.concat(chunks);
        const body = cut === undefined ? whole : whole.subarray(0, cut % (whole.length + 1));
        const before = await countPhotos();
        const res = await post(photos(), new Uint8Array(body), {
          'content-type': 'multipart/form-data; boundary=fuzz',
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        if (res.status !== 201) expect(isApiError(res.body), JSON.stringify(res.body)).toBe(true);
        expect(await countPhotos()).toBe(before + (res.status === 201 ? 1 : 0));
      }),
      { numRuns: process.env.VSF_STRESS ? 400 : 80 },
    );
    console.log(`generated forms by status: ${[...statuses].map(([k, n]) => `${k}×${n}`).join(', ')}`);
    expect(statuses.get(201)).toBeGreaterThan(0);
  });
});

// An image's media type reaches the server through three doors: a JSON `contentType`, a raw body's
// `Content-Type`, a form's `contentType` field. One rule (IMAGE_MEDIA_TYPE) holds for all three, so a type
// one door takes, every door takes, and each stores it the same way.
describe('an image media type, through each door', () => {
  const subtype = fc.oneof(
    fc.constantFrom('png', 'PNG', 'Png', 'x-png', 'png.v2', 'png+x', 'png_x', '', ' png', 'p ng', 'pn\u00e9g', 'png/x'),
    fc.integer({ min: 120, max: 135 }).map((n) => 'p'.repeat(n)),
  );
  const mediaType = fc.oneof(
    { weight: 5, arbitrary: subtype.map((s) => `image/${s}`) },
    { weight: 1, arbitrary: fc.constantFrom('IMAGE/png', 'text/png', 'imagepng', 'image', 'application/octet-stream') },
  );
  /** Whether the type names the PNG sent (a PNG declared as another image type is refused, as it should be). */
  const accepted = (res: { status: number }) => res.status === 201;

  it('is taken, or refused, alike by a JSON field, a raw Content-Type and a form field', {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(mediaType, async (type) => {
        const filename = `door-${randomUUID()}.png`;
        const json = await post(
          photos(),
          JSON.stringify({ sessionId, filename, contentType: type, base64: TINY_PNG }),
          { 'content-type': 'application/json' },
        );
        // fetch refuses a header value with a non-Latin-1 character: that door cannot send it at all.
        const raw = /^[\x20-\x7e]*$/.test(type)
          ? await post(photos(), png, { 'content-type': type }, `?sessionId=${sessionId}&filename=${filename}`)
          : json;
        const form = await post(
          photos(),
          formOf([
            { name: 'sessionId', value: sessionId },
            { name: 'contentType', value: type },
            image(png, filename, 'application/octet-stream'),
          ]),
        );
        const verdicts = [json, raw, form].map(accepted);
        expect({ type, verdicts }).toEqual({ type, verdicts: [verdicts[0], verdicts[0], verdicts[0]] });
        for (const res of [json, raw, form]) {
          if (accepted(res)) expect(res.body.data.contentType).toBe(type.toLowerCase());
          else expect(isApiError(res.body), JSON.stringify(res.body)).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});
