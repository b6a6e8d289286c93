import { defineGroup } from '../define-resource.js';

/** Resources at the top of `/api/v1`, each naming its own scope. */
export const v1 = defineGroup({ surface: 'v1', prefix: '' });

/** `/api/v1/marketing/…`, under `client.marketing`. */
export const marketing = defineGroup({ surface: 'v1', prefix: '/marketing', sdk: ['marketing'] });
