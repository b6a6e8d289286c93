import { defineEndpoint } from '../endpoint.js';
import { V1AuthKey } from '../schemas/auth-key.js';
import { dataResponse } from '../schemas/common.js';

export const getAuthKey = defineEndpoint({
  operationId: 'getAuthKey',
  surface: 'v1',
  method: 'get',
  path: '/auth/key',
  summary: 'Describe the API key making the request',
  description: 'Any valid key may call it; no scope is needed. Use it to check a key before relying on it.',
  scopes: { all: [] },
  sdk: { namespace: ['auth'], method: 'getKey' },
  response: { status: 200, description: 'The key, without its secret', schema: dataResponse(V1AuthKey) },
});
