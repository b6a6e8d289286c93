import { field, fieldTable } from '../field-table.js';
import { z } from '../zod.js';
import { NameText } from './bounds.js';
import { Timestamp, Uuid } from './common.js';
import { hasOneImageSource, IMAGE_UPLOAD_EXAMPLE, imageUploadFields, storedImageFields } from './image-upload.js';

export const V1MarketingAsset = z
  .object({
    id: Uuid.openapi({ description: 'Also the media id: the bytes are at `/api/media/<id>`' }),
    teamId: z.string(),
    folderId: Uuid.nullable().openapi({ description: 'null: at the top level' }),
    name: z.string(),
    ...storedImageFields,
    url: z.string().openapi({ description: '`/api/media/<id>`: the bytes, for keys with `read:marketing-assets`' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('V1MarketingAsset', {
    description: 'An image in the marketing library. Assets never appear in a car’s gallery.',
  });
export type V1MarketingAsset = z.infer<typeof V1MarketingAsset>;

export const V1MarketingAssetCreate = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: 'Display name; default the filename (its first 200 characters)' }),
    folderId: Uuid.nullable().optional(),
    ...imageUploadFields,
  })
  .refine(...hasOneImageSource)
  .openapi('V1MarketingAssetCreate', { example: { name: 'Spring open house banner', ...IMAGE_UPLOAD_EXAMPLE } });
export type V1MarketingAssetCreate = z.input<typeof V1MarketingAssetCreate>;

export const V1MarketingAssetUpdate = z
  .strictObject({
    name: z.string().min(1).max(200).optional(),
    folderId: Uuid.nullable().optional().openapi({ description: 'Moves the asset; null moves it to the top level' }),
  })
  .openapi('V1MarketingAssetUpdate', { description: 'Rename or move; the bytes never change (upload a new asset)' });
export type V1MarketingAssetUpdate = z.input<typeof V1MarketingAssetUpdate>;

/** An asset folder's fields, each once: the record and both bodies follow. */
export const assetFolderTable = fieldTable('V1AssetFolder', {
  name: field(NameText.min(1), { example: 'Brochures' }),
  parentId: field(Uuid, {
    nullable: true,
    doc: 'The enclosing folder; null at the top level. Changing it moves the folder with its contents; a folder cannot move into itself or a folder inside it (400)',
  }),
});
export const V1AssetFolder = assetFolderTable.record;
export type V1AssetFolder = z.infer<typeof V1AssetFolder>;
export const V1AssetFolderCreate = assetFolderTable.createBody;
export type V1AssetFolderCreate = z.input<typeof V1AssetFolderCreate>;
export const V1AssetFolderUpdate = assetFolderTable.updateBody;
export type V1AssetFolderUpdate = z.input<typeof V1AssetFolderUpdate>;
