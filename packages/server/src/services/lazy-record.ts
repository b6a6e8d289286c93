/** How each value of a lazy record is made: from the record's dependencies, and the record itself. */
export type LazyFactories<D, T> = { readonly [K in keyof T]: (deps: D, record: T) => T[K] };

/**
 * Records whose values are made on first read, then kept. An idempotent request builds the services
 * again over its transaction and uses one or two of them, so what a record costs to make is what counts:
 * the factories and the handler are shared by every record, and a record is a Proxy over one Map, however
 * many keys it has. It still lists every key (`Object.keys`, `Object.values`, which make every value).
 */
export function lazyRecordOf<D, T extends object>(factories: LazyFactories<D, T>): (deps: D) => T {
  const keys = Object.keys(factories) as (keyof T & string)[];
  const known = new Set<PropertyKey>(keys);
  type Target = { deps: D; made: Map<PropertyKey, unknown>; record?: T };
  const value = (target: Target, key: keyof T & string): unknown => {
    if (!target.made.has(key)) target.made.set(key, factories[key](target.deps, target.record as T));
    return target.made.get(key);
  };
  const handler: ProxyHandler<Target> = {
    get: (target, key) => (known.has(key) ? value(target, key as keyof T & string) : undefined),
    has: (_target, key) => known.has(key),
    ownKeys: () => [...keys],
    getOwnPropertyDescriptor: (target, key) =>
      known.has(key)
        ? { value: value(target, key as keyof T & string), enumerable: true, writable: false, configurable: true }
        : undefined,
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  };
  return (deps) => {
    const target: Target = { deps, made: new Map() };
    const record = new Proxy(target, handler) as unknown as T;
    target.record = record;
    return record;
  };
}

/** One lazy record from factories that need no dependencies. */
export function lazyRecord<T extends object>(factories: { readonly [K in keyof T]: () => T[K] }): T {
  return lazyRecordOf<undefined, T>(factories)(undefined);
}
