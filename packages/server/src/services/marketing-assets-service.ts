import { randomUUID } from 'node:crypto';
import type {
  createAssetFolder,
  createMarketingAsset,
  EndpointBody,
  EndpointQuery,
  listAssetFolders,
  listMarketingAssets,
  updateAssetFolder,
  updateMarketingAsset,
  V1AssetFolder,
  V1MarketingAsset,
} from '@vsf/contract';
import { conflict, notFound, validationFailed } from '../errors/api-http-error.js';
import { readImageUpload } from '../media/image-upload.js';
import { assetFoldersTable, type MarketingAssetRow, marketingAssetsTable } from '../repositories/engagement-tables.js';
import { type MediaRow, mediaTable } from '../repositories/facility-tables.js';
import type { Executor, ListResult } from '../repositories/team-scoped-table.js';
import { checkReferences } from './check-references.js';
import type { MediaDeps } from './service-deps.js';

/** Folders nest at most this deep; a longer walk up can only be a cycle left by a concurrent move. */
const MAX_FOLDER_DEPTH = 100;

const toAsset = (asset: MarketingAssetRow, media: MediaRow): V1MarketingAsset => ({
  id: asset.id,
  teamId: asset.teamId,
  folderId: asset.folderId,
  name: asset.name,
  filename: media.filename,
  contentType: media.contentType,
  sizeBytes: media.sizeBytes,
  url: `/api/media/${asset.id}`,
  createdAt: asset.createdAt,
  updatedAt: asset.updatedAt,
});

/** The marketing library: images (bytes in the shared media store) and the folders they sit in. */
export class MarketingAssetsService {
  constructor(private readonly deps: MediaDeps) {}

  private async withMedia(db: Executor, teamId: string, assets: MarketingAssetRow[]): Promise<V1MarketingAsset[]> {
    if (assets.length === 0) return [];
    const rows = await mediaTable
      .scoped(db, teamId)
      .whereIn(
        'media.id',
        assets.map((a) => a.id),
      )
      .select('media.*');
    const media = new Map(rows.map((r: Record<string, unknown>) => [r.id as string, mediaTable.toRecord(r)]));
    return assets.map((a) => toAsset(a, media.get(a.id) as MediaRow));
  }

  async list(teamId: string, query: EndpointQuery<typeof listMarketingAssets>): Promise<ListResult<V1MarketingAsset>> {
    const result = await marketingAssetsTable.list(this.deps.db, teamId, query, (q) => {
      if (query.folderId === 'root') q.whereNull('marketing_assets.folder_id');
      else if (query.folderId) q.where('marketing_assets.folder_id', query.folderId);
    });
    return { records: await this.withMedia(this.deps.db, teamId, result.records), total: result.total };
  }

  async get(teamId: string, id: string): Promise<V1MarketingAsset> {
    const asset = await marketingAssetsTable.findById(this.deps.db, teamId, id);
    if (!asset) throw notFound('Asset');
    return (await this.withMedia(this.deps.db, teamId, [asset]))[0] as V1MarketingAsset;
  }

  async create(teamId: string, body: EndpointBody<typeof createMarketingAsset>): Promise<V1MarketingAsset> {
    await checkReferences(this.deps.db, teamId, [
      { path: 'folderId', id: body.folderId, table: assetFoldersTable, resource: 'Asset folder' },
    ]);
    const { bytes, contentType } = await readImageUpload(body, this.deps.fetchDeps);
    const id = randomUUID();
    const storageKey = `${teamId}/${id}`;
    await this.deps.blobs.put(storageKey, bytes);
    try {
      return await this.deps.db.transaction(async (trx) => {
        const now = this.deps.now();
        // No carId and no sessionId: an asset is never part of a car's gallery.
        const media = await mediaTable.insert(
          trx,
          teamId,
          {
            id,
            kind: 'asset',
            carId: null,
            sessionId: null,
            filename: body.filename,
            contentType,
            sizeBytes: bytes.byteLength,
            storageKey,
          },
          now,
        );
        const asset = await marketingAssetsTable.insert(
          trx,
          teamId,
          { id, folderId: body.folderId ?? null, name: body.name ?? body.filename },
          now,
        );
        return toAsset(asset, media);
      });
    } catch (error) {
      // The caller needs the insert's error, not a cleanup failure of the store; a leftover blob harms nobody.
      await this.deps.blobs.delete(storageKey).catch(() => undefined);
      throw error;
    }
  }

  async update(teamId: string, id: string, body: EndpointBody<typeof updateMarketingAsset>): Promise<V1MarketingAsset> {
    if (!(await marketingAssetsTable.exists(this.deps.db, teamId, id))) throw notFound('Asset');
    await checkReferences(this.deps.db, teamId, [
      { path: 'folderId', id: body.folderId, table: assetFoldersTable, resource: 'Asset folder' },
    ]);
    await marketingAssetsTable.update(this.deps.db, teamId, id, body, this.deps.now());
    return this.get(teamId, id);
  }

  /** The metadata and media rows go together; the bytes after the commit (a leftover blob harms nobody). */
  async delete(teamId: string, id: string) {
    const media = await this.deps.db.transaction(async (trx) => {
      if (!(await marketingAssetsTable.delete(trx, teamId, id))) throw notFound('Asset');
      const row = await mediaTable.findById(trx, teamId, id);
      await mediaTable.delete(trx, teamId, id);
      return row;
    });
    // The delete is committed: a store that fails to drop the bytes must not turn it into an error.
    if (media) await this.deps.blobs.delete(media.storageKey).catch(() => undefined);
    return { id, deleted: true as const };
  }

  listFolders(teamId: string, query: EndpointQuery<typeof listAssetFolders>): Promise<ListResult<V1AssetFolder>> {
    return assetFoldersTable.list(this.deps.db, teamId, query, (q) => {
      if (query.parentId === 'root') q.whereNull('asset_folders.parent_id');
      else if (query.parentId) q.where('asset_folders.parent_id', query.parentId);
    });
  }

  async getFolder(teamId: string, id: string): Promise<V1AssetFolder> {
    const folder = await assetFoldersTable.findById(this.deps.db, teamId, id);
    if (!folder) throw notFound('Asset folder');
    return folder;
  }

  async createFolder(teamId: string, body: EndpointBody<typeof createAssetFolder>): Promise<V1AssetFolder> {
    await checkReferences(this.deps.db, teamId, [
      { path: 'parentId', id: body.parentId, table: assetFoldersTable, resource: 'Asset folder' },
    ]);
    return assetFoldersTable.insert(
      this.deps.db,
      teamId,
      { id: randomUUID(), name: body.name, parentId: body.parentId ?? null },
      this.deps.now(),
    );
  }

  async updateFolder(teamId: string, id: string, body: EndpointBody<typeof updateAssetFolder>): Promise<V1AssetFolder> {
    return this.deps.db.transaction(async (trx) => {
      if (!(await assetFoldersTable.findById(trx, teamId, id, { forUpdate: true }))) throw notFound('Asset folder');
      if (body.parentId) {
        await checkReferences(trx, teamId, [
          { path: 'parentId', id: body.parentId, table: assetFoldersTable, resource: 'Asset folder' },
        ]);
        if (await this.isWithin(trx, teamId, body.parentId, id))
          throw validationFailed([
            { path: 'parentId', message: 'A folder cannot move into itself or one of its own subfolders' },
          ]);
      }
      return (await assetFoldersTable.update(trx, teamId, id, body, this.deps.now())) as V1AssetFolder;
    });
  }

  /** Whether `folderId` is `ancestorId` or lies somewhere inside it. */
  private async isWithin(db: Executor, teamId: string, folderId: string, ancestorId: string): Promise<boolean> {
    let current: string | null = folderId;
    for (let depth = 0; current && depth < MAX_FOLDER_DEPTH; depth++) {
      if (current === ancestorId) return true;
      const folder: V1AssetFolder | undefined = await assetFoldersTable.findById(db, teamId, current);
      current = folder?.parentId ?? null;
    }
    return current !== null;
  }

  async deleteFolder(teamId: string, id: string) {
    return this.deps.db.transaction(async (trx) => {
      if (!(await assetFoldersTable.findById(trx, teamId, id, { forUpdate: true }))) throw notFound('Asset folder');
      const asset = await marketingAssetsTable.scoped(trx, teamId).where('marketing_assets.folder_id', id).first('id');
      const child = await assetFoldersTable.scoped(trx, teamId).where('asset_folders.parent_id', id).first('id');
      if (asset || child) throw conflict('The folder is not empty; move or delete its assets and subfolders first');
      await assetFoldersTable.delete(trx, teamId, id);
      return { id, deleted: true as const };
    });
  }
}
