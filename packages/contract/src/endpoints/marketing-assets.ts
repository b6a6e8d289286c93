import { defineEndpoint } from '../endpoint.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse } from '../schemas/common.js';
import {
  V1AssetFolder,
  V1AssetFolderCreate,
  V1AssetFolderUpdate,
  V1MarketingAsset,
  V1MarketingAssetCreate,
  V1MarketingAssetUpdate,
} from '../schemas/marketing-asset.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

const read = { all: readScopes('marketing-assets') };
const write = { all: writeScopes('marketing-assets') };

export const listMarketingAssets = defineEndpoint({
  operationId: 'listMarketingAssets',
  surface: 'v1',
  method: 'get',
  path: '/marketing/assets',
  summary: 'List marketing assets',
  scopes: read,
  sdk: { namespace: ['marketing', 'assets'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    folderId: z
      .union([z.uuid(), z.literal('root')])
      .optional()
      .openapi({ description: 'Only assets directly in this folder; `root` for those at the top level' }),
  }),
  response: { status: 200, description: 'A page of assets', schema: listResponse(V1MarketingAsset) },
  paginated: true,
});

export const getMarketingAsset = defineEndpoint({
  operationId: 'getMarketingAsset',
  surface: 'v1',
  method: 'get',
  path: '/marketing/assets/{assetId}',
  summary: 'Get a marketing asset',
  scopes: read,
  sdk: { namespace: ['marketing', 'assets'], method: 'get' },
  params: idParams('assetId'),
  response: { status: 200, description: 'The asset', schema: dataResponse(V1MarketingAsset) },
  resourceName: 'Asset',
  errors: [404],
});

export const createMarketingAsset = defineEndpoint({
  operationId: 'createMarketingAsset',
  surface: 'v1',
  method: 'post',
  path: '/marketing/assets',
  summary: 'Upload a marketing asset',
  description:
    'The same byte rules and store as car photos: one image per request as `base64` or an https `sourceUrl` the server fetches, at most 3 MiB decoded (413), `contentType` an image type matching the bytes. There is no `sessionId`: assets belong to the marketing library and never appear in a car’s gallery. The bytes are served at `url` (`/api/media/<id>`) to keys with `read:marketing-assets`.',
  scopes: write,
  sdk: { namespace: ['marketing', 'assets'], method: 'create' },
  body: V1MarketingAssetCreate,
  response: { status: 201, description: 'The asset', schema: dataResponse(V1MarketingAsset) },
  errors: [413],
});

export const updateMarketingAsset = defineEndpoint({
  operationId: 'updateMarketingAsset',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/assets/{assetId}',
  summary: 'Rename or move a marketing asset',
  scopes: write,
  sdk: { namespace: ['marketing', 'assets'], method: 'update' },
  params: idParams('assetId'),
  body: V1MarketingAssetUpdate,
  response: { status: 200, description: 'The asset', schema: dataResponse(V1MarketingAsset) },
  resourceName: 'Asset',
  errors: [404],
});

export const deleteMarketingAsset = defineEndpoint({
  operationId: 'deleteMarketingAsset',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/assets/{assetId}',
  summary: 'Delete a marketing asset and its bytes',
  description: 'The bytes go too: its `url` answers 404 afterwards, also where a post or message links it.',
  scopes: write,
  sdk: { namespace: ['marketing', 'assets'], method: 'delete' },
  params: idParams('assetId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Asset',
  errors: [404],
});

export const listAssetFolders = defineEndpoint({
  operationId: 'listAssetFolders',
  surface: 'v1',
  method: 'get',
  path: '/marketing/asset-folders',
  summary: 'List asset folders',
  scopes: read,
  sdk: { namespace: ['marketing', 'assetFolders'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    parentId: z
      .union([z.uuid(), z.literal('root')])
      .optional()
      .openapi({ description: 'Only folders directly inside this one; `root` for the top-level folders' }),
  }),
  response: { status: 200, description: 'A page of folders', schema: listResponse(V1AssetFolder) },
  paginated: true,
});

export const getAssetFolder = defineEndpoint({
  operationId: 'getAssetFolder',
  surface: 'v1',
  method: 'get',
  path: '/marketing/asset-folders/{folderId}',
  summary: 'Get an asset folder',
  scopes: read,
  sdk: { namespace: ['marketing', 'assetFolders'], method: 'get' },
  params: idParams('folderId'),
  response: { status: 200, description: 'The folder', schema: dataResponse(V1AssetFolder) },
  resourceName: 'Asset folder',
  errors: [404],
});

export const createAssetFolder = defineEndpoint({
  operationId: 'createAssetFolder',
  surface: 'v1',
  method: 'post',
  path: '/marketing/asset-folders',
  summary: 'Create an asset folder',
  description: '`parentId` nests it in another of the team’s folders; without it the folder is at the top level.',
  scopes: write,
  sdk: { namespace: ['marketing', 'assetFolders'], method: 'create' },
  body: V1AssetFolderCreate,
  response: { status: 201, description: 'The folder', schema: dataResponse(V1AssetFolder) },
});

export const updateAssetFolder = defineEndpoint({
  operationId: 'updateAssetFolder',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/asset-folders/{folderId}',
  summary: 'Rename or move an asset folder',
  description:
    'Moving a folder into itself or into one of its own subfolders would make a cycle and is a 400 at `parentId`.',
  scopes: write,
  sdk: { namespace: ['marketing', 'assetFolders'], method: 'update' },
  params: idParams('folderId'),
  body: V1AssetFolderUpdate,
  response: { status: 200, description: 'The folder', schema: dataResponse(V1AssetFolder) },
  resourceName: 'Asset folder',
  errors: [404],
});

export const deleteAssetFolder = defineEndpoint({
  operationId: 'deleteAssetFolder',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/asset-folders/{folderId}',
  summary: 'Delete an empty asset folder',
  description: 'Only an empty folder (no assets, no subfolders) can be deleted; otherwise 409, and nothing changes.',
  scopes: write,
  sdk: { namespace: ['marketing', 'assetFolders'], method: 'delete' },
  params: idParams('folderId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Asset folder',
  errors: [404, 409],
});
