import { contentTypeMatches, detectImageType } from './image-type.js';
import type { z } from './zod.js';

/** One entry of a 400's `details` (`ValidationIssue` in OpenAPI): the field's dotted path, and what is wrong. */
export interface ValidationDetail {
  path: string;
  message: string;
}

type Issue = z.core.$ZodIssue;

const onlyNotNull = (branch: Issue[]) =>
  branch.length === 1 && branch[0]?.code === 'invalid_type' && branch[0].expected === 'null';

/**
 * A value that is neither null nor a valid object, for a field that is an object or null (`z.union([X,
 * z.null()])`, how a named component is made nullable), is explained by what is wrong with the object, at
 * its own paths (`communicationPreferences.marketing`), not as "Invalid input" on the whole field.
 */
function withoutNullBranch(issue: Issue, base: PropertyKey[]): Issue[] {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union') {
    const others = issue.errors.filter((branch) => !onlyNotNull(branch));
    if (others.length === 1 && others.length < issue.errors.length)
      return (others[0] as Issue[]).flatMap((inner) => withoutNullBranch(inner, path));
  }
  return [{ ...issue, path }];
}

/**
 * zod's issues as a 400's details: the dotted path (under `prefix`, for a body nested in a larger one) and
 * zod's message, unknown keys named. The reference server and the mock (`@vsf/testing`) both answer with this.
 */
export function toValidationDetails(error: z.ZodError, prefix?: string): ValidationDetail[] {
  return error.issues
    .flatMap((issue) => withoutNullBranch(issue, []))
    .map((issue) => {
      const path = [...(prefix ? [prefix] : []), ...issue.path.map(String)].join('.');
      if (issue.code === 'unrecognized_keys') {
        return { path, message: `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}` };
      }
      return { path, message: issue.message };
    });
}

/**
 * The type an uploaded image's bytes really are, or the 400 detail (on `contentType`) when they are not an
 * image accepted or not the type declared. The reference server and the mock (`@vsf/testing`) both refuse
 * with it.
 */
export function checkImageBytes(
  bytes: Uint8Array,
  declared: string,
): { contentType: string; problem?: undefined } | { problem: ValidationDetail } {
  const detected = detectImageType(bytes);
  if (!detected)
    return {
      problem: { path: 'contentType', message: 'The bytes are not a JPEG, PNG, GIF, WebP, HEIC or AVIF image' },
    };
  if (!contentTypeMatches(declared, detected))
    return { problem: { path: 'contentType', message: `Declared ${declared} but the bytes are ${detected}` } };
  return { contentType: detected };
}
