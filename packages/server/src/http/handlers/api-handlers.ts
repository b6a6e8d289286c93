import type { ApiEndpoints } from '@vsf/contract';
import type { HandlerMap } from '../handler.js';
import { campaignsHandlers } from './campaigns-handlers.js';
import { communicationsHandlers } from './communications-handlers.js';
import { coreHandlers } from './core-handlers.js';
import { engagementHandlers } from './engagement-handlers.js';
import { facilityHandlers } from './facility-handlers.js';

/** `/api/v1`: one handler per contract endpoint, composed from each area's map. */
export const apiHandlers: HandlerMap<ApiEndpoints> = {
  ...coreHandlers,
  ...facilityHandlers,
  ...communicationsHandlers,
  ...campaignsHandlers,
  ...engagementHandlers,
};
