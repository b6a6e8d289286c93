import { fileURLToPath } from 'node:url';
import { adminEndpoints, apiEndpoints } from '@vsf/contract';
import { type ClientSpec, renderClient } from './render-sdk.js';

const extensionsDir = fileURLToPath(new URL('../src/extensions', import.meta.url));

/** Every generated file of the SDK: path relative to the package → contents. */
export function generatedFiles(): Record<string, string> {
  const api: ClientSpec = {
    className: 'VsfClient',
    endpoints: apiEndpoints,
    optionsType: 'ClientOptions',
    extensionsDir,
    constructorBody:
      "super({ ...options, credential: options.apiKey }, { envName: 'VSF_API_KEY', baseUrlEnv: 'VSF_BASE_URL', defaultBaseUrl: 'http://localhost:3000/api/v1', describe: 'API key' });",
  };
  const admin: ClientSpec = {
    className: 'VsfAdminClient',
    endpoints: adminEndpoints,
    optionsType: "Omit<ClientOptions, 'apiKey' | 'authHeader'> & { adminToken?: string | undefined }",
    extensionsDir,
    constructorBody:
      "super({ ...options, credential: options.adminToken }, { envName: 'VSF_ADMIN_TOKEN', baseUrlEnv: 'VSF_ADMIN_URL', defaultBaseUrl: 'http://localhost:3000/admin/v1', describe: 'admin token' });",
  };
  return {
    'src/generated/vsf-client.ts': renderClient(api),
    'src/generated/vsf-admin-client.ts': renderClient(admin),
  };
}
