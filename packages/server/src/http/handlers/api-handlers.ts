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
export const specialHandlers = {
  ...coreHandlers,
  ...facilityHandlers,
  ...communicationsHandlers,
  ...campaignsHandlers,
  ...engagementHandlers,
  ...webhooksHandlers,
} satisfies Partial<HandlerMap<ApiEndpoints>>;

/**
 * `/api/v1`: one handler per contract endpoint. The standard ones are derived from the contract and the
 * team resources (services/resources.ts); the hand-written ones add the special operations and override.
 * Complete by type, like Effect's `HttpApiBuilder`: an operation that is not a standard one and has no
 * hand-written handler is a compile error here (and a standard one whose resource has no service makes
 * bindEndpoints refuse to start).
 */
export const apiHandlers: HandlerMap<ApiEndpoints> = { ...standardHandlers(apiEndpoints), ...specialHandlers };
