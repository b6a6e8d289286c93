import type { createCarPhoto, EndpointResponse } from '@vsf/contract';
import type { APIPromise } from '../core/api-promise.js';
import { APIPromise as Promised } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import { JsonText } from '../core/base-client.js';
import type { RequestOptions } from '../core/client-options.js';
import { base64, checkPhoto, inferContentType, type PhotoSource, sourceFilename, toBytes } from '../core/photo-file.js';
import { apiEndpoints } from '../generated/api-endpoints.js';

export type PhotoUpload =
  | { sessionId: string; file: PhotoSource; filename?: string; contentType?: string }
  | { sessionId: string; sourceUrl: string; filename?: string; contentType?: string };

type Photo = EndpointResponse<typeof createCarPhoto>['data'];

/** Hand-written beside the generated `create`/`list`: uploads from bytes or a URL, one photo per request. */
export class CarsPhotosResourceExtension extends APIResource {
  /**
   * Uploads one photo into a car event's session. `file` may be a Uint8Array/Buffer, ArrayBuffer, Blob, readable
   * stream, or a file path once `@vsf/sdk/node` is imported; filename and type are inferred (name, magic bytes,
   * extension), and photos over 3 MiB or not images are refused before any request. Or pass `sourceUrl`.
   */
  upload(carId: string, upload: PhotoUpload, options?: RequestOptions): APIPromise<Photo> {
    const body = (async () => {
      if ('sourceUrl' in upload) {
        const filename = upload.filename ?? new URL(upload.sourceUrl).pathname.split('/').pop() ?? 'photo';
        const contentType = upload.contentType ?? inferContentType(new Uint8Array(), filename) ?? 'image/jpeg';
        return { sessionId: upload.sessionId, filename, contentType, sourceUrl: upload.sourceUrl };
      }
      const bytes = await toBytes(upload.file);
      const filename = upload.filename ?? sourceFilename(upload.file) ?? 'photo';
      const contentType = checkPhoto(bytes, filename, upload.contentType ?? inferContentType(bytes, filename));
      // The base64 alphabet needs no JSON escaping, so only the small fields go through JSON.stringify.
      const fields = JSON.stringify({ sessionId: upload.sessionId, filename, contentType });
      return new JsonText(`${fields.slice(0, -1)},"base64":"${base64(bytes)}"}`);
    })();
    return new Promised(
      body.then((b) =>
        this._client
          .requestData<Photo>(apiEndpoints.createCarPhoto, { params: { carId }, body: b }, options)
          .withResponse(),
      ),
    );
  }
}
