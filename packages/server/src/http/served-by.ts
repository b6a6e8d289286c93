import type { Services } from '../services/index.js';

/**
 * Which service serves each resource's standard operations (list, get, create, update, delete), by the
 * resource's SDK namespace in the contract. A service that serves several resources names its methods
 * after each (`parking`: `listZones`, `getZone`, `createZone`…): that noun is the second entry.
 * Every standard endpoint's handler is derived from this table (standard-handlers.ts).
 */
export const SERVED_BY: Record<string, readonly [service: keyof Services, noun?: string]> = {
  'marketing.assets': ['marketingAssets'],
  'marketing.assetFolders': ['marketingAssets', 'Folder'],
};
