import { type ApiEndpoints, apiEndpoints } from '@vsf/contract';
import type { HandlerMap } from '../handler.js';
import { standardHandlers } from '../standard-handlers.js';
import { campaignsHandlers } from './campaigns-handlers.js';
import { communicationsHandlers } from './communications-handlers.js';
import { coreHandlers } from './core-handlers.js';
import { engagementHandlers } from './engagement-handlers.js';
import { facilityHandlers } from './facility-handlers.js';
import { webhooksHandlers } from './webhooks-handlers.js';

/** The handlers written by hand: special operations, and standard ones that behave differently. */
export const specialHandlers: Partial<HandlerMap<ApiEndpoints>> = {
  ...coreHandlers,
  ...facilityHandlers,
  ...communicationsHandlers,
  ...campaignsHandlers,
  ...engagementHandlers,
  ...webhooksHandlers,
};

/**
 * `/api/v1`: one handler per contract endpoint. The standard ones are derived from the contract and the
 * team resources (services/resources.ts); the hand-written ones add the special operations and override.
 * bindEndpoints refuses to start when an endpoint has none.
 */
export const apiHandlers = { ...standardHandlers(apiEndpoints), ...specialHandlers } as HandlerMap<ApiEndpoints>;
