import { defineResource } from '../define-resource.js';
import * as asset from '../schemas/marketing-asset.js';
import { z } from '../zod.js';
import { marketing } from './groups.js';

/** `folderId`/`parentId` filters: a folder's id, or `root` for the top level. */
const folderFilter = (description: string) =>
  z
    .union([z.uuid(), z.literal('root')])
    .optional()
    .openapi({ description });

export const assets = defineResource(marketing, {
  name: 'MarketingAsset',
  path: '/assets',
  id: 'assetId',
  label: 'Asset',
  title: 'marketing asset',
  scope: 'marketing-assets',
  record: asset.V1MarketingAsset,
  createBody: asset.V1MarketingAssetCreate,
  updateBody: asset.V1MarketingAssetUpdate,
  references: ['folderId'],
  filters: {
    folderId: folderFilter('Only assets directly in this folder; `root` for those at the top level'),
  },
  create: {
    summary: 'Upload a marketing asset',
    description:
      'The same byte rules and store as car photos: one image per request as `base64` or an https `sourceUrl` the server fetches, at most 3 MiB decoded (413), `contentType` an image type matching the bytes. There is no `sessionId`: assets belong to the marketing library and never appear in a car’s gallery. The bytes are served at `url` (`/api/media/<id>`) to keys with `read:marketing-assets`.',
    errors: [413],
    binaryUpload: true,
  },
  update: { summary: 'Rename or move a marketing asset' },
  delete: {
    summary: 'Delete a marketing asset and its bytes',
    description: 'The bytes go too: its `url` answers 404 afterwards, also where a post or message links it.',
  },
});

export const folders = defineResource(marketing, {
  name: 'AssetFolder',
  path: '/asset-folders',
  id: 'folderId',
  scope: 'marketing-assets',
  ...asset.assetFolderTable,
  filters: {
    parentId: folderFilter('Only folders directly inside this one; `root` for the top-level folders'),
  },
  create: {
    description: '`parentId` nests it in another of the team’s folders; without it the folder is at the top level.',
  },
  update: {
    summary: 'Rename or move an asset folder',
    description:
      'Moving a folder into itself or into one of its own subfolders would make a cycle and is a 400 at `parentId`.',
  },
  delete: {
    summary: 'Delete an empty asset folder',
    description: 'Only an empty folder (no assets, no subfolders) can be deleted; otherwise 409, and nothing changes.',
    errors: [409],
  },
});
