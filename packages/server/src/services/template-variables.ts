import { TEMPLATE_VARIABLES, type TemplateVariable } from '@vsf/contract';

/** The variables used across texts, in order of first use. */
export function variablesIn(...texts: (string | null | undefined)[]): TemplateVariable[] {
  const found: TemplateVariable[] = [];
  for (const text of texts) {
    for (const match of (text ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
      const name = match[1] as TemplateVariable;
      if ((TEMPLATE_VARIABLES as readonly string[]).includes(name) && !found.includes(name)) found.push(name);
    }
  }
  return found;
}
