import { IMAGE_MEDIA_TYPE, IMAGE_MEDIA_TYPE_MESSAGE, PHOTO_MAX_BYTES, toValidationDetails } from '@vsf/contract';
import busboy from 'busboy';
import type { Request } from 'express';
import type { z } from 'zod';
import { ApiHttpError, type ValidationDetail, validationFailed } from '../errors/api-http-error.js';
import type { BodyTimeouts } from './body-timeouts.js';
import { jsonSafetyProblems } from './json-safety.js';
import { readBodyBytes } from './read-body-bytes.js';
import { imageTooLarge, refuseContentEncoding } from './read-image-body.js';

/** The part that holds the image, named as Stripe's and most upload APIs' file part is. */
export const FILE_PART = 'file';
/** Room for the form's boundaries, part headers and text fields around a 3 MiB image. */
const ENVELOPE_BYTES = 64 * 1024;
const MAX_FIELDS = 16;
const MAX_FIELD_BYTES = 8 * 1024;

interface MultipartImage {
  /** The form's text fields, as sent (validated by the caller against the endpoint's fields). */
  fields: Record<string, string>;
  /** The image's type: a `contentType` field, else the file part's own `Content-Type`. */
  contentType: string;
  /** The file part's `filename`, for a form that sends no `filename` field. */
  partFilename: string | undefined;
  bytes: Uint8Array;
}

/** Whether a request sends `multipart/form-data` (the `binary-upload` extension's form). */
export function isMultipartBody(req: Request): boolean {
  return /^multipart\/form-data\b/i.test(req.get('content-type') ?? '');
}

const malformed = (why: string) =>
  validationFailed([{ path: '', message: `The multipart/form-data body could not be read: ${why}` }]);

/**
 * Reads a `multipart/form-data` image upload, as a browser's `FormData` or `curl -F file=@front.jpg` sends
 * it: one `file` part holding the image (up to 3 MiB) and text fields. The body is read like any other
 * (after authentication; idle, deadline and size limits; nothing stored on refusal) and then parsed.
 */
async function readMultipartImage(req: Request, timeouts: BodyTimeouts): Promise<MultipartImage> {
  refuseContentEncoding(req);
  if (!/;\s*boundary=/i.test(req.get('content-type') ?? '')) {
    req.resume();
    throw malformed('its Content-Type has no boundary (let the HTTP client set it, as FormData and curl -F do)');
  }
  const body = await readBodyBytes(req, {
    limit: PHOTO_MAX_BYTES + ENVELOPE_BYTES,
    tooLarge: () => imageTooLarge(),
    timeouts,
  });
  return parseForm(req, body);
}

/**
 * An upload sent as a form: its fields checked against `fields` (the endpoint's, less the image's own;
 * `filename` defaults to the file part's), and the image with its type.
 */
export async function readFormUpload(
  req: Request,
  fields: z.ZodObject,
  timeouts: BodyTimeouts,
): Promise<{ fields: Record<string, unknown>; bytes: Uint8Array }> {
  const sent = await readMultipartImage(req, timeouts);
  const named = 'filename' in fields.shape && sent.partFilename ? { filename: sent.partFilename } : {};
  const values = { ...named, ...sent.fields };
  const unsafe = [...jsonSafetyProblems(values), ...notUtf8(values)];
  if (unsafe.length > 0) throw validationFailed(unsafe);
  const parsed = fields.safeParse(values);
  if (!parsed.success) throw validationFailed(toValidationDetails(parsed.error));
  return { fields: { ...parsed.data, contentType: sent.contentType }, bytes: sent.bytes };
}

/**
 * Text that was not UTF-8: busboy decodes such bytes to U+FFFD, which would be stored in place of what the
 * client meant (as a query's bad escapes would, query-encoding.ts).
 */
function notUtf8(values: Record<string, string>): ValidationDetail[] {
  return Object.entries(values)
    .filter(([, value]) => value.includes('\uFFFD'))
    .map(([path]) => ({ path, message: 'Holds bytes that are not UTF-8 (or U+FFFD); send the text as UTF-8' }));
}

function parseForm(req: Request, body: Buffer): Promise<MultipartImage> {
  return new Promise((resolve, reject) => {
    // No prototype: a field named `__proto__` is a field like any other (and refused as unknown).
    const fields: Record<string, string> = Object.create(null);
    const chunks: Buffer[] = [];
    let file: { contentType: string; filename: string | undefined } | undefined;
    let problem: ApiHttpError | undefined;
    const refuse = (error: ApiHttpError) => {
      problem ??= error;
    };
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          files: 1,
          fields: MAX_FIELDS,
          parts: MAX_FIELDS + 1,
          // busboy stops a file when it reaches this size: one byte past the limit is the first refused.
          fileSize: PHOTO_MAX_BYTES + 1,
          fieldSize: MAX_FIELD_BYTES,
          fieldNameSize: 100,
        },
      });
    } catch (error) {
      reject(malformed((error as Error).message));
      return;
    }
    // busboy gives a part sent with `name=""` no name at all (undefined, whatever its types say).
    const unnamed = () =>
      refuse(malformed('a part has no name; name each part (Content-Disposition: form-data; name="…")'));
    form.on('field', (name: string | undefined, value, info) => {
      if (!name) return unnamed();
      if (info.nameTruncated || info.valueTruncated)
        return refuse(malformed(`field "${name.slice(0, 100)}" is over ${MAX_FIELD_BYTES} bytes`));
      if (name === FILE_PART)
        return refuse(
          malformed(
            `the "${FILE_PART}" part has no filename, so it reads as text; send the image as a file (curl: -F "file=@front.jpg")`,
          ),
        );
      if (Object.hasOwn(fields, name)) return refuse(malformed(`field "${name.slice(0, 100)}" is sent twice`));
      fields[name] = value;
    });
    form.on('file', (name: string | undefined, stream, info) => {
      // A form cut short errors the open part's stream as well as the form: the form's error answers it.
      stream.on('error', () => {});
      if (!name) {
        stream.resume();
        return unnamed();
      }
      if (name !== FILE_PART || file) {
        stream.resume();
        return refuse(
          malformed(`send one image per request, in a part named "${FILE_PART}" (got a file part "${name}")`),
        );
      }
      file = { contentType: info.mimeType.toLowerCase(), filename: info.filename };
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => refuse(imageTooLarge()));
    });
    form.on('filesLimit', () => refuse(malformed(`send one image per request, in a part named "${FILE_PART}"`)));
    form.on('fieldsLimit', () => refuse(malformed(`more than ${MAX_FIELDS} fields`)));
    form.on('partsLimit', () => refuse(malformed(`more than ${MAX_FIELDS + 1} parts`)));
    form.on('error', (error: Error) => reject(problem ?? malformed(error.message)));
    form.on('close', () => {
      if (problem) return reject(problem);
      if (!file) return reject(malformed(`it has no "${FILE_PART}" part with the image`));
      const declared = fields.contentType;
      delete fields.contentType;
      if (declared !== undefined && !IMAGE_MEDIA_TYPE.test(declared)) {
        return reject(validationFailed([{ path: 'contentType', message: IMAGE_MEDIA_TYPE_MESSAGE }]));
      }
      const contentType = declared ?? file.contentType;
      if (!IMAGE_MEDIA_TYPE.test(contentType)) {
        return reject(
          new ApiHttpError(
            415,
            'unsupported_media_type',
            `The "${FILE_PART}" part is ${contentType ? `"${contentType.slice(0, 100)}"` : 'untyped'}, not an image; give its image/* type (curl: -F "file=@front.jpg;type=image/jpeg") or a contentType field`,
          ),
        );
      }
      resolve({
        fields: { ...fields },
        contentType: contentType.toLowerCase(),
        partFilename: file.filename,
        bytes: Buffer.concat(chunks),
      });
    });
    form.end(body);
  });
}
