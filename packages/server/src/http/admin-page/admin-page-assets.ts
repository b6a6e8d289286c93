import { readFile } from 'node:fs/promises';

export const ADMIN_PAGE_SCRIPT_PATH = '/admin/assets/admin-page.js';
export const ADMIN_PAGE_STYLE_PATH = '/admin/assets/admin-page.css';

export interface AdminPageAsset {
  contentType: string;
  body: Buffer;
}

/** The page's files, by name under `/admin/assets/`. Written by hand, served as they are: nothing to build. */
const ASSET_TYPES: ReadonlyMap<string, string> = new Map([
  ['admin-page.js', 'text/javascript; charset=utf-8'],
  ['admin-page.css', 'text/css; charset=utf-8'],
]);

const loaded = new Map<string, Promise<AdminPageAsset>>();

/**
 * Reads an asset once per process (they never change while the server runs). Unknown names give
 * `undefined`, so a request can never reach other files next to them.
 */
export function adminPageAsset(name: string): Promise<AdminPageAsset> | undefined {
  // A Map, not an object: `__proto__`, `constructor` or `toString` must be as unknown as any other name.
  const contentType = ASSET_TYPES.get(name);
  if (!contentType) return undefined;
  let asset = loaded.get(name);
  if (!asset) {
    asset = readFile(new URL(`./assets/${name}`, import.meta.url)).then((body) => ({ contentType, body }));
    // A failed read (a broken install) is retried on the next request rather than cached.
    asset.catch(() => loaded.delete(name));
    loaded.set(name, asset);
  }
  return asset;
}
