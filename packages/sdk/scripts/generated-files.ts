import { fileURLToPath } from 'node:url';
import { ALL_SCOPES, acceptsIdempotencyKey, adminEndpoints, apiEndpoints, PHOTO_MAX_BYTES } from '@vsf/contract';
import { renderConstants } from './render-constants.js';
import { type ClientSpec, renderClient, renderRoutes } from './render-sdk.js';

const extensionsDir = fileURLToPath(new URL('../src/extensions', import.meta.url));

/** Every generated file of the SDK: path relative to the package → contents. */
export function generatedFiles(): Record<string, string> {
  const api: ClientSpec = {
    className: 'VsfClient',
    module: 'vsf-client',
    endpoints: apiEndpoints,
    routes: { name: 'apiEndpoints', module: 'api-endpoints' },
    optionsType: 'ClientOptions',
    extensionsDir,
    constructorBody:
      "super({ ...options, credential: options.apiKey }, { envName: 'VSF_API_KEY', baseUrlEnv: 'VSF_BASE_URL', defaultBaseUrl: 'http://localhost:3000/api/v1', describe: 'API key' });",
  };
  const admin: ClientSpec = {
    className: 'VsfAdminClient',
    module: 'vsf-admin-client',
    endpoints: adminEndpoints,
    routes: { name: 'adminEndpoints', module: 'admin-endpoints' },
    optionsType: "Omit<ClientOptions, 'apiKey' | 'authHeader'> & { adminToken?: string | undefined }",
    extensionsDir,
    constructorBody:
      "super({ ...options, credential: options.adminToken }, { envName: 'VSF_ADMIN_TOKEN', baseUrlEnv: 'VSF_ADMIN_URL', defaultBaseUrl: 'http://localhost:3000/admin/v1', describe: 'admin token' });",
  };
  const files: Record<string, string> = {
    'src/generated/constants.ts': renderConstants({ scopes: ALL_SCOPES, photoMaxBytes: PHOTO_MAX_BYTES }),
  };
  for (const spec of [api, admin]) {
    files[`src/generated/${spec.routes.module}.ts`] = renderRoutes(
      spec.routes.name,
      spec.endpoints,
      acceptsIdempotencyKey,
    );
    files[`src/generated/${spec.module}.ts`] = renderClient(spec);
  }
  return files;
}
