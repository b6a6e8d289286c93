import { randomUUID } from 'node:crypto';
import type { createMarketingAsset, EndpointBody, V1MarketingAsset } from '@vsf/contract';
import { readImageUpload } from '../../media/image-upload.js';
import { storeThenRecord } from '../../media/stored-blob.js';
import { type MarketingAssetRow, type MediaRow, marketingAssetsTable, mediaTable } from '../../repositories/tables.js';
import type { Executor, ListResult } from '../../repositories/team-scoped-table.js';
import type { MediaDeps } from '../service-deps.js';
import { checkBodyReferences } from '../standard/resource-routes.js';
import { TeamResource } from '../standard/team-resource.js';
import { inFolder } from './asset-folders.js';

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

/** The marketing library's images: the asset row names it, the bytes' metadata is a media row of the same id. */
/** Names hold 200 characters, filenames 255: a name taken from the filename is cut to fit, whole characters. */
const NAME_MAX = 200;
function defaultName(filename: string): string {
  const cut = filename.slice(0, NAME_MAX);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

export class MarketingAssets extends TeamResource<V1MarketingAsset, MarketingAssetRow> {
  constructor(protected override readonly deps: MediaDeps) {
    super(deps, 'marketing.assets', { filters: { folderId: inFolder('folderId') } });
  }

  override async list(teamId: string, ...args: unknown[]): Promise<ListResult<V1MarketingAsset>> {
    const page = await super.list(teamId, ...args);
    const rows = page.records as unknown as MarketingAssetRow[];
    return { records: await this.withMedia(this.deps.db, teamId, rows), total: page.total };
  }

  override async recordsOf(teamId: string, stored: readonly Record<string, unknown>[]) {
    const assets = stored.map((row) => this.table.toRecord(row));
    const media = await this.mediaOf(this.deps.db, teamId, assets);
    // An asset deleted since has no bytes' row left: its event shows the asset's own row.
    return assets.map((a) => {
      const bytes = media.get(a.id);
      return bytes ? toAsset(a, bytes) : (a as unknown as V1MarketingAsset);
    });
  }

  override async get(teamId: string, id: string): Promise<V1MarketingAsset> {
    const row = await this.findRow(teamId, [id]);
    return (await this.withMedia(this.deps.db, teamId, [row]))[0] as V1MarketingAsset;
  }

  override async update(teamId: string, id: unknown, payload: unknown): Promise<V1MarketingAsset> {
    await super.update(teamId, id, payload);
    return this.get(teamId, id as string);
  }

  private async withMedia(db: Executor, teamId: string, assets: MarketingAssetRow[]): Promise<V1MarketingAsset[]> {
    const media = await this.mediaOf(db, teamId, assets);
    return assets.map((a) => toAsset(a, media.get(a.id) as MediaRow));
  }

  private async mediaOf(
    db: Executor,
    teamId: string,
    assets: readonly MarketingAssetRow[],
  ): Promise<Map<string, MediaRow>> {
    if (assets.length === 0) return new Map();
    const rows = await mediaTable
      .scoped(db, teamId)
      .whereIn(
        'media.id',
        assets.map((a) => a.id),
      )
      .select('media.*');
    return new Map(rows.map((r: Record<string, unknown>) => [r.id as string, mediaTable.toRecord(r) as MediaRow]));
  }

  override async create(teamId: string, payload: unknown): Promise<V1MarketingAsset> {
    const body = payload as EndpointBody<typeof createMarketingAsset>;
    await checkBodyReferences(this.deps.db, teamId, this.routes.endpoints.create, body);
    const { bytes, contentType } = await readImageUpload(body, this.deps.fetchDeps);
    const id = randomUUID();
    const storageKey = `${teamId}/${id}`;
    return storeThenRecord(this.deps.blobs, storageKey, bytes, () =>
      this.deps.db.transaction(async (trx) => {
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
          { id, folderId: body.folderId ?? null, name: body.name ?? defaultName(body.filename) },
          now,
        );
        return toAsset(asset, media);
      }),
    );
  }

  /** The metadata and media rows go together; the bytes after the commit (a leftover blob harms nobody). */
  override async delete(teamId: string, id: string) {
    const media = await this.deps.db.transaction(async (trx) => {
      if (!(await marketingAssetsTable.delete(trx, teamId, id))) throw this.missing();
      const row = await mediaTable.findById(trx, teamId, id);
      await mediaTable.delete(trx, teamId, id);
      return row;
    });
    // The delete is committed: a store that fails to drop the bytes must not turn it into an error.
    if (media) await this.deps.blobs.delete(media.storageKey).catch(() => undefined);
    return { id, deleted: true as const };
  }
}
