const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An answer with what differs between any two runs taken out: ids become `<id1>`, `<id2>`… in the order
 * first seen (so which record refers to which still shows), timestamps `<time>`, teams `<team>`, tokens
 * `<sample>`; what is left must be the same from the server and from the mock.
 */
export function normalize(value: unknown, ids = new Map<string, string>()): unknown {
  if (typeof value === 'string') {
    if (TIMESTAMP.test(value)) return '<time>';
    const replaced = value.replace(UUID, (id) => {
      const key = id.toLowerCase();
      if (!ids.has(key)) ids.set(key, `<id${ids.size + 1}>`);
      return ids.get(key) as string;
    });
    return replaced.replace(/sample\d+/g, '<sample>');
  }
  if (Array.isArray(value)) return value.map((item) => normalize(item, ids));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key === 'teamId' ? '<team>' : normalize(item, ids)]),
    );
  }
  return value;
}
