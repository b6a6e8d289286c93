/** Checked-in OpenAPI documents, relative to the package root. */
export const OPENAPI_FILES = { v1: 'openapi.json', admin: 'openapi-admin.json' } as const;
