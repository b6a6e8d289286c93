/** What every request resolves to underneath: the parsed value and the raw response. */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

/**
 * A promise of the parsed result that can also give the raw `Response` (status, `Date`, `x-request-id`,
 * rate-limit headers): `await client.cars.get(id).withResponse()`.
 */
export class APIPromise<T> implements PromiseLike<T> {
  constructor(private readonly result: Promise<WithResponse<T>>) {
    // The caller may only ever use withResponse(); an unobserved rejection must not crash the process.
    result.catch(() => {});
  }

  withResponse(): Promise<WithResponse<T>> {
    return this.result;
  }

  async asResponse(): Promise<Response> {
    return (await this.result).response;
  }

  // biome-ignore lint/suspicious/noThenProperty: this class is a promise by design.
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // One reaction, not two chained: awaiting a call costs no extra turn for unwrapping `data`.
    return this.result.then(onfulfilled ? (r) => onfulfilled(r.data) : (r) => r.data as unknown as R1, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  get [Symbol.toStringTag]() {
    return 'APIPromise';
  }
}
