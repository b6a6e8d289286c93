/** Query values as the API reads them: Dates as ISO 8601, arrays comma-joined, booleans as true/false. */
export function serializeQuery(query: object | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (value instanceof Date) params.set(key, value.toISOString());
    else if (Array.isArray(value)) params.set(key, value.map(String).join(','));
    else params.set(key, String(value));
  }
  return params;
}
