import type { APIPromise } from '../core/api-promise.js';
import { APIPromise as Promised } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import { VsfError } from '../core/errors.js';
import { base64, checkPhoto, inferContentType, type PhotoSource, sourceFilename, toBytes } from '../core/photo-file.js';
import { JsonText, RawBody } from '../core/request-body.js';
import { apiEndpoints } from '../generated/api-endpoints.js';
import type { V1CarPhoto } from '../generated/types.js';

/** The extension name a server announces when it takes images as raw bytes. */
const BINARY_UPLOAD = 'binary-upload';

export type PhotoUpload =
  | { sessionId: string; file: PhotoSource; filename?: string; contentType?: string }
  | { sessionId: string; sourceUrl: string; filename?: string; contentType?: string };

/** Hand-written beside the generated `create`/`list`: uploads from bytes or a URL, one photo per request. */
export class CarsPhotosResourceExtension extends APIResource {
  /**
   * Uploads one photo into a car event's session. `file` may be a Uint8Array/Buffer, ArrayBuffer, Blob, readable
   * stream, or a file path once `@vsf/sdk/node` is imported; filename and type are inferred (name, magic bytes,
   * extension), and photos over 3 MiB or not images are refused before any request. Or pass `sourceUrl`.
   */
  upload(carId: string, upload: PhotoUpload, options?: RequestOptions): APIPromise<V1CarPhoto> {
    const send = (body: unknown, query?: Record<string, string>, opts = options) =>
      this._client
        .requestData<V1CarPhoto>(apiEndpoints.createCarPhoto, { params: { carId }, query, body }, opts)
        .withResponse();
    return new Promised(
      (async () => {
        if ('sourceUrl' in upload) {
          const filename = upload.filename ?? new URL(upload.sourceUrl).pathname.split('/').pop() ?? 'photo';
          const contentType = upload.contentType ?? inferContentType(new Uint8Array(), filename) ?? 'image/jpeg';
          return send({ sessionId: upload.sessionId, filename, contentType, sourceUrl: upload.sourceUrl });
        }
        const bytes = await toBytes(upload.file);
        const filename = upload.filename ?? sourceFilename(upload.file) ?? 'photo';
        const contentType = checkPhoto(bytes, filename, upload.contentType ?? inferContentType(bytes, filename));
        // The base64 alphabet needs no JSON escaping, so only the small fields go through JSON.stringify.
        const asJson = () => {
          const fields = JSON.stringify({ sessionId: upload.sessionId, filename, contentType });
          return new JsonText(`${fields.slice(0, -1)},"base64":"${base64(bytes)}"}`);
        };
        if (!this._client.serverExtensions.has(BINARY_UPLOAD)) return send(asJson());
        try {
          // Announced by the server: the bytes as they are, a third fewer than base64 and no JSON to parse.
          return await send(new RawBody(bytes, contentType), { sessionId: upload.sessionId, filename });
        } catch (error) {
          // A server that stopped announcing it (replaced meanwhile by one that speaks the spec alone)
          // refused the bytes before creating anything: send the spec's JSON under the same key. The key
          // names the upload, not its form: a server with the extension replays either form of a retry.
          const refused = error instanceof VsfError && error.status !== undefined && error.status < 500;
          if (!refused || this._client.serverExtensions.has(BINARY_UPLOAD)) throw error;
          return send(asJson());
        }
      })(),
    );
  }
}
