import { idParams } from '../define-resource.js';
import { defineEndpoint } from '../endpoint.js';
import { z } from '../zod.js';

// The bytes behind a photo's or asset's `url`. Not a JSON resource: declared here so it is in the OpenAPI
// document and the SDK (`client.media.download`) like every other route, instead of bound by hand.
export const downloadMedia = defineEndpoint({
  operationId: 'downloadMedia',
  surface: 'v1',
  method: 'get',
  basePath: '/api',
  path: '/media/{mediaId}',
  summary: 'Download the bytes of a car photo or marketing asset',
  description:
    'The `url` of a car photo or marketing asset points here. The body is the image itself, with its `Content-Type`, `Content-Length` and a `Content-Disposition` naming the uploaded file. A car photo needs `read:cars`, an asset `read:marketing-assets`; another team’s media answers 404 like a missing one.',
  scopes: { all: [], any: ['read:cars', 'read:marketing-assets'] },
  sdk: { namespace: ['media'], method: 'download' },
  params: idParams('mediaId'),
  response: {
    status: 200,
    description: 'The image bytes',
    schema: z.string().openapi({ type: 'string', format: 'binary' }),
    contentType: 'image/*',
  },
  resourceName: 'Media',
});
