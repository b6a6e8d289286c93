import type { EndpointBody, updateAssetFolder, V1AssetFolder } from '@vsf/contract';
import { conflict, validationFailed } from '../../errors/api-http-error.js';
import { assetFoldersTable, marketingAssetsTable } from '../../repositories/tables.js';
import type { Executor } from '../../repositories/team-scoped-table.js';
import { checkReferences, type Reference } from '../check-references.js';
import type { ServiceDeps } from '../service-deps.js';
import { type ListFilter, TeamResource } from '../standard/team-resource.js';

/** Folders nest at most this deep; a longer walk up can only be a cycle left by a concurrent move. */
const MAX_FOLDER_DEPTH = 100;

/** A folder filter: `root` means outside any folder. */
export const inFolder =
  <Row>(field: keyof Row & string): ListFilter<Row> =>
  (q, value, column) => {
    if (value === 'root') q.whereNull(column(field));
    else if (value) q.where(column(field), value as string);
  };

const parentReference = (id: string | null | undefined): Reference[] => [
  { path: 'parentId', id, table: assetFoldersTable, resource: 'Asset folder' },
];

/** Asset folders: a tree; a folder never moves into itself, and only an empty one is deleted. */
export class AssetFolders extends TeamResource<V1AssetFolder> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.assetFolders', {
      defaults: { parentId: null },
      filters: { parentId: inFolder('parentId') },
    });
  }

  override async create(teamId: string, payload: unknown): Promise<V1AssetFolder> {
    await checkReferences(this.deps.db, teamId, parentReference((payload as { parentId?: string | null }).parentId));
    return super.create(teamId, payload);
  }

  override async update(teamId: string, folderId: unknown, payload: unknown): Promise<V1AssetFolder> {
    const body = payload as EndpointBody<typeof updateAssetFolder>;
    const id = folderId as string;
    return this.deps.db.transaction(async (trx) => {
      await this.findRow(teamId, [id], trx, { forUpdate: true });
      if (body.parentId) {
        await checkReferences(trx, teamId, parentReference(body.parentId));
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

  override async delete(teamId: string, id: string) {
    return this.deps.db.transaction(async (trx) => {
      await this.findRow(teamId, [id], trx, { forUpdate: true });
      const asset = await marketingAssetsTable
        .scoped(trx, teamId)
        .where(marketingAssetsTable.column('folderId'), id)
        .first('id');
      const child = await assetFoldersTable
        .scoped(trx, teamId)
        .where(assetFoldersTable.column('parentId'), id)
        .first('id');
      if (asset || child) throw conflict('The folder is not empty; move or delete its assets and subfolders first');
      await assetFoldersTable.delete(trx, teamId, id);
      return { id, deleted: true as const };
    });
  }
}
