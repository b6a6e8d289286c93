import type { z } from 'zod';
import type { ValidationDetail } from '../errors/api-http-error.js';

export function toValidationDetails(error: z.ZodError, prefix?: string): ValidationDetail[] {
  return error.issues.map((issue) => {
    const path = [...(prefix ? [prefix] : []), ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      return { path, message: `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}` };
    }
    return { path, message: issue.message };
  });
}
