import type { CoreEndpoints } from '@vsf/contract';
import { isConnectorRequest } from '../connector-request.js';
import type { SpecialHandlers } from '../handler.js';
import { presentedApiKey } from '../request-credentials.js';

/** Keys, cars, customers, contacts, locations, event types, the events feed: every handler works inside the calling key's team (`auth.teamId`). */
export const coreHandlers = {
  getAuthKey: async ({ auth }) => ({
    data: {
      id: auth.keyId,
      name: auth.keyName,
      prefix: auth.prefix,
      teamId: auth.teamId,
      scopes: [...auth.scopes],
      expiresAt: auth.expiresAt,
      createdAt: auth.createdAt,
    },
  }),

  listEvents: async ({ auth, query, services, req, res }) => {
    // A long poll ends when its client leaves.
    const left = new AbortController();
    res.on('close', () => left.abort());
    // A long poll answers on the credential's standing when it answers, not when it came in: checked again
    // exactly as the request's authentication checked it (an assistant's token only on a connector call).
    const recheck = () => services.auth.authenticate(presentedApiKey(req), { connector: isConnectorRequest(req) });
    return services.events.list(auth, query, left.signal, recheck);
  },
} satisfies SpecialHandlers<CoreEndpoints>;
