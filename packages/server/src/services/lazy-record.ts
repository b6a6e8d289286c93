/**
 * An object whose values are made on first read, then kept. An idempotent request builds the services
 * again over its transaction and uses one or two of them: making all thirty-odd up front cost it more
 * than one of its database round trips.
 */
export function lazyRecord<T extends object>(factories: { readonly [K in keyof T]: () => T[K] }): T {
  const record = {} as T;
  for (const key of Object.keys(factories) as (keyof T & string)[]) {
    Object.defineProperty(record, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = factories[key]();
        Object.defineProperty(record, key, { value, enumerable: true, writable: false, configurable: false });
        return value;
      },
    });
  }
  return record;
}
