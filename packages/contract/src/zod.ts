import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Every schema in the contract is built from this instance so `.openapi()` metadata is always available.
extendZodWithOpenApi(z);

export { z };
